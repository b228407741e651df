"""The extraction chain every Forensics stage shares: which rules, and what is still undecided.

One chain (seed 002 §4.1's order): the rules (ours, :func:`.extract.extract_option`, or the
release's literal ones, :func:`.release_match.release_rules`, with ``--extraction
release-rules``), then ``builtin/embed`` where it has judged the run, then the LLM extractor where
one has. ``metrics`` reads the chain's result; ``judge`` sends only what the stages before it
left undecided, so an answer the rules decide is never sent and one they leave undecided stays
``Z`` until an extractor is run. A constrained answer (probe ``MCQ_CHOICE``) is read by
:func:`read_constrained` instead of the rules: the letter it is, else a settled ``Z``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from forgebench.models.choice import read_choice
from forgebench.suites.base import SuiteError
from forgebench.suites.forensics.extract import Extraction, combine, extract_option
from forgebench.suites.forensics.release_match import release_rules

EMBED_JUDGE = "builtin/embed"
"""The name ``builtin/embed`` stores its letters under."""
LETTER_KIND = "letter"
"""The judgement kind of an extracted letter (``builtin/embed`` and LLM extractors alike)."""
EXTRACTIONS = ("rules", "release-rules")
"""Values of ``--extraction``."""

Rules = Callable[[str, Mapping[str, str], str], Extraction]


def _release(answer: str, options: Mapping[str, str], question: str) -> Extraction:
    return release_rules(answer, options)


def rules_for(extraction: str | None) -> Rules:
    """The rules ``--extraction`` names (default ``rules``); a bad value is a user error."""
    if extraction in (None, "", "rules"):
        return extract_option
    if extraction == "release-rules":
        return _release
    raise SuiteError(f"--extraction must be one of {', '.join(EXTRACTIONS)}, not {extraction!r}")


CHOICE_RULE = "choice"
"""The rule of a constrained answer (``MCQ_CHOICE``) read as the letter it is."""
UNCONSTRAINED = "unconstrained"
"""The rule of a ``MCQ_CHOICE`` answer that is not one allowed letter (the server did not hold it
to one): ``Z``, settled, never sent on to an extractor."""


def read_constrained(answer: str, extra: Mapping[str, object]) -> Extraction:
    """A constrained answer (``MCQ_CHOICE``): the bare letter, or the JSON's ``answer``
    (:func:`forgebench.models.choice.read_choice`), is the letter (step ``letter``); anything
    else is ``Z`` (rule ``unconstrained``): the free-form rules never read it, so a server that let
    the answer run free is counted, not rescued."""
    letters = extra.get("choice") or ()
    letter = read_choice(answer, [str(x) for x in letters] if isinstance(letters, list) else [])
    if letter is None:
        return Extraction("Z", "none", UNCONSTRAINED)
    return Extraction(letter, "letter", CHOICE_RULE)


def chain(rules: Extraction, embed_letter: str | None, extractor_letter: str | None) -> Extraction:
    """The chain's result for one answer (:func:`.extract.combine`; a settled ``Z`` stays)."""
    if rules.rule in SETTLED_Z:
        return rules
    return combine(rules, extractor_letter, embed_letter=embed_letter)


SETTLED_Z = frozenset(
    {"conflict", "several-letters", "empty", "conditional", "tied-scores", "tied-ranking",
     "numbered-options", "undecided", "two-named", "cut-turning", "cut-off", "description", "unread-score",
     "both-sides", "two-answers", "looping", "other-question", UNCONSTRAINED}
)  # fmt: skip
"""Rules whose ``Z`` is a decision (readings that disagree, no answer at all, an answer that
says it cannot tell or hedges between options: ``undecided``; two options sharing the top
score or rank: ``tied-*``; the final-cue gate's ``two-named``, ``cut-turning``, ``cut-off``
and ``description``, :mod:`.final_cue`; a binary pair answered "a bit of both", two boxed
letters side by side, a looping restatement of the options): never sent on."""


def undecided(rules: Extraction, embed_letter: str | None = None) -> bool:
    """Whether a later stage may still decide: the rules found nothing (a conflict is a decision:
    ``Z``, never a guess) and ``builtin/embed``, where it ran, found no letter either."""
    if rules.step != "none" or rules.rule in SETTLED_Z:
        return False
    return embed_letter is None or embed_letter == "Z"
