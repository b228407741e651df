"""Offline baselines that need no suite: ``builtin/artefact`` (a pixel-evidence detector)."""
