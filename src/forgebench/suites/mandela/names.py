"""Name matching: does an answer name a given person (or thing)?

Matching is on word boundaries after case folding and accent folding, so ``"President Truman"``
names ``Harry S. Truman`` (via the alias ``Truman``) while ``"Trumanesque"`` does not, and
``"Pele"`` matches ``Pelé``. Periods inside a name are optional (``Harry S Truman``) and any run of
whitespace matches one space.

Aliases of an entity are its name, its listed aliases and, for a person whose name has two or
more tokens, a *derived surname*: the last token that is not a suffix (``Jr.``, ``II``, ...), together with a
preceding particle (``de Gaulle``, ``van Gogh``). A derived surname is less certain than a listed
alias (``King`` is also a word), so it only matches where the answer writes it capitalised
(``King`` but not ``king``); listed aliases and full names match in any case.

A mention preceded closely by a comparison marker (``resembles``, ``reminiscent of``,
``a lookalike of``, ``in the style of``, ...) is a comparison, not an assertion of identity
(Appendix F: "a name used as a comparison ... does not count"). This is an approximation:
only an LLM judge reads the sentence properly.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "v", "junior", "senior"})
_PARTICLES = frozenset(
    {
        "de",
        "da",
        "di",
        "du",
        "del",
        "della",
        "van",
        "von",
        "der",
        "den",
        "la",
        "le",
        "bin",
        "al",
        "ter",
    }
)
_COMPARISON = re.compile(
    r"(resembl\w*|reminiscent\s+of|look-?alike\s+of|look-?alike|similar\s+to|in\s+the\s+(?:style|manner)\s+of|"
    r"evok\w+|impersonat\w*|imitat\w*|channel+ing|a\s+(?:young|younger|older)\s+version\s+of|"
    r"dressed\s+(?:up\s+)?as|styled\s+(?:like|as))[\s\"'\u201c]+(?:[\w'\-.]+\s+){0,3}$"
)
"""A comparison marker at most three words before a mention, within the same clause."""


def fold(text: str) -> str:
    """Case- and accent-folded text (NFKD, combining marks dropped, ``casefold``), same length
    semantics as far as word boundaries go; typographic apostrophes become ``'``."""
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.replace("\u2019", "'"))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def derived_surname(name: str) -> str | None:
    """The surname alias derived from a name of two or more tokens, else None.

    ``Harry S. Truman`` -> ``Truman``; ``Charles de Gaulle`` -> ``de Gaulle``;
    ``Martin Luther King Jr.`` -> ``King``; ``Madonna`` -> None.
    """
    tokens = name.split()
    while tokens and tokens[-1].casefold().rstrip(",") in _SUFFIXES:
        tokens.pop()
    if len(tokens) < 2:
        return None
    last = tokens[-1].rstrip(",")
    if len(last.rstrip(".")) < 2:
        return None
    i = len(tokens) - 1
    while i - 1 >= 1 and tokens[i - 1].casefold() in _PARTICLES:
        i -= 1
    return " ".join([*tokens[i:-1], last])


def _alias_regex(alias: str) -> str:
    parts = [re.escape(p).replace(r"\.", r"\.?") for p in fold(alias).split()]
    return r"\s+".join(parts)


@dataclass(frozen=True)
class NameMatcher:
    """Compiled matcher for one named entity."""

    name: str
    """Canonical name, reported when it matches."""
    pattern: re.Pattern[str]
    """Case-folded aliases (folded text)."""
    surname: re.Pattern[str] | None
    """Derived surname, matched capitalised on accent-stripped text."""

    def mentions(self, text: str) -> list[tuple[int, int]]:
        """Spans ``(start, end)`` of every mention in ``text`` (offsets into the folded text,
        which has the same length as the accent-stripped text for ordinary Latin names)."""
        spans = [m.span() for m in self.pattern.finditer(fold(text))]
        if self.surname is not None:
            spans += [m.span() for m in self.surname.finditer(_strip_accents(text))]
        return sorted(set(spans))

    def named(self, text: str) -> bool:
        """True when ``text`` mentions the entity at all."""
        return bool(self.mentions(text))

    def asserted(self, text: str) -> bool:
        """True when ``text`` mentions the entity other than as a comparison."""
        folded = fold(text)
        for start, _end in self.mentions(text):
            if not _COMPARISON.search(folded[max(0, start - 80) : start]):
                return True
        return False


@lru_cache(maxsize=8192)
def _compile(name: str, aliases: tuple[str, ...], person: bool) -> NameMatcher:
    variants = sorted(
        {a.strip() for a in (name, *aliases) if a and a.strip()}, key=len, reverse=True
    )
    body = "|".join(_alias_regex(a) for a in variants) or r"(?!x)x"
    pattern = re.compile(rf"(?<![\w])(?:{body})(?![\w])")
    sur = derived_surname(name) if person else None
    surname = None
    if sur is not None and fold(sur) not in {fold(a) for a in variants}:
        last = _strip_accents(sur).split()[-1]
        head = _strip_accents(sur).split()[:-1]
        cap = re.escape(last[0].upper()) + re.escape(last[1:]).replace(r"\.", r"\.?")
        upper = re.escape(last.upper()).replace(r"\.", r"\.?")
        parts = [*(re.escape(h) for h in head), f"(?:{cap}|{upper})"]
        joined = r"\s+".join(parts)
        surname = re.compile(rf"(?<![\w])(?:{joined})(?![\w])")
    return NameMatcher(name=name, pattern=pattern, surname=surname)


def matcher(name: str, aliases: Iterable[str] = (), *, person: bool = True) -> NameMatcher:
    """The (cached) matcher of a name and its aliases; ``person=False`` (objects, places, texts)
    derives no surname (``Eiffel Tower`` must not match ``Tower``)."""
    return _compile(name, tuple(aliases), person)
