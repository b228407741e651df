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


def json_answer(text: str, spec: OptionTexts) -> tuple[Reading, str] | None:
    """A JSON answer, either quote style (``{'answer': 'D'}``, ``"final_answer"``,
    ``"choice"``): its letter (``json``; ``Z`` where its own explanation names another option),
    or its value's option text (``json-text``), with ``letter`` or ``text`` for the stage's step;
    None: no JSON answer."""
    if "{" not in text:
        return None
    found = list(_JSON_ANSWER.finditer(text))
    if not found:
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
