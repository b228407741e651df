"""PIXAR's facets, one module each (named in ``PixarSuite.facets``, imported when a verb asks):
``dataset``, ``prompts``, ``tables``, ``report``, ``viewer``, ``export``, ``commands``,
``construction``."""
