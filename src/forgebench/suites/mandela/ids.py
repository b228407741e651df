"""Fixed identifiers of probes and conditions (DESIGN.md "Probes, conditions and populations")."""

from __future__ import annotations

from forgebench.run.source import parse_list

__all__ = ["CONDITIONS", "PROBES", "parse_list"]

PROBES: tuple[str, ...] = ("L0", "L1", "L2", "L-adv", "RECOG", "TEXT", "FACE", "EVENT")
"""Every probe of seed 000 (Section 4.1, Appendix E)."""

CONDITIONS: tuple[str, ...] = (
    "full",
    "full_caption",
    "crop",
    "crop_caption",
    "mirror",
    "full_wrong_caption",
    "face_original",
    "face_replacement",
    "none",
)
"""Every condition (Section 4.2, Appendices J and N); ``none`` is for text-only probes."""

CAPTION_CONDITIONS: frozenset[str] = frozenset(
    {"full_caption", "crop_caption", "full_wrong_caption"}
)
"""Conditions whose prompt carries the caption prefix (Appendix E)."""
