"""JSON answers ("{'answer': 'D'}", ``{"final_answer": "Diffusion models"}``, ``{"choice": 4}``),
read by the rules (:mod:`.extract`) before letters in prose."""

from __future__ import annotations

import re

from forgebench.suites.forensics.option_text import OptionTexts, text_letters
from forgebench.suites.forensics.reading import Reading

_JSON_ANSWER = re.compile(
    r"[\"']?(?:final[_ ]answer|answer|choice|option|prediction|selected[_ ]option)[\"']?\s*:\s*"
    r"([\"'])(.*?)\1",
    re.IGNORECASE | re.S,
)
_JSON_STRING = re.compile(r"([\"'])((?:(?!\1).){3,})\1", re.S)
"""A JSON string value (a key is too; keys name no option)."""
_JSON_NUMBER = re.compile(
    r"[\"']?(?:final[_ ]answer|answer|choice|option|selected[_ ]option)[\"']?\s*:\s*(\d)\s*[,}]",
    re.I,
)


_JSON_SCORES = re.compile(
    r"[\"'](?:probabilit(?:y|ies)|scores?|confidences?|likelihoods?)[\"']\s*:\s*\{([^{}]*)\}", re.I
)
_JSON_RANKING = re.compile(r"[\"'](?:ranking|ranked|order)[\"']\s*:\s*\[([^\[\]]*)\]", re.I)
_JSON_PAIR = re.compile(r"[\"']([A-Y])[\"']\s*:\s*(\d+(?:\.\d+)?)")


def _weighed(text: str, spec: OptionTexts) -> Reading | None:
    """A JSON answer that weighs the options instead of naming one: ``{"scores": {"A": 0.41, "B":
    0.33}}`` (the highest; two equal highest: ``Z``) or ``{"ranking": ["D", "B", "A", "C"]}``
    (its first)."""
    scores = _JSON_SCORES.search(text)
    if scores is not None:
        pairs = {k: float(v) for k, v in _JSON_PAIR.findall(scores.group(1)) if k in spec.letters}
        if len(pairs) >= 2:
            best = max(pairs.values())
            top = [k for k, v in pairs.items() if v == best]
            return (
                Reading(top[0], "probabilities") if len(top) == 1 else Reading("Z", "tied-scores")
            )
    ranking = _JSON_RANKING.search(text)
    if ranking is not None:
        first = re.match(r"\s*[\"']([A-Y])[\"']\s*(?:,|$)", ranking.group(1))
        if first is not None and first.group(1) in spec.letters:
            return Reading(first.group(1), "ranking")
    return None


def json_answer(text: str, spec: OptionTexts) -> tuple[Reading, str] | None:
    """A JSON answer, either quote style (``{'answer': 'D'}``, ``"final_answer"``,
    ``"choice"``): its letter (``json``; ``Z`` where its own explanation names another option),
    or its value's option text (``json-text``), with ``letter`` or ``text`` for the stage's step;
    None: no JSON answer."""
    if "{" not in text:
        return None
    found = list(_JSON_ANSWER.finditer(text))
    if not found:
        weighed = _weighed(text, spec)
        if weighed is not None:
            return weighed, "letter"
        number = _JSON_NUMBER.search(text)  # {"choice": 4}: the fourth option
        if number and spec.number_safe and 1 <= int(number.group(1)) <= len(spec.letters):
            return Reading(spec.letters[int(number.group(1)) - 1], "json"), "letter"
        return None
    value = found[-1].group(2).strip()
    if value.upper() in spec.letters and len(value) == 1:
        others = [m.group(2) for m in _JSON_STRING.finditer(text) if m.group(2) != value]
        said = set().union(*(text_letters(o, spec) for o in others)) if others else set()
        if said and value.upper() not in said:  # {"answer": "A", "explanation": "... B's text"}
            return Reading("Z", "conflict"), "letter"
        return Reading(value.upper(), "json"), "letter"
    lead = re.match(r"^[\(\[]?([A-Y])[\)\].:]\s*(.*)$", value, re.S)
    if lead and lead.group(1) in spec.letters:
        said = text_letters(lead.group(2), spec)
        if said and lead.group(1) not in said:
            return Reading("Z", "conflict"), "letter"
        return Reading(lead.group(1), "json"), "letter"
    said = text_letters(value, spec)
    if len(said) == 1:
        return Reading(said.pop(), "json-text"), "text"
    return None
