"""Options named by their number or position: "Option 2", "choice #3", "the second mask", "the
last option", "masks 2 and 3" (read by :mod:`.reading`).

A number names an option only where no option text holds a number of its own other than its
position (:attr:`.option_text.OptionTexts.number_safe`); over options that carry numbers of their
own in another order ("Candidate 3" first), "option 3" and "the third mask" are ``Z``.
"""

from __future__ import annotations

import re

from forgebench.suites.forensics.option_text import OptionTexts, norm

_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "1st": 1,
             "2nd": 2, "3rd": 3, "4th": 4}  # fmt: skip
_NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6"}
_NOUNS = r"(?:option|choice|one|candidate|mask|map|segmentation\s+map|box|region)"
"""Nouns an ordinal picks an option with ("answer" is not one: "final answer", "my first answer";
"a second choice", "my second choice" are a runner-up, not option B)."""
_ORDINAL = re.compile(
    r"(?<!\ba\s)(?<!\bmy\s)\b(first|second|third|fourth|fifth|sixth|1st|2nd|3rd|4th|last|final|penultimate|"
    r"second[\s-]+to[\s-]+last)\s+(?:(?:listed|given)\s+)?"
    + _NOUNS
    + r"|^\W*(?:(?:between|of)\s+(?:the|these|those)\s+(?:two|options|choices)\W*|"
    r"i\s+(?:pick|choose|go\s+with|select)\s+)?"
    r"(?:the\s+)?(first|second|third|fourth|1st|2nd|3rd|4th|last|penultimate|latter|former)"
    r"(?:\s+(?:one|option|choice))?\W*$",
    re.I,
)
ORDINAL_WORD = re.compile(r"\b(first|second|third|fourth|fifth|sixth|1st|2nd|3rd|4th|last)\b", re.I)
CONCLUDES = re.compile(
    r"\b(?:therefore|thus|hence|so|correct|answer|best|most\s+accurate|conclu\w*|choose|pick)\b",
    re.I,
)
_NUMBER = re.compile(
    r"\b(option|choice|candidate|answer|number|mask|map|masque|maske|m[aá]scara|maschera|маска|"
    r"candidat|kandidat|candidato|opci[oó]n|opzione|op[cç][aã]o|候補|候选|후보|maska|opcja|opsi|pilihan|seçenek|"
    r"vaihtoehto|opțiunea|varianta|kandydat|kandidaat|candidatul|calon|aday|mgombea|jelölt|вариант|варіант|"
    r"επιλογή|υποψήφι(?:ος|ο|ου)|[בהושל]?מועמד|optie|možnost|ứng\s+viên|phương\s+án|lựa\s+chọn)\s*(?:is\s+)?(?:#|no\.?|number)?\s*:?\s*\(?"
    r"(\d|one|two|three|four|five|six)\)?(?!\d|[.,]\d|\s+of\b)",
    re.I,
)
_NEGATED_BEFORE = re.compile(r"\b(?:not|no|isn't|is\s+not)\s+(?:(?:the|a)\s+)?$", re.I)
_PLURAL_NUMBERS = re.compile(
    r"\b(?:options|choices|candidates|masks|maps|segmentation\s+maps)\s+(\d)"
    r"((?:\s*(?:,|and|&|or)\s*\d)+)(?!\d)",
    re.I,
)


def option_numbers(text: str, spec: OptionTexts) -> list[tuple[int, str]]:
    letters = spec.letters
    out = []
    for m in _ORDINAL.finditer(text):
        word = re.sub(r"[\s-]+", " ", (m.group(1) or m.group(2)).lower())
        if word in ("latter", "former") and len(letters) != 2:
            continue
        k = {"last": len(letters), "final": len(letters), "latter": 2, "former": 1,
             "penultimate": len(letters) - 1, "second to last": len(letters) - 1,
             }.get(word) or _ORDINALS[word]  # fmt: skip
        if 1 <= k <= len(letters):
            ok = spec.number_safe or spec.kind != "text"
            out.append((m.start(), letters[k - 1] if ok else "Z"))
    for m in _PLURAL_NUMBERS.finditer(text):  # "masks 2 and 3": several options named
        for k in (int(d) for d in (m.group(1), *re.findall(r"\d", m.group(2)))):
            if spec.number_safe and 1 <= k <= len(letters):
                out.append((m.start(), letters[k - 1]))
    for m in _NUMBER.finditer(text):
        if norm(m.group(0)) in spec.texts:
            continue  # "Candidate 3" is an option's text: the text rule reads it
        if _NEGATED_BEFORE.search(text, max(0, m.start() - 20), m.start()):
            continue  # "it is not candidate 1" ("no es el candidato 1") names no option
        k = int(_NUMBER_WORDS.get(m.group(2).lower(), m.group(2)))
        if spec.number_safe and 1 <= k <= len(letters):
            out.append((m.start(), letters[k - 1]))
        elif m.group(1).lower() in ("option", "choice") and 1 <= k <= len(letters):
            # options with numbers of their own in another order: "option 3" is not one of them
            out.append((m.start(), letters[k - 1] if spec.kind != "text" else "Z"))
    return out
