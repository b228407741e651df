"""Mandela's facets, one module each (named in ``MandelaSuite.facets``, imported when a verb
asks): ``dataset``, ``importer``, ``prompts``, ``verdict``, ``judge``, ``calibration``,
``tables``, ``figures``, ``report``, ``viewer``, ``export``, ``construction``, ``providers``."""
