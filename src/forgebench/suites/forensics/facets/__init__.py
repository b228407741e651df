"""Forensics' facets, one module each (named in ``ForensicsSuite.facets``, imported when a verb
asks): ``dataset``, ``importer``, ``prompts``, ``judge``, ``tables``, ``figures``, ``report``,
``viewer``, ``export``, ``commands``, ``providers``."""
