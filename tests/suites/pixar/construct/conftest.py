"""The PIXAR construction tests' seed folder (``support/seed_folder.py``)."""

from support.seed_folder import constructions_received, know, seed_dir  # noqa: F401
