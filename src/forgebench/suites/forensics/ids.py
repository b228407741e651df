"""Forensics' probe, condition and protocol names as plain constants.

The suite's class attributes are built from these, so registering the suite (which every CLI
start does) imports no NumPy, OpenCV, Pillow or pydantic; the modules that render and score
(:mod:`.perturb`, :mod:`.studies`, :mod:`.attribution`, :mod:`.questions`) take them from here.
"""

from __future__ import annotations

MCQ = "MCQ"
"""The release's multiple-choice question."""
ATTR, ATTR_DESC = "ATTR", "ATTR_DESC"
"""The attribution probes (Tables 4 and 13)."""
MCQ_CHOICE = "MCQ_CHOICE"
"""The MCQ question with the answer constrained to one option letter by the server
(``--protocol choice``): never mixed into ``MCQ``'s numbers."""
PROBES = (MCQ, ATTR, ATTR_DESC, MCQ_CHOICE)

TILED = "tiled"
"""A multi-image row's images tiled into one."""
STUDY_CONDITIONS = ("multi_image", "prefix", "face_boxes")
"""The prompt studies' conditions (Tables 11, 12 and 14)."""

LEVELS = (1, 2, 3, 4, 5)
"""Perturbation levels."""
KINDS = ("saturation", "contrast", "block", "noise", "blur", "pixelate", "jpeg")
"""Perturbation kinds, in the order of :data:`.perturb.PARAMS`."""
TABLE3_KINDS = ("saturation", "contrast", "block", "noise", "blur", "pixelate")
"""Table 3's six columns (Saturation, Contrast, Block, Noise, Blur, Pixel)."""
PERTURBATIONS: tuple[str, ...] = tuple(f"{k}_{n}" for k in KINDS for n in LEVELS)
"""Every perturbation condition, ``<kind>_<level>``."""

CONDITIONS = ("full", TILED, *PERTURBATIONS, *STUDY_CONDITIONS)
