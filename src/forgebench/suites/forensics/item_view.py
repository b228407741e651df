"""How a Forensics item and its answers read in the report's item viewer (its viewer facet,
:mod:`.facets.viewer`): the card's lines (type code, hint, question, options, the right letter)
and, for each answer, the step and rule that found its letter (option letter (cue), option text
(binary), builtin/embed, extractor, refusal, readings that disagree, none).

The report once had a page of its own for Forensics items, capped at the first 500; every item
is now in the one viewer (``report/index.html#items``), whose data is loaded in pages, with its
pictures and every model's answer under every condition.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forgebench.suites.forensics.contract import validated

STEP_WORDS = {
    "letter": "option letter", "text": "option text", "embed": "builtin/embed", "extractor": "extractor",
    "refusal": "refusal → Z", "none": "nothing found → Z", "missing": "no answer → Z",
}  # fmt: skip


def found_by(detail: Mapping[str, Any]) -> str:
    """How a stored letter was found, in words (``extractor (JUDGE)`` names the extractor)."""
    step = str(detail.get("step") or "")
    words = STEP_WORDS.get(step, step)
    judge, rule = detail.get("judge"), detail.get("rule")
    if step == "extractor" and judge:
        return f"{words} ({judge})"
    if rule == "unconstrained":
        return "not one allowed letter → Z (constrained answer)"
    if rule == "choice":
        return "constrained letter"
    if rule in ("conflict", "several-letters"):
        return f"readings disagree → Z ({rule})"
    why = detail.get("why")
    if step == "none" and why in ("two_options", "hedge"):  # the answer chose no option
        return f"no option chosen → Z ({why.replace('_', ' ')})"
    return f"{words} ({rule})" if rule and step in ("letter", "text") else words


def item_facts(item: Mapping[str, Any]) -> list[tuple[str, str]]:
    """An item's lines in the report viewer's card: type code, hint, question, options and the
    right letter ([] when ``item`` is not a Forensics item)."""
    try:
        it = validated(item)
    except ValueError:
        return []
    options = "; ".join(f"{k}. {v}" for k, v in it.options.items())
    facts = [("type code", str(it.type_code)), ("hint", it.hint or ""), ("question", it.question)]
    facts += [("options", options), ("right option", it.answer)]
    return [(label, text) for label, text in facts if text]
