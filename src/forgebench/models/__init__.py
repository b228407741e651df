"""Who answers: every backend behind one async interface (``models/base.py``)."""
