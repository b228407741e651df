"""Gates that ask a model: object grounding (seed 000 Appendix C: "Inserted objects are verified
with a grounding check") and PIXAR's stage-3 fidelity assessment (seed 003 Fig. 3: "The
generated images are first assessed by Qwen3 and then reviewed by human annotators").

Neither seed gives its prompt; ours are versioned (:data:`GROUNDING_VERSION`,
:data:`FIDELITY_VERSION`) and enter the stored answer's key, so a changed prompt is asked again.
An answer that cannot be parsed leaves the gate unchecked (never a silent pass or fail).
"""

from __future__ import annotations

import re
from pathlib import Path

from forgebench.construct.ask import Asker, AskError
from forgebench.construct.gate_result import GateResult, unchecked
from forgebench.construct.specs import EditSpec

GROUNDING_VERSION = "grounding-v1"
GROUNDING_PROMPT = (
    "Look at this image. Is there {what} in it{where}? "
    "Answer YES or NO on the first line, then one sentence on what you see there."
)
FIDELITY_VERSION = "fidelity-v1"
FIDELITY_PROMPT = (
    "You are checking an edited photograph for visual fidelity before it enters a benchmark. "
    "Rate it from 1 to 5: 1 = obviously manipulated (visible seams, blur, distorted shapes, "
    "inconsistent lighting, shadows or scale), 5 = looks like an unedited natural photograph. "
    "Reply with 'SCORE: N' on the first line, then one sentence why."
)
FIDELITY_MIN = 4
"""Fidelity gate: the lowest score that passes (ours; the seed gives none)."""

_YESNO = re.compile(r"^\W*(yes|no)\b", re.IGNORECASE)
_SCORE = re.compile(r"score\s*[:=]\s*([1-5])\b", re.IGNORECASE)


def _article(name: str) -> str:
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


async def grounding_gate(asker: Asker | None, spec: EditSpec, candidate: Path) -> GateResult:
    """Is the inserted element visible? YES passes, NO fails; no model or no parse: unchecked."""
    if asker is None or spec.entity is None:
        return unchecked(
            "grounding", "no grounding model given" if asker is None else "nothing inserted"
        )
    role = spec.entity.role
    prompt = GROUNDING_PROMPT.format(
        what=_article(spec.entity.name), where=f" ({role})" if role else ""
    )
    try:
        text = await asker.ask(GROUNDING_VERSION, prompt, candidate)
    except AskError as exc:
        return unchecked("grounding", str(exc), model=asker.name)
    m = _YESNO.match(text)
    if m is None:
        return unchecked("grounding", f"unparseable answer: {text[:80]!r}", model=asker.name)
    yes = m.group(1).lower() == "yes"
    return GateResult(
        gate="grounding", passed=yes, model=asker.name, value=float(yes),
        reason=f"{asker.name} says {'YES' if yes else 'NO'}: {spec.entity.name}",
        details={"answer": text[:500], "prompt_version": GROUNDING_VERSION},
    )  # fmt: skip


async def fidelity_gate(
    asker: Asker | None, candidate: Path, minimum: int = FIDELITY_MIN
) -> GateResult:
    """PIXAR stage 3: the model's 1-5 fidelity score must reach ``minimum``."""
    if asker is None:
        return unchecked("fidelity", "no fidelity model given")
    try:
        text = await asker.ask(FIDELITY_VERSION, FIDELITY_PROMPT, candidate)
    except AskError as exc:
        return unchecked("fidelity", str(exc), model=asker.name)
    m = _SCORE.search(text)
    if m is None:
        return unchecked("fidelity", f"unparseable answer: {text[:80]!r}", model=asker.name)
    score = int(m.group(1))
    return GateResult(
        gate="fidelity", passed=score >= minimum, value=float(score), threshold=float(minimum),
        model=asker.name, reason=f"{asker.name} fidelity {score}/5 (pass at {minimum})",
        details={"answer": text[:500], "prompt_version": FIDELITY_VERSION},
    )  # fmt: skip
