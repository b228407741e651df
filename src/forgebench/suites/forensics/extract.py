"""Option extraction: which option letter a free-text answer chose (seed 002, §4.1).

The paper's order, each step deciding only when the previous ones did not:

1. ``refusal`` -> ``Z``: the answer declines (VLMEvalKit's refusal strings, or a refusal opening
   such as "I'm sorry" / "I can't" with no option letter anywhere in the answer; "I can't be sure,
   but B" is not a refusal).
2. ``letter``: exactly one option letter appears as a token -> that letter. Tokens are split on
   whitespace and punctuation (markdown ``**B**``, ``(B)``, ``B.``, ``Answer: B``); only letters
   of this item's options count, each at most once ("B ... B" is one letter); a capital ``A``
   followed by a space and a lower-case word ("A close look ...") is the article, not option A,
   unless that word is one that follows a letter ("A or B", "A is correct", ...).
3. ``text``: exactly one option's text appears in the answer -> its letter. Matching is
   case-insensitive on whole words with whitespace collapsed, and *longest first*: an option text
   found only inside a longer option's match does not count, so "non AI-generated" selects
   "non AI-generated" and not also "AI-generated" (the release's trap: naive substring matching
   sends every such answer to the judge). As VLMEvalKit's ``can_infer_text``
   (``vlmeval/utils/matching_util.py``), an answer longer than twice the options' total length is
   not text-matched: incidental mentions in long explanations would decide it.
4. ``extractor``: an optional LLM extractor (the judge stage) reads the question, the options and
   the answer and replies with a letter or ``Z`` (:func:`extractor_prompt`,
   :func:`parse_extractor_reply`).
5. ``none`` -> ``Z``.

``Z`` counts as wrong. Unlike the release's code it is never replaced by a random letter.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np
import pandas as pd

Step = Literal["refusal", "letter", "text", "extractor", "none", "missing"]
STEPS: tuple[Step, ...] = ("refusal", "letter", "text", "extractor", "none", "missing")
"""``missing``: the task has no answer (scoring counts it as ``Z``)."""
NO_OPTION = "Z"

RELEASE_REFUSALS = (
    "Sorry, I can't help with images of people yet.",
    "I can't process this file.",
    "I'm sorry, but without the image provided",
    "Cannot determine the answer",
)
"""VLMEvalKit's ``can_infer_option`` refusal strings (matched anywhere)."""

_REFUSAL_OPENING = re.compile(
    r"^\W*(?:i['’]?m sorry|i am sorry|sorry|i can(?:no|['’])t|i can not|i['’]?m unable|"
    r"i am unable|i['’]?m not able|i am not able|i won['’]?t|as an ai)\b",
    re.IGNORECASE,
)
_LETTER_TOKEN = re.compile(r"([A-Y])(?<![A-Za-z0-9_][A-Y])(?![A-Za-z0-9_'’-])")
_ARTICLE_NEXT = re.compile(r"[ \t]+([a-z][a-z]*)")
_AFTER_LETTER = frozenset(
    [
        "or",
        "and",
        "is",
        "was",
        "would",
        "seems",
        "appears",
        "looks",
        "because",
        "since",
        "as",
        "but",
        "are",
        "fits",
        "matches",
        "best",
        "correct",
        "shows",
        "indicates",
    ]
)
_WS = re.compile(r"\s+")


@dataclass(frozen=True)
class Extraction:
    """The letter an answer chose and the step that decided it."""

    letter: str
    """An option letter, or ``Z`` (no option: refusal, ambiguous, nothing found)."""
    step: Step


@dataclass(frozen=True)
class _Options:
    """What extraction needs of one option set, built once per distinct set."""

    letters: frozenset[str]
    patterns: tuple[tuple[str, str, re.Pattern[str]], ...]
    """(letter, normalised text, its whole-word pattern), longest text first."""
    max_text_answer: int
    """Answers longer than this are not text-matched (twice the options' total length)."""


@lru_cache(maxsize=4096)
def _options(items: tuple[tuple[str, str], ...]) -> _Options:
    pats = []
    for letter, text in sorted(items, key=lambda kv: -len(_norm(kv[1]))):
        needle = _norm(text)
        if needle:
            pats.append(
                (
                    letter,
                    needle,
                    re.compile(
                        (r"(?<![a-z0-9])" if needle[0].isalnum() else "")
                        + re.escape(needle)
                        + (r"(?![a-z0-9])" if needle[-1].isalnum() else "")
                    ),
                )
            )
    total = sum(len(str(v)) for _, v in items)
    return _Options(frozenset(k for k, _ in items), tuple(pats), 2 * total)


def is_refusal(answer: str, letters: set[str] | frozenset[str] | None = None) -> bool:
    """Step 1 (see the module docstring); ``letters`` are the item's option letters."""
    if any(r in answer for r in RELEASE_REFUSALS):
        return True
    if not _REFUSAL_OPENING.match(answer):
        return False
    return not letter_tokens(answer, letters or set())


def letter_tokens(answer: str, letters: set[str] | frozenset[str]) -> set[str]:
    """The distinct option letters that appear as tokens in ``answer`` (step 2)."""
    found: set[str] = set()
    for m in _LETTER_TOKEN.finditer(answer):
        ch = m.group(1)
        if ch not in letters or ch in found:
            continue
        nxt = _ARTICLE_NEXT.match(answer, m.end()) if ch == "A" else None
        if nxt is not None and nxt.group(1) not in _AFTER_LETTER:
            continue
        found.add(ch)
    return found


def _norm(text: str) -> str:
    return _WS.sub(" ", text.strip().lower())


def text_matches(answer: str, options: Mapping[str, str]) -> set[str]:
    """Letters whose option text occurs in ``answer`` outside longer options' matches (step 3)."""
    return _text_matches(_norm(answer), _options(tuple(options.items())))


def _text_matches(hay: str, spec: _Options) -> set[str]:
    taken: list[tuple[int, int]] = []
    found: set[str] = set()
    for letter, needle, pattern in spec.patterns:
        if needle not in hay:
            continue
        spans = [(m.start(), m.end()) for m in pattern.finditer(hay)]
        if any(all(b <= a0 or a >= b0 for a0, b0 in taken) for a, b in spans):
            found.add(letter)
        taken.extend(spans)
    return found


def extract_option(answer: str, options: Mapping[str, str]) -> Extraction:
    """Steps 1-3 and 5 (rules only); ``step == "none"`` is where an extractor may still help.

    Memoised on (answer, options): models repeat themselves ("B", "B. non AI-generated").
    """
    return _extract(answer, tuple(options.items()))


def _extract_once(answer: str, items: tuple[tuple[str, str], ...]) -> Extraction:
    spec = _options(items)
    stripped = answer.strip()
    if stripped in spec.letters:
        return Extraction(stripped, "letter")
    if is_refusal(answer, spec.letters):
        return Extraction(NO_OPTION, "refusal")
    found = letter_tokens(answer, spec.letters)
    if len(found) == 1:
        return Extraction(found.pop(), "letter")
    if len(answer) <= spec.max_text_answer:
        texts = _text_matches(_norm(answer), spec)
        if len(texts) == 1:
            return Extraction(texts.pop(), "text")
    return Extraction(NO_OPTION, "none")


_extract = lru_cache(maxsize=262144)(_extract_once)


def extract_batch(
    answers: Sequence[str], option_sets: Sequence[Mapping[str, str]]
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`extract_option` over many answers: ``(letters, steps)`` as object arrays.

    Each distinct (answer, option set) pair is extracted once (models repeat themselves); option
    sets are told apart by identity, so pass the same mapping object for items that share one.
    """
    if len(answers) != len(option_sets):
        raise ValueError("answers and option_sets differ in length")
    a_codes, a_uniques = pd.factorize(pd.Series(answers, dtype=object))
    o_codes, o_uniques = pd.factorize(pd.Series([id(o) for o in option_sets]))
    by_id = {id(o): o for o in option_sets}
    width = max(len(o_uniques), 1)
    pair = np.asarray(a_codes, dtype=np.int64) * width + np.asarray(o_codes)
    p_codes, p_uniques = pd.factorize(pair)
    texts = [str(a) for a in a_uniques]
    items = [tuple(by_id[int(o)].items()) for o in o_uniques]
    letters = np.empty(len(p_uniques), dtype=object)
    steps = np.empty(len(p_uniques), dtype=object)
    for k, p in enumerate(np.asarray(p_uniques, dtype=np.int64).tolist()):
        a, o = divmod(p, width)
        got = _extract_once(texts[a], items[o])
        letters[k], steps[k] = got.letter, got.step
    return letters[p_codes], steps[p_codes]


EXTRACTOR_VERSION = "extract/v1"
EXTRACTOR_TEMPLATE = """You match a model's answer to a multiple-choice question with one of its options.
Reply with a single capital letter: the option the answer chose, or Z if the answer chose no option, chose several, or refused.

Question: {question}
Options:
{options}
Answer: {answer}

Your reply (one letter):"""


def extractor_prompt(question: str, options: Mapping[str, str], answer: str) -> str:
    """The prompt sent to the LLM extractor (version :data:`EXTRACTOR_VERSION`)."""
    lines = "\n".join(f"{k}. {v}" for k, v in options.items())
    return EXTRACTOR_TEMPLATE.format(question=question, options=lines, answer=answer.strip())


def parse_extractor_reply(reply: str, options: Mapping[str, str]) -> str:
    """The extractor's letter: one option letter or ``Z`` as a token, anything else -> ``Z``."""
    allowed = {*options, NO_OPTION}
    found = {m.group(1) for m in re.finditer(r"(?<![A-Za-z])([A-Z])(?![A-Za-z])", reply)}
    found &= allowed
    return found.pop() if len(found) == 1 else NO_OPTION


def combine(rules: Extraction, extractor_letter: str | None) -> Extraction:
    """The final extraction: the rules' result, else the extractor's letter when one was run."""
    if rules.step != "none" or extractor_letter is None:
        return rules
    return Extraction(extractor_letter, "extractor")
