"""Table 11's uptake and dispute: does an answer under the wrong caption adopt its event, and does
it explicitly dispute it (seed 000, Appendix J)?

The paper reports both ("the models adopt the stated event in 80.8% and 84.1% of answers and
explicitly dispute it in 30.1% and 10.9%"; not exclusive) but prints no prompt or rule. Ours:

- **The judge prompt** (:data:`UPTAKE_PROMPT`, version :data:`UPTAKE_VERSION`) is our wording. It
  shows the wrong caption's event, the image's true event and the answer, and asks for one JSON
  object ``{"uptake": bool, "dispute": bool, "reason": str}``. It runs through the judge stage
  (``forgebench judge``) on every L1 answer under ``full_wrong_caption``, stored as judgements of
  kind ``uptake`` beside the E0-E4 grades of the same judge.
- **The rules grader** (:func:`rules_uptake`, what ``builtin/rules`` answers offline): *uptake*
  when the answer repeats the wrong event (at least half of its label's content words, or its
  year with one of them) outside a negation; *dispute* when it says the caption / event / date is
  wrong, mismatched or misattributed, or negates the wrong event. A rough approximation.

Metrics (probe L1, condition full_wrong_caption, subset peripheral_K1: the peripheral people-family
forgeries and their authentic originals, Table 11's population): ``uptake`` and ``dispute`` =
answers judged so / all items of the population (strict: unanswered or unscored count as no);
``judge`` = the judge.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from forgebench.suites.mandela.rubric import _THINK, _objects
from forgebench.suites.mandela.verdict import final_answer

UPTAKE_VERSION = "uptake-v1"
"""Our prompt's version, recorded on every uptake judgement."""
KIND = "uptake"
"""The judgement kind (``judgements.kind``)."""
PROBE, CONDITION = "L1", "full_wrong_caption"

UPTAKE_PROMPT = (
    "A multimodal model was shown an image together with a caption that names the WRONG event "
    "(the image really shows a different event) and was asked whether the image is authentic.\n\n"
    "Wrong event named by the caption: {wrong}\n"
    "Event the image really shows: {true}\n\n"
    "The model's answer:\n<<<\n{answer}\n>>>\n\n"
    "Decide two things independently:\n"
    "- uptake: does the answer adopt the caption's wrong event, i.e. treat the image as showing "
    "that event (restating it, reasoning from it, or accepting it as the setting)?\n"
    "- dispute: does the answer explicitly reject the caption's event, i.e. say that the image "
    "does not show it, that the caption, date or place is wrong, or that the scene belongs to a "
    "different event?\n"
    "Return only one JSON object, with no other text:\n"
    '{{"uptake": true|false, "dispute": true|false, "reason": "<one sentence>"}}'
)
"""The uptake judge prompt (ours; the paper prints none)."""


class UptakeReplyError(ValueError):
    """A judge reply that is not a valid uptake judgement."""


@dataclass(frozen=True)
class UptakeReply:
    """One uptake judgement."""

    uptake: bool
    dispute: bool
    reason: str


def _event(ev: Mapping[str, Any] | None) -> str:
    if not ev:
        return "(none)"
    parts = [str(ev.get("label", "")), str(ev.get("date", ""))]
    if ev.get("place"):
        parts.append(str(ev["place"]))
    return ", ".join(p for p in parts if p)


def uptake_input(item: Mapping[str, Any], answer: str | None, task_key: str = "") -> dict[str, Any]:
    """The structured input of one uptake judgement (JSON-able)."""
    return {
        "task_key": task_key,
        "item_id": item.get("id"),
        "wrong_event": item.get("wrong_event"),
        "event": item.get("event"),
        "answer": final_answer(answer),
    }


def uptake_prompt(ui: Mapping[str, Any]) -> str:
    """The judge prompt for one answer."""
    return UPTAKE_PROMPT.format(
        wrong=_event(ui.get("wrong_event")), true=_event(ui.get("event")), answer=ui["answer"]
    )


def _flag(obj: Mapping[str, Any], key: str) -> bool:
    v = obj.get(key)
    if isinstance(v, bool):
        return v
    if isinstance(v, str) and v.strip().lower() in ("true", "false", "yes", "no"):
        return v.strip().lower() in ("true", "yes")
    raise UptakeReplyError(f"uptake reply field {key!r} is not true/false")


def parse_uptake_reply(text: str) -> UptakeReply:
    """Parse a judge reply (one JSON object, fenced or bare, text around it allowed)."""
    candidates = _objects(_THINK.sub(" ", text or ""))
    for cand in candidates:
        try:
            obj = json.loads(cand)
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict) and "uptake" in obj and "dispute" in obj:
            reason = obj.get("reason", "")
            return UptakeReply(
                _flag(obj, "uptake"), _flag(obj, "dispute"), str(reason or "").strip()
            )
    raise UptakeReplyError("no JSON object with 'uptake' and 'dispute' in the reply")


_STOP = frozenset(
    ("the", "of", "and", "in", "at", "on", "for", "a", "an", "to", "from", "with", "by",
     "during", "its", "his", "her", "their", "this", "that", "event", "final", "match", "game",
     "day")
)  # fmt: skip
_WORD = re.compile(r"[a-z0-9]+")
_NEG = re.compile(
    r"\b(not|n't|no|never|rather than|instead of|isn't|wasn't|doesn't|cannot|can't)\b[^.;]{0,60}$"
)
_DISPUTE = re.compile(
    r"\b(caption|description|stated event|claimed event|the claim|label(?:l)?ed|date|location|"
    r"event)\b[^.]{0,60}\b(wrong|incorrect|inaccurate|false|misleading|mismatch(?:ed)?|"
    r"does not match|doesn't match|inconsistent|not match)\b|\bmis(?:label|attribut|caption)\w*|"
    r"\bactually (?:shows|depicts|from|taken)\b",
    re.I,
)


def _content(text: str | None) -> list[str]:
    return [w for w in _WORD.findall((text or "").lower()) if w not in _STOP and len(w) > 2]


def rules_uptake(ui: Mapping[str, Any]) -> UptakeReply:
    """The offline grader (see the module docstring)."""
    answer = str(ui.get("answer") or "")
    low = answer.lower()
    wrong = ui.get("wrong_event") or {}
    words = sorted(set(_content(str(wrong.get("label", "")))))
    year = str(wrong.get("date", ""))[:4]
    positions = [m.start() for w in words for m in re.finditer(rf"\b{re.escape(w)}\b", low)]
    hits = {w for w in words if re.search(rf"\b{re.escape(w)}\b", low)}
    mentioned = bool(words) and (
        len(hits) * 2 >= len(words) or (bool(hits) and bool(year) and year in low)
    )
    negated = any(_NEG.search(low[max(0, p - 80) : p]) for p in positions)
    dispute = bool(_DISPUTE.search(answer)) or (mentioned and negated)
    uptake = mentioned and not negated
    why = []
    if uptake:
        why.append(f"repeats the wrong event ({', '.join(sorted(hits))})")
    if dispute:
        why.append("disputes the caption")
    return UptakeReply(uptake, dispute, "; ".join(why) or "neither adopts nor disputes it")


def reply_json(reply: UptakeReply) -> str:
    """The JSON object a judge returns for ``reply``."""
    return json.dumps(
        {"uptake": reply.uptake, "dispute": reply.dispute, "reason": reply.reason},
        ensure_ascii=False,
    )
