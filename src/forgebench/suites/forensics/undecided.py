"""What an answer that looks undecided still decides (read by the rules, :mod:`.extract`): a
hedge that stands (``Z``), a contrast after a hedge that commits to one option, and a
conditional choice the last sentence settles."""

from __future__ import annotations

import re
from typing import Literal

from forgebench.suites.forensics.final_cue import BARE, CONCLUDING, named_options
from forgebench.suites.forensics.option_text import (
    OptionTexts,
    named_letters,
    norm,
    polarity_of,
    text_letters,
)
from forgebench.suites.forensics.reading import Reading, read_letter
from forgebench.suites.forensics.scope_text import scope_text

_NAMED_LETTER = re.compile(r"(?<![A-Za-z])([A-Y])(?![A-Za-z'])")


def hedge_stands(
    text: str, why: str, rest: str, two: bool, spec: OptionTexts, question: str
) -> bool:
    """A hedge or an "I can't tell" (:func:`.hedges.undecided_rest`) that the answer does not
    overturn: ``Z``. A contrast after it that states one option is read instead; "maybe X,
    maybe Y" and "either X or Y" hedge only where they name two options (or none)."""
    if rest.strip(BARE):
        said = read_letter(rest, spec, question) or scope_text(rest, {}, spec)
        if said is not None and said.letter != "Z":
            return False
    if two:  # "either the first two or the last two frames": two sides, one read or not
        named = text_letters(text, spec) | (set(_NAMED_LETTER.findall(text)) & set(spec.letters))
        either = re.search(r"\beither\b[^.;\n]*\bor\b[^.;\n]*", text, re.I)
        if either is not None and not named_letters(either.group(0), spec):
            return not named  # "Candidates 2-4 either overshoot or miss": no options weighed
        return len(named) != 1 or either is not None
    return True


_COMMITS = re.compile(
    r"\b(?:on\s+balance|overall|all\s+(?:things\s+)?considered|so\s+(?:it|this|i)|i(?:'d|\s+would)\s+"
    r"(?:say|go\s+with|lean)|i\s+lean|(?:looks?|seems?)\s+[\w\s-]{1,30}?\s+to\s+me|my\s+(?:best\s+)?guess|"
    r"most\s+likely|i(?:'m|\s+am)\s+going\s+with)\b",
    re.I,
)
_OPEN = re.compile(r"\b(?:could|might|may|possibly|maybe|perhaps|also|either)\b", re.I)


def contrast_pick(
    rest: str, spec: OptionTexts, question: str
) -> tuple[Reading, Literal["letter", "text"]] | None:
    """What the contrast after a hedge commits to ("I can't be sure whether it is X or Y, but on
    balance it looks untouched to me"), where it names one option and keeps nothing open (no
    "could", "also", "maybe"): the hedge weighed both, the contrast decides (the whole answer
    names both): the reading and its step (``letter`` or ``text``)."""
    if not _COMMITS.search(rest) or _OPEN.search(rest):
        return None
    read = read_letter(rest, spec, question)
    step: Literal["letter", "text"] = "letter"
    if read is None:
        read, step = scope_text(rest, {}, spec), "text"
    if read is None or read.letter == "Z":
        return None
    return read, step


_SETTLES = re.compile(
    r"\b(?:so|therefore|thus|hence|which\s+means|also|dus|logo|alors|así\s+que|così|więc|значит|так\s+что|tehát|så)\b|"
    r"(?<=\S)(?:므로|니까|기\s*때문에)(?=\s)|ので[、,]",
    re.I,
)
"""The "so" that settles a condition, in English and where :data:`CONCLUDING` leaves it out (German
"also", Portuguese "logo": English words, read here only after a conditional), or a verdict after
a colon that ends it ("Here the identity stays the same: A.")."""
_COLON_VERDICT = re.compile(r"[:：]\s*[^:：\n]{1,40}$")


def _bare_verdict(sentence: str, spec: OptionTexts) -> bool:
    """A sentence that is an option's words alone ("AI-manipulated.", "Candidate 2.")."""
    said = norm(sentence).strip(" .!")
    if spec.kind == "binary":
        return len(said.split()) <= 3 and len(polarity_of(sentence, spec)) == 1
    return said in spec.texts


def settled_condition(text: str, at: int, spec: OptionTexts) -> str | None:
    """A conditional choice that the answer's last sentence, after it, settles ("If the shadow is
    part of the forgery, Candidate 2; if not, Candidate 4. Looking closely, the shadow is painted
    in, so Candidate 2."): the one option that sentence names; None: not settled."""
    sentences = [m for m in re.finditer(r"[^.!?\n]+[.!?]*", text) if m.group(0).strip(BARE)]
    if len(sentences) < 2 or sentences[-1].start() < at:
        return None
    last = sentences[-1].group(0)
    if re.search(r"\b(?:if|unless|otherwise)\b", last, re.I) or not (
        _SETTLES.search(last)
        or CONCLUDING.search(last)
        or _COLON_VERDICT.search(last)
        or _bare_verdict(last, spec)
    ):
        return None  # (an option's words alone, "AI-manipulated.", settle it too)
    named = named_options(last, spec)
    return next(iter(named)) if len(named) == 1 else None
