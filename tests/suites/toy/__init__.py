"""The toy suite: a core (``suite.py``) and two facets (``report.py``, ``commands.py``)."""
