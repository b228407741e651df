"""The toy suite (see ``suite.py``)."""
