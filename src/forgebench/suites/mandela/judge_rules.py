"""The ``builtin/rules`` judge: a deterministic, offline approximation of the Appendix F rubric.

The rubric says "do not grade by string match"; this judge does exactly that, so it is an
*approximation* for offline runs, demos and tests, not a replacement for an LLM judge. Its
agreement with hand grades that follow the rubric is measured in the tests
(``tests/score/fixtures/hand_graded.jsonl``) and reported with :func:`analysis.calibration.agreement`.

Rules, on the final answer (reasoning blocks stripped):

- **E0**: the verdict is not FAKE.
- **E3** (identity): an alias of the entity is asserted, not as a comparison (``names.py``).
  People-family entities also match their derived surname. For an absent-celebrity *erase* item the
  identity is the erased person, and it counts only in a sentence that also says the person is
  absent or replaced (``not``, ``replaced``, ``removed``, ``someone else``, ...); naming the erased
  person as if present is not an identification of the anomaly. K0 controls (anchor-free) never
  reach E3.
- **E4** (contradiction, on top of E3): the answer states the recorded contradiction's key facts:
  a year of the contradiction other than the event's own year; or, for a date contradiction, an
  anachronism phrase (``did not exist``, ``anachronism``, ...); or a phrase the contradiction
  quotes; or at least a third (and at least one) of the contradiction's distinctive words (those not
  in the entity's names, the event label or the entity's role, nor stop words).
- **E2** (localisation): a content word of the entity's role or the edit instruction appears
  (``left``, ``background``, ``photographer``, ``flag``, ...); words of the names of the scene's
  genuine principal figures do not count (pointing at a genuine person is the wrong element).
- **E1**: otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from forgebench.suites.mandela.names import fold, matcher
from forgebench.suites.mandela.rubric import JudgeReply

_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "from",
        "by",
        "with",
        "and",
        "or",
        "but",
        "not",
        "no",
        "nor",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "there",
        "here",
        "he",
        "she",
        "him",
        "her",
        "his",
        "they",
        "them",
        "their",
        "who",
        "whom",
        "which",
        "what",
        "when",
        "where",
        "while",
        "as",
        "than",
        "then",
        "so",
        "such",
        "very",
        "too",
        "also",
        "only",
        "just",
        "into",
        "onto",
        "over",
        "under",
        "up",
        "down",
        "out",
        "off",
        "about",
        "after",
        "before",
        "long",
        "ago",
        "since",
        "until",
        "during",
        "same",
        "other",
        "another",
        "one",
        "two",
        "some",
        "any",
        "all",
        "each",
        "every",
        "more",
        "most",
        "less",
        "least",
        "own",
        "do",
        "does",
        "did",
        "done",
        "has",
        "have",
        "had",
        "can",
        "could",
        "would",
        "should",
        "may",
        "might",
        "must",
        "will",
        "shall",
        "make",
        "made",
        "insert",
        "inserted",
        "add",
        "added",
        "replace",
        "replaced",
        "change",
        "changed",
        "edit",
        "edited",
        "remove",
        "removed",
        "alter",
        "altered",
        "modify",
        "modified",
        "manipulated",
        "image",
        "photo",
        "photograph",
        "picture",
        "painting",
        "scene",
        "still",
        "frame",
        "original",
        "real",
        "fake",
    ]
)
_TOKEN = re.compile(r"[a-z0-9][a-z0-9'\-]*")
_YEAR = re.compile(r"(?<!\d)(1\d{3}|20\d{2})(?!\d)")
_QUOTED = re.compile(r"['\"\u2018\u201c]([^'\"\u2019\u201d]{6,})['\"\u2019\u201d]")
_ABSENCE = re.compile(
    r"\b(?:not|isn't|wasn't|replaced|removed|missing|absent|erased|instead|someone\s+else|"
    r"somebody\s+else|different\s+(?:person|man|woman|face)|unknown\s+(?:man|woman|person)|"
    r"no\s+longer|should\s+be)\b",
    re.I,
)
_ANACHRONISM = re.compile(
    r"anachronis\w*|did\s*n[o']t\s+(?:yet\s+)?exist|didn't\s+(?:yet\s+)?exist|not\s+(?:yet\s+)?"
    r"(?:exist|invented|available|introduced)|(?:before|until)\s+(?:it|they)\s+(?:was|were)\s+"
    r"(?:invented|introduced)|had\s+(?:already\s+)?died|was\s+(?:already\s+)?dead|decades\s+"
    r"(?:before|after|later|earlier)",
    re.I,
)
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _words(text: str | None) -> list[str]:
    """Folded words; compounds and possessives split (``three-tined`` -> ``three``, ``tined``)."""
    return [p for w in _TOKEN.findall(fold(text or "")) for p in re.split(r"[-']", w) if p]


def _stems(text: str | None) -> set[str]:
    return {_stem(w) for w in _words(text)}


def _content(text: str | None, exclude: Iterable[str] = ()) -> list[str]:
    skip = {_stem(e) for e in exclude}
    seen: list[str] = []
    for w in _words(text):
        s = _stem(w)
        if w not in _STOP and s not in skip and not w.isdigit() and len(w) > 1 and s not in seen:
            seen.append(s)
    return seen


def _names(obj: Mapping[str, Any] | None) -> list[str]:
    if not obj:
        return []
    return [str(obj.get("name") or ""), *(str(a) for a in obj.get("aliases") or ())]


def _identity(answer: str, truth: Mapping[str, Any]) -> str | None:
    if truth.get("family") == "K0":
        return None
    erased = truth.get("erased")
    if truth.get("variant") == "erase" and erased:
        m = matcher(str(erased["name"]), tuple(erased.get("aliases") or ()))
        for sentence in _SENTENCE.split(answer):
            if m.asserted(sentence) and _ABSENCE.search(sentence):
                return str(erased["name"])
        return None
    entity = truth.get("entity")
    if not entity or not entity.get("name"):
        return None
    person = truth.get("family") == "K1"
    m = matcher(str(entity["name"]), tuple(entity.get("aliases") or ()), person=person)
    return str(entity["name"]) if m.asserted(answer) else None


def _contradiction(answer: str, truth: Mapping[str, Any]) -> str | None:
    text = truth.get("contradiction")
    if not text:
        return None
    event = truth.get("event") or {}
    event_years = set(_YEAR.findall(f"{event.get('label', '')} {event.get('date', '')}"))
    fact_years = [y for y in _YEAR.findall(text) if y not in event_years]
    answer_years = set(_YEAR.findall(answer))
    for y in fact_years:
        if y in answer_years:
            return f"states {y}"
    if fact_years and _ANACHRONISM.search(answer):
        return "states the anachronism"
    folded = fold(answer)
    for q in _QUOTED.findall(text):
        if fold(q).strip() in folded:
            return f"quotes {q.strip()!r}"
    entity = truth.get("entity") or {}
    exclude = [
        *_words(" ".join(_names(entity) + _names(truth.get("erased")))),
        *_words(str(event.get("label", ""))),
        *_words(str(entity.get("role") or "")),
    ]
    keys = _content(text, exclude)
    if not keys:
        return None
    have = _stems(answer)
    hits = [k for k in keys if k in have]
    if hits and 3 * len(hits) >= len(keys):
        return "states " + ", ".join(hits)
    return None


def _localises(answer: str, truth: Mapping[str, Any]) -> list[str]:
    entity = truth.get("entity") or {}
    edit = truth.get("edit") or {}
    genuine = _words(" ".join(str(n) for n in truth.get("principal_figures") or ()))
    keys = _content(f"{entity.get('role') or ''} {edit.get('instruction') or ''}", genuine)
    have = _stems(answer)
    return [k for k in keys if k in have]


def grade(judge_input: Mapping[str, Any]) -> JudgeReply:
    """Grade one answer (``judge_input`` as built by ``score.judge.build_judge_input``)."""
    verdict = judge_input.get("verdict")
    if verdict != "FAKE":
        return JudgeReply(0, f"verdict is {verdict or 'a miss'}, not FAKE", None, None)
    answer = str(judge_input.get("answer") or "")
    truth: Mapping[str, Any] = judge_input.get("ground_truth") or {}
    identity = _identity(answer, truth)
    if identity is not None:
        stated = _contradiction(answer, truth)
        if stated is not None:
            return JudgeReply(4, f"names {identity} and {stated}", identity, stated)
        return JudgeReply(3, f"names {identity}; no recorded contradiction stated", identity, None)
    where = _localises(answer, truth)
    if where:
        return JudgeReply(
            2, f"points at the edit ({', '.join(where)}) without naming it", None, None
        )
    return JudgeReply(1, "FAKE with no specific figure or region", None, None)
