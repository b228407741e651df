"""The Mandela construction tests' seed folder (``support/seed_folder.py``)."""

from support.seed_folder import know, seed_dir  # noqa: F401
