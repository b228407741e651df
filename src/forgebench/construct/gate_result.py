"""The stored result of one quality gate on one candidate."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class GateResult(BaseModel):
    """What one gate measured on one candidate, and whether the candidate passes it.

    ``passed`` is None when the gate could not run (no reference portrait, no grounding model):
    "unchecked", which a builder may treat as passing but never as checked.
    """

    gate: str
    """Gate name: ``face_identity``, ``face_count``, ``footprint``, ``pixar_effectiveness``,
    ``reencode``, ``near_duplicate``, ``grounding``, ..."""
    passed: bool | None
    """Pass / fail; None = unchecked."""
    value: float | None = None
    """The measured number the decision is made on (cosine, share of pixels, distance)."""
    threshold: float | None = None
    """The threshold it was compared with."""
    border: bool = False
    """Within the gate's border band of the threshold (Table 15: flagged for review)."""
    model: str | None = None
    """The model or method that measured it (``sface``, ``imagehash.phash``, ...)."""
    reason: str = ""
    """One line for people (why it failed, or what was measured)."""
    details: dict[str, Any] = Field(default_factory=dict)
    """Other measurements (JSON-ready)."""

    @property
    def status(self) -> str:
        """``pass``, ``fail``, ``border`` (either side, within the band) or ``unchecked``."""
        if self.passed is None:
            return "unchecked"
        if self.border:
            return "border"
        return "pass" if self.passed else "fail"


def unchecked(gate: str, reason: str, model: str | None = None, **details: Any) -> GateResult:
    """A gate that could not run."""
    return GateResult(gate=gate, passed=None, reason=reason, model=model, details=details)


def all_passed(results: list[GateResult]) -> bool:
    """True when no gate failed (unchecked gates do not fail a candidate)."""
    return all(r.passed is not False for r in results)
