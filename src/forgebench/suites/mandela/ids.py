"""Fixed identifiers of probes and conditions (DESIGN.md "Probes, conditions and populations")."""

from __future__ import annotations

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


def parse_list(value: str | None, allowed: tuple[str, ...], what: str) -> list[str] | None:
    """Parse a comma-separated CLI list, refusing unknown names with one clear message."""
    if value is None or not value.strip():
        return None
    names = [v.strip() for v in value.split(",") if v.strip()]
    bad = [n for n in names if n not in allowed]
    if bad:
        raise ValueError(f"unknown {what} {', '.join(map(repr, bad))}; known: {', '.join(allowed)}")
    return names
