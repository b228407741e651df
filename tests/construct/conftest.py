"""The construction tests' seed folder and fake image editor (``support/seed_folder.py``)."""

from support.seed_folder import constructions_received, fake_images, know, seed_dir  # noqa: F401
