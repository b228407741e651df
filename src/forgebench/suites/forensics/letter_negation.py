"""Which option letters an answer negates: "not A", "C, not A", "rather than A", "A is wrong",
"A, B and C are incorrect", "none of A, B or D", "rule out B", "I'd choose C over A", "nicht C,
sondern A", "C가 아니라 A", "D is out", a runner-up ("B, runner-up: A", "D, запасной вариант — A") (read by :mod:`.reading`: a negated letter is no claim)."""

from __future__ import annotations

import re

from forgebench.suites.forensics.mention_context import DISMISSED_AFTER
from forgebench.suites.forensics.wordings import (
    LETTER_NEGATED_AFTER,
    LETTER_NEGATED_BEFORE,
    RATHER_THAN,
    RUNNER_UP,
)

_LIST = (
    r"[A-Y](?:\s*(?:,|or|and|nor|/|、|和|与|及)\s*[A-Y]|"
    r"\s+(?:y|e|et|und|и|i|và|ve|en|och|og|oraz|lub|ou|o|oder|или|або|veya|dan|و)\s+[A-Y])*"
)
"""Letters listed after a negation ("not A, B or D", "Descarto A y B", "Loại A và B")."""
NEGATIONS = (
    re.compile(r"\b(?i:not)\s+(?:(?i:option|choice)\s+)?[\(\"']?(" + _LIST + r")\b"),
    re.compile(
        rf"(?<![^\W\d_])(?:{RATHER_THAN}|rul(?:e|ing)\s+out|eliminat(?:e|ing)|exclud(?:e|ing)|except|"
        r"none\s+of|can'?t\s+be|cannot\s+be|isn'?t|is\s+not)\s+(?:options?\s+)?[\(\"']?("
        + _LIST
        + r")\b",
        re.I,
    ),
    re.compile(
        r"\b(?:option\s+)?("
        + _LIST
        + r")\s+(?:is|are)\s+(?:incorrect|wrong|not\s+(?:correct|right|"
        r"the\s+answer)|ruled\s+out|unlikely|excluded)"
    ),
    re.compile(r"\b(?i:rather\s+than|instead\s+of|not)\s[^,.;]{0,40}?\(([A-Y])\)"),
    re.compile(  # "I'd choose C over A": A is passed over
        r"\b(?i:choose|chose|pick|prefer|go\s+with|select|opt\s+for)\s+(?:(?i:option)\s+)?[A-Y]\s+"
        r"(?i:over|rather\s+than|instead\s+of)\s+(?:(?i:option)\s+)?(" + _LIST + r")\b"
    ),
    re.compile(  # "nicht C, sondern A", "no es la A;", "不是C，": a letter before a stop or a but
        rf"(?<![^\W\d_])(?i:{LETTER_NEGATED_BEFORE})\s*(?:la\s+|le\s+|a\s+|l')?[(\"']?([A-Y])"
        r"(?![A-Za-z])[)\"']?(?=\s*(?:[,;.。，、]|$|\s(?:sondern|mais|sino|ma|mas|maar|tylko|ale|а|"
        r"utan|mà|بل|बल्कि|tetapi)\b))"
    ),
    re.compile(rf"(?<![A-Za-z])([A-Y])\s*(?:{LETTER_NEGATED_AFTER})"),  # "C가 아니라 A"
    re.compile(  # "B, runner-up: A", "D, запасной вариант — A": the runner-up is not the answer
        rf"(?<![^\W\d_])(?i:{RUNNER_UP})\s*(?:(?:[:=—–-]|は|은|는|是|为)\s*)?(?:(?i:is|would\s+be)\s+)?(?:(?i:option)\s+)?[(\"']?("
        + _LIST
        + r")(?![A-Za-z])"
    ),
    re.compile(
        rf"(?<![A-Za-z])((?-i:[A-Y]))(?![A-Za-z])[)\]]?(?:{DISMISSED_AFTER})", re.I
    ),  # "D is out"
)
"""Patterns whose first group spans the letters they negate."""


def negated(text: str) -> set[int]:
    """The positions of the letters ``text`` negates."""
    spans: set[int] = set()
    for pattern in NEGATIONS:
        for m in pattern.finditer(text):
            a, b = m.span(1)
            spans.update(i for i in range(a, b) if text[i].isalpha())
    return spans
