"""Answers -> verdicts (seed 000, Section 4.3: "responses that provide neither are counted as misses").

One parser per probe family; every parser is pure (text in, :class:`Verdict` out).

- **REAL/FAKE** (L0, L1, L-adv, every condition): the *first word* of the final answer decides.
  Before taking it we drop ``<think>...</think>`` blocks, leading whitespace, markdown emphasis and
  headings (``**FAKE**``, ``# FAKE``), quotes and brackets, and ``Answer:`` / ``Verdict:`` /
  ``Final answer:`` prefixes; trailing punctuation after the word is fine (``Fake.``), case is
  ignored. Anything else is a miss: ``"The image is fake"`` is a miss because its first word is
  ``The`` (the prompt asks to *start* with the word; we do not search the sentence), and
  ``"REAL/FAKE"`` or ``"REAL or FAKE: ..."`` is ambiguous and a miss.
- **Think blocks**: a closed block is removed; a closing tag without an opening one (servers that
  strip the opening tag) drops everything before it; an *unclosed* ``<think>`` is reasoning that
  never finished, so only the text before it counts, except that an answer word written right after
  the tag (``<think>FAKE. ...``) is taken. Nothing left is a miss (``think_unclosed``).
- **YES/NO** (TEXT, FACE): first word ``YES`` / ``NO``. FACE (``Is this {name}?``) does not ask
  for a first word, so ``This is {name}`` / ``This is not {name}`` openings are also read;
  refusals are misses.
- **RECOG**: ``NOT RECOGNISED`` (either spelling, or ``I do not recognise ...``) anywhere at the
  start or as the answer; any other non-empty, non-refusal answer is ``RECOGNISED`` with the event
  sentence and the first year 1000-2099 in the detail.
- **L2**: which tracked names (erased person, principal figures, entity) the answer asserts, and
  whether it says it cannot identify someone. Both are kept in the detail (an answer can do both;
  Table 8's columns overlap). The verdict is ``NAMES`` if a tracked name is asserted, else
  ``CANNOT`` if it says it cannot identify someone, else ``MISS``.
- **EVENT**: first word of the first line, ``KNOWN`` / ``UNKNOWN``.

For every probe the detail also records which tracked names the answer asserts (Table 3's "Named"
is read from the L0 answer itself).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from forgebench.suites.mandela.names import matcher

PARSER_VERSION = "verdict-v1"
"""Recorded on every verdict row; bumping it re-parses stored answers."""

REAL_FAKE_PROBES = frozenset({"L0", "L1", "L-adv"})
YES_NO_PROBES = frozenset({"TEXT", "FACE"})
VERDICTS = (
    "REAL",
    "FAKE",
    "YES",
    "NO",
    "RECOGNISED",
    "NOT_RECOGNISED",
    "NAMES",
    "CANNOT",
    "KNOWN",
    "UNKNOWN",
    "MISS",
)

_THINK_BLOCK = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.S | re.I)
_THINK_OPEN = re.compile(r"<(think|thinking|reasoning)>", re.I)
_THINK_CLOSE = re.compile(r"</(?:think|thinking|reasoning)>", re.I)
_LEAD_JUNK = re.compile(r"^[^0-9A-Za-z]+")
_PREFIX = re.compile(
    r"^(?:final\s+answer|final\s+verdict|my\s+answer|my\s+verdict|answer|verdict|response|"
    r"classification|decision)\s*[:\-\u2013\u2014]",
    re.I,
)
_WORD = re.compile(r"^([A-Za-z]+)")
_AMBIGUOUS_TAIL = re.compile(r"^\s*(?:/|\\|\||or\b|and\b)", re.I)
_YEAR = re.compile(r"(?<!\d)(1\d{3}|20\d{2})(?!\d)")
_NOT_RECOG = re.compile(
    r"\bnot\s+recogni[sz]ed\b|^(?:no[,.]?\s+)?i\s+(?:do\s+not|don't|cannot|can't|am\s+not\s+able\s+to|"
    r"am\s+unable\s+to|'m\s+not\s+able\s+to|'m\s+unable\s+to)\s+recogni[sz]e",
    re.I,
)
_REFUSAL = re.compile(
    r"^(?:i'?m\s+sorry|sorry|i\s+(?:cannot|can't|can\s+not|am\s+unable\s+to|'m\s+unable\s+to|"
    r"won't|will\s+not)\s+(?:help|assist|identify|provide|comply|answer|determine|tell)|"
    r"i\s+(?:don't|do\s+not)\s+(?:identify|recognize\s+people|recognise\s+people))",
    re.I,
)
_CANNOT = re.compile(
    r"\b(?:cannot|can\s*not|can't|could\s*n[o']t|couldn't|unable\s+to|not\s+able\s+to|"
    r"am\s+not\s+able\s+to)\s+(?:\w+\s+){0,2}?(?:identify|recogni[sz]e|name|determine\s+who|tell\s+who)"
    r"|\bi\s+(?:do\s+not|don't)\s+know\s+who\b|\bunidentified\b|\bnot\s+identifiable\b"
    r"|\bunknown\s+(?:person|people|individual|man|woman|figure)",
    re.I,
)


@dataclass(frozen=True)
class Verdict:
    """One parsed answer."""

    verdict: str
    """One of :data:`VERDICTS`."""
    detail: dict[str, Any] = field(default_factory=dict)
    """JSON-able extras: ``why`` (miss reason), ``names``, ``names_erased``, ``names_principal``,
    ``names_entity``, ``cannot``, ``event``, ``year``."""


@dataclass(frozen=True)
class NameTargets:
    """The names an answer about one item is checked for."""

    erased: tuple[str, tuple[str, ...]] | None = None
    """The erased public figure (absent-celebrity items)."""
    entity: tuple[str, tuple[str, ...]] | None = None
    """The inserted / replaced / anomalous entity."""
    entity_is_person: bool = False
    """True for the people family (K1): the entity's surname is derived as an alias."""
    principal: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Named principal figures of the scene."""

    @classmethod
    def from_item(cls, item: Mapping[str, Any]) -> NameTargets:
        """Targets from an item's JSON (``data/mandela.Item.model_dump()`` or ``items.data``)."""

        def pair(obj: Any) -> tuple[str, tuple[str, ...]] | None:
            if not obj or not obj.get("name"):
                return None
            return str(obj["name"]), tuple(str(a) for a in obj.get("aliases") or ())

        return cls(
            erased=pair(item.get("erased")),
            entity=pair(item.get("entity")),
            entity_is_person=item.get("family") == "K1",
            principal=tuple((str(n), ()) for n in item.get("principal_figures") or () if n),
        )

    def check(self, text: str) -> dict[str, Any]:
        """Which targets ``text`` asserts: ``names`` (canonical), and per-role booleans."""
        names: list[str] = []
        out: dict[str, Any] = {
            "names_erased": False,
            "names_entity": False,
            "names_principal": False,
        }
        for key, targets, person in (
            ("names_erased", [self.erased] if self.erased else [], True),
            ("names_entity", [self.entity] if self.entity else [], self.entity_is_person),
            ("names_principal", list(self.principal), True),
        ):
            for name, aliases in targets:
                if matcher(name, aliases, person=person).asserted(text):
                    out[key] = True
                    if name not in names:
                        names.append(name)
        out["names"] = names
        return out


def strip_think(text: str) -> tuple[str, bool]:
    """The final answer without reasoning blocks, and whether an unclosed block was cut off."""
    text = _THINK_BLOCK.sub(" ", text)
    closes = list(_THINK_CLOSE.finditer(text))
    if closes:
        text = text[closes[-1].end() :]
    m = _THINK_OPEN.search(text)
    if m is None:
        return text.strip(), False
    before, after = text[: m.start()].strip(), text[m.end() :]
    if before:
        return before, True
    word = _first_word(after)
    if word in {"REAL", "FAKE"}:
        return after.strip(), True
    return "", True


def _clean_start(text: str) -> str:
    """Drop leading markdown, quotes, brackets and answer prefixes until stable."""
    prev = None
    while prev != text:
        prev = text
        text = _LEAD_JUNK.sub("", text)
        text = _PREFIX.sub("", text)
    return text


def _first_word(text: str) -> str | None:
    """The first word, upper-cased, or None when it is ambiguous (``REAL/FAKE``) or absent."""
    text = _clean_start(text)
    m = _WORD.match(text)
    if not m:
        return None
    word = m.group(1).upper()
    rest = text[m.end() :]
    if _AMBIGUOUS_TAIL.match(rest):
        tail = _clean_start(re.sub(r"^\s*(?:/|\\|\||or\b|and\b)", "", rest, flags=re.I))
        other = _WORD.match(tail)
        if other and other.group(1).upper() in {"REAL", "FAKE", "YES", "NO"} - {word}:
            return None
    return word


def _miss(why: str, **extra: Any) -> Verdict:
    return Verdict("MISS", {"why": why, **extra})


def _word_verdict(answer: str, allowed: Sequence[str]) -> Verdict:
    if not answer:
        return _miss("empty")
    word = _first_word(answer)
    if word is None and _WORD.match(_clean_start(answer)):
        return _miss("ambiguous")
    if word is not None and word in allowed:
        return Verdict(word)
    if _REFUSAL.match(_clean_start(answer)):
        return _miss("refusal")
    return _miss("no_verdict_word")


def _face(answer: str, targets: NameTargets | None) -> Verdict:
    v = _word_verdict(answer, ("YES", "NO"))
    if v.verdict != "MISS" or v.detail.get("why") != "no_verdict_word":
        return v
    start = _clean_start(answer)
    if re.match(r"^(?:this|it|that)\s+(?:is\s+not|isn't|does\s+not|doesn't)\b|^not\b", start, re.I):
        return Verdict("NO")
    if (
        re.match(r"^(?:this|it|that)\s+(?:is|appears\s+to\s+be|looks\s+to\s+be)\b", start, re.I)
        and targets is not None
        and targets.erased is not None
        and matcher(*targets.erased).asserted(start.split(".")[0])
    ):
        return Verdict("YES")
    return v


def _recog(answer: str) -> Verdict:
    if not answer:
        return _miss("empty")
    start = _clean_start(answer)
    if _NOT_RECOG.search(start[:200]) or _NOT_RECOG.search(answer[-60:]):
        return Verdict("NOT_RECOGNISED")
    if _REFUSAL.match(start):
        return _miss("refusal")
    sentence = re.split(r"(?<=[.!?])\s+|\n", start.strip(), maxsplit=1)[0]
    sentence = re.sub(r"^(?:yes|yeah)\b[\s,.:;!\-\u2014]*", "", sentence, flags=re.I).strip()
    year = _YEAR.search(answer)
    return Verdict(
        "RECOGNISED", {"event": sentence or None, "year": int(year.group(1)) if year else None}
    )


def _event(answer: str) -> Verdict:
    if not answer:
        return _miss("empty")
    first_line = _clean_start(answer).split("\n", 1)[0]
    return _word_verdict(first_line, ("KNOWN", "UNKNOWN"))


def _l2(answer: str, names: dict[str, Any]) -> Verdict:
    if not answer:
        return _miss("empty")
    cannot = bool(_CANNOT.search(answer))
    detail = {**names, "cannot": cannot}
    if names.get("names"):
        return Verdict("NAMES", detail)
    if cannot:
        return Verdict("CANNOT", detail)
    if _REFUSAL.match(_clean_start(answer)):
        return Verdict("MISS", {**detail, "why": "refusal"})
    return Verdict("MISS", {**detail, "why": "no_tracked_name"})


def parse_answer(
    probe: str,
    text: str | None,
    targets: NameTargets | None = None,
    finish_reason: str | None = None,
) -> Verdict:
    """Parse one answer of ``probe`` (see the module docstring for each probe's rule)."""
    if text is None:
        return _miss("no_answer")
    answer, unclosed = strip_think(text)
    if not answer:
        why = "think_unclosed" if unclosed else "empty"
        return _miss(why, finish_reason=finish_reason) if finish_reason else _miss(why)
    names = targets.check(answer) if targets is not None else {}
    if probe in REAL_FAKE_PROBES:
        v = _word_verdict(answer, ("REAL", "FAKE"))
    elif probe == "TEXT":
        v = _word_verdict(answer, ("YES", "NO"))
    elif probe == "FACE":
        v = _face(answer, targets)
    elif probe == "RECOG":
        v = _recog(answer)
    elif probe == "EVENT":
        v = _event(answer)
    elif probe == "L2":
        return _l2(answer, names)
    else:
        raise ValueError(f"unknown probe {probe!r}")
    if names:
        return Verdict(v.verdict, {**v.detail, **names})
    return v


def final_answer(text: str | None) -> str:
    """The answer without reasoning blocks (what a judge is shown)."""
    if text is None:
        return ""
    return strip_think(text)[0]
