"""The option text an answer's scope names (step ``text`` of the rules, :mod:`.extract`)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from forgebench.suites.forensics.final_cue import CONCLUDING, TEXT_WHOLE, VERDICT_LINE
from forgebench.suites.forensics.hedges import UNDETERMINED
from forgebench.suites.forensics.option_text import OptionTexts, text_letters
from forgebench.suites.forensics.reading import Reading


def scope_text(scope: str, items: Mapping[str, str], spec: OptionTexts) -> Reading | None:
    """The option one scope of an answer names by its words (``Z``: several; None: none): a
    verdict line after a list ("Most likely: Splicing"); what follows the last "I can't tell";
    the whole of a short scope; a long one's last sentence and those that conclude, else its
    first."""
    total = sum(len(str(v)) for v in items.values())
    body = scope.strip()
    lines = [line for line in body.splitlines() if line.strip()]
    if len(lines) > 1 and VERDICT_LINE.match(lines[-1]):  # "Most likely: Splicing" after a list
        said = text_letters(VERDICT_LINE.sub(" ", lines[-1], count=1), spec)
        if len(said) == 1:
            return Reading(said.pop(), spec.kind if spec.kind != "text" else "option-text")
    undetermined = list(UNDETERMINED.finditer(body))
    if undetermined:  # what follows the last "I can't tell" is what the answer still claims
        body = body[undetermined[-1].end() :]
        body = body[re.match(r"[^,;.!?]*", body).end() :]  # type: ignore[union-attr]
    if len(body) <= max(2 * total, TEXT_WHOLE):
        said = text_letters(body, spec)
    else:  # a long answer: its last sentence and those that conclude, else its first one
        sentences = [s for s in re.split(r"(?<=[.!?。！？;])\s+|\n+", body) if s.strip()]
        chosen = sentences[-1:] + [s for s in sentences if CONCLUDING.search(s)]
        said = set().union(*(text_letters(s, spec) for s in chosen))
        if not said and sentences:
            said = text_letters(sentences[0], spec)
    if len(said) == 1:
        return Reading(said.pop(), spec.kind if spec.kind != "text" else "option-text")
    return Reading("Z", "conflict") if said else None
