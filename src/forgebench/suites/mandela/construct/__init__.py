"""Mandela's construction parts (seed folders -> a dataset); see :mod:`.parts`."""
