"""The evidence-ladder rubric of seed 000, Appendix F, verbatim, and the judge prompt.

:data:`RUBRIC` is the paper's text character for character (typographic quotes included); a test
checks it against the seed. :func:`judge_prompt` wraps it with what Appendix F says the judge
receives: the protocol, the parsed verdict, the model's final answer (reasoning blocks stripped),
the item's ground-truth annotation, and the instruction to return one JSON object with the level,
a one-sentence reason, the identity asserted and the contradiction asserted. The wrapper wording is
ours (the paper does not print it) and is versioned with the rubric in :data:`RUBRIC_VERSION`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

RUBRIC_VERSION = "F-v1+prompt-v1"
"""Recorded on every grade: the rubric text (Appendix F) and our prompt wrapper's version."""

RUBRIC = (
    "Grade the detector’s evidence, not the image and not whether its final verdict is "
    "correct (that is supplied separately). E0: the detector verdict is not FAKE. E1: FAKE, "
    "but the explanation is only generic/unverifiable artefact talk, or points to the wrong "
    "element. E2: FAKE and the answer singles out the manipulated person or region well "
    "enough that a reader could point at it, but does not correctly assert the anomalous "
    "entity’s identity. E3: E2 plus a correct identification of the "
    "inserted/replacement/anomalous entity, but no valid event-specific knowledge "
    "contradiction. E4: E3 plus a correct statement of the annotated knowledge contradiction "
    "for this entity relative to this event. Boundary clauses (apply exactly): E2 requires "
    "only that the answer single out the manipulated person or region well enough that a "
    "reader could point at it (position, dress, role, or “the Nth figure that is not in the "
    "original”). An answer that does this is E2 even if it also talks about lighting, edges, "
    "sharpness or “pasted-in” artefacts, and even if it gives no name. Score E1 only when the "
    "answer names no specific figure/region. For E3, the inserted name must be asserted as "
    "the identity of the depicted figure; a name used as a comparison or a name that refers "
    "to a different, genuine person in the image does not count; do not grade by string "
    "match. E4 requires the stated impossibility to be the one that actually holds: a correct "
    "date/participation/absence fact about the inserted identity relative to this event; a "
    "correctly quoted lifespan attached to a mis-identified scene or a different element is "
    "not E4 (cap at E3). Grade the highest fully satisfied level. Do not supply missing "
    "reasoning on the detector’s behalf."
)
"""Appendix F's rubric, verbatim."""

_INSTRUCTION = (
    "You grade the explanation a multimodal model (the detector) gave for an image-authenticity "
    "question about a forged image. Apply the rubric to the detector's final answer, using the "
    "ground-truth annotation of the forgery.\n\n"
    "Rubric:\n{rubric}\n\n"
    "Protocol (what the detector was asked): {protocol}\n"
    "Parsed verdict: {verdict}\n"
    "Ground-truth annotation (JSON):\n{truth}\n\n"
    "Detector's final answer:\n<<<\n{answer}\n>>>\n\n"
    "Return only one JSON object, with no other text:\n"
    '{{"level": <0-4>, "reason": "<one sentence>", '
    '"identity_asserted": "<the identity the answer asserts for the manipulated figure, or null>", '
    '"contradiction_asserted": "<the contradiction the answer states, or null>"}}'
)


def judge_prompt(judge_input: dict[str, Any]) -> str:
    """The judge's prompt for one answer (``judge_input`` as built by ``score.judge``)."""
    return _INSTRUCTION.format(
        rubric=RUBRIC,
        protocol=judge_input.get("protocol", ""),
        verdict=judge_input.get("verdict", ""),
        truth=json.dumps(judge_input.get("ground_truth", {}), ensure_ascii=False, indent=1),
        answer=judge_input.get("answer", ""),
    )


class JudgeReplyError(ValueError):
    """A judge reply that is not a valid grade (retried, then stored as unscored)."""


@dataclass(frozen=True)
class JudgeReply:
    """A judge's grade of one answer."""

    level: int
    """Evidence level 0..4 (E0..E4)."""
    reason: str
    """The judge's one-sentence reason."""
    identity_asserted: str | None
    """The identity the answer asserts for the manipulated figure, as the judge read it."""
    contradiction_asserted: str | None
    """The contradiction the answer states, as the judge read it."""


_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.S)
_THINK = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.S | re.I)
_LEVEL = re.compile(r"^\s*E?\s*([0-4])\s*$", re.I)


def _objects(text: str) -> list[str]:
    """Candidate JSON objects in ``text``: fenced blocks first, then balanced ``{...}`` spans."""
    out = [m.group(1).strip() for m in _FENCE.finditer(text)]
    depth, start = 0, -1
    in_str = esc = False
    for i, ch in enumerate(text):
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                out.append(text[start : i + 1])
    return out


def _level(value: Any) -> int:
    if isinstance(value, bool):
        raise JudgeReplyError(f"level {value!r} is not 0-4 or E0-E4")
    if isinstance(value, int) and 0 <= value <= 4:
        return value
    if isinstance(value, float) and value.is_integer() and 0 <= value <= 4:
        return int(value)
    if isinstance(value, str):
        m = _LEVEL.match(value)
        if m:
            return int(m.group(1))
    raise JudgeReplyError(f"level {value!r} is not 0-4 or E0-E4")


def _opt_str(value: Any) -> str | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in {"", "null", "none"}):
        return None
    if isinstance(value, bool):
        return None if value is False else "true"
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def parse_judge_reply(text: str) -> JudgeReply:
    """Parse a judge's reply; raise :class:`JudgeReplyError` naming what is wrong.

    Accepted: one JSON object, bare or in a ```json fence, with text or reasoning blocks around it;
    ``level`` as an integer 0-4 or a string ``"E3"`` / ``"3"``. ``reason`` must be a string.
    """
    body = _THINK.sub(" ", text or "")
    candidates = _objects(body)
    if not candidates:
        raise JudgeReplyError("no JSON object in the judge reply")
    last_error = "no JSON object with a 'level' field in the judge reply"
    for cand in candidates:
        try:
            obj = json.loads(cand)
        except json.JSONDecodeError as exc:
            last_error = f"invalid JSON in the judge reply: {exc.msg}"
            continue
        if not isinstance(obj, dict) or "level" not in obj:
            continue
        level = _level(obj["level"])
        reason = obj.get("reason")
        if not isinstance(reason, str):
            raise JudgeReplyError("judge reply has no string 'reason'")
        return JudgeReply(
            level=level,
            reason=reason.strip(),
            identity_asserted=_opt_str(obj.get("identity_asserted")),
            contradiction_asserted=_opt_str(obj.get("contradiction_asserted")),
        )
    raise JudgeReplyError(last_error)
