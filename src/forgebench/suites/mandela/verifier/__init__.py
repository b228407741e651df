"""``builtin/verifier``: the offline knowledge verifier.

A reference-grounded baseline for the Mandela suite: it reads visible text (OCR), finds and
identifies faces against a portrait gallery, recognises the canonical scene, and checks all of it
against a knowledge-base folder (scene records and fact table of ``construct/scenes.py``). See
``model.py`` for the backend, ``reasoning.py`` for what counts as a contradiction.
"""
