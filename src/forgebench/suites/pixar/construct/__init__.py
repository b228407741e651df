"""PIXAR's construction parts (COCO-annotated images -> pairs); see :mod:`.parts`."""
