"""Gates that ask a model: object grounding (seed 000 Appendix C: "Inserted objects are verified
with a grounding check") and PIXAR's stage-3 fidelity assessment (seed 003 Fig. 3: "The
generated images are first assessed by Qwen3 and then reviewed by human annotators").

Neither seed gives its prompt; ours are versioned (:data:`GROUNDING_VERSION`,
:data:`FIDELITY_VERSION`) and enter the stored answer's key, so a changed prompt is asked again.
An answer that cannot be parsed leaves the gate unchecked (never a silent pass or fail).

The builder asks a round's questions in one batch (:meth:`Asker.ask_many`: :func:`grounding_ask`,
:func:`fidelity_ask`) and reads each answer with :func:`grounding_result` /
:func:`fidelity_result`; :func:`grounding_gate` and :func:`fidelity_gate` ask one question.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from forgebench.construct.ask import Ask, Asker, AskError
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


def grounding_ask(spec: EditSpec, candidate: Path) -> Ask | None:
    """The grounding question of a candidate (None when the specification inserts nothing)."""
    if spec.entity is None:
        return None
    role = spec.entity.role
    prompt = GROUNDING_PROMPT.format(
        what=_article(spec.entity.name), where=f" ({role})" if role else ""
    )
    return Ask(GROUNDING_VERSION, prompt, candidate, candidate.stem)


def grounding_result(model: str, spec: EditSpec, answer: str | AskError) -> GateResult:
    """YES passes, NO fails; no answer or no parse: unchecked."""
    if isinstance(answer, AskError):
        return unchecked("grounding", str(answer), model=model)
    m = _YESNO.match(answer)
    if m is None:
        return unchecked("grounding", f"unparseable answer: {answer[:80]!r}", model=model)
    yes = m.group(1).lower() == "yes"
    name = spec.entity.name if spec.entity else "?"
    return GateResult(
        gate="grounding", passed=yes, model=model, value=float(yes),
        reason=f"{model} says {'YES' if yes else 'NO'}: {name}",
        details={"answer": answer[:500], "prompt_version": GROUNDING_VERSION},
    )  # fmt: skip


def fidelity_ask(candidate: Path) -> Ask:
    """PIXAR stage 3's question of a candidate."""
    return Ask(FIDELITY_VERSION, FIDELITY_PROMPT, candidate, candidate.stem)


def fidelity_result(model: str, answer: str | AskError, minimum: int = FIDELITY_MIN) -> GateResult:
    """The model's 1-5 fidelity score must reach ``minimum``; no answer or no parse: unchecked."""
    if isinstance(answer, AskError):
        return unchecked("fidelity", str(answer), model=model)
    m = _SCORE.search(answer)
    if m is None:
        return unchecked("fidelity", f"unparseable answer: {answer[:80]!r}", model=model)
    score = int(m.group(1))
    return GateResult(
        gate="fidelity", passed=score >= minimum, value=float(score), threshold=float(minimum),
        model=model, reason=f"{model} fidelity {score}/5 (pass at {minimum})",
        details={"answer": answer[:500], "prompt_version": FIDELITY_VERSION},
    )  # fmt: skip


async def grounding_gates(
    asker: Asker | None, candidates: Sequence[tuple[EditSpec, Path]]
) -> list[GateResult]:
    """The grounding gate of many candidates, their questions asked as one batch."""
    if asker is None:
        return [unchecked("grounding", "no grounding model given") for _ in candidates]
    qs = [grounding_ask(spec, path) for spec, path in candidates]
    answers = iter(await asker.ask_many([q for q in qs if q is not None]))
    return [
        grounding_result(asker.name, spec, next(answers))
        if q is not None
        else unchecked("grounding", "nothing inserted")
        for (spec, _), q in zip(candidates, qs, strict=True)
    ]


async def fidelity_gates(
    asker: Asker | None, candidates: Sequence[Path], minimum: int = FIDELITY_MIN
) -> list[GateResult]:
    """PIXAR stage 3 for many candidates, asked as one batch."""
    if asker is None:
        return [unchecked("fidelity", "no fidelity model given") for _ in candidates]
    answers = await asker.ask_many([fidelity_ask(p) for p in candidates])
    return [fidelity_result(asker.name, a, minimum) for a in answers]


async def grounding_gate(asker: Asker | None, spec: EditSpec, candidate: Path) -> GateResult:
    """Is the inserted element visible? (one candidate; :func:`grounding_result`)."""
    return (await grounding_gates(asker, [(spec, candidate)]))[0]


async def fidelity_gate(
    asker: Asker | None, candidate: Path, minimum: int = FIDELITY_MIN
) -> GateResult:
    """PIXAR stage 3 for one candidate (:func:`fidelity_result`)."""
    return (await fidelity_gates(asker, [candidate], minimum))[0]
