"""How a Forensics item is grouped, listed, tagged and found in the report viewer.

The two grouping facets (its viewer facet's ``group_labels``) are the item's **forgery type** (Table 5's abbreviation: ``ES``,
``FSS``, ``SPL``... and ``REAL`` for real media) and its **forgery modality** (``RGB``, ``NIR``,
``VID``, ``RGB&TXT``): the perspectives a researcher most often narrows by, and both short. The
list line is the full type code ``SEMANTIC-MODALITY-TASK-TYPE-MODEL``; the card's tag line is the
type code and the Table 5 full terms of the type, model, modality and task, then the data
source; the search text holds the five full terms and the source, so "face swap" or "diffusion"
finds the items (the question and options are searchable through the card's facts).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forgebench.report.facets import ItemTags
from forgebench.suites.forensics.contract import validated
from forgebench.suites.forensics.taxonomy import FULL_TERMS, PERSPECTIVES


def item_tags(item: Mapping[str, Any]) -> ItemTags:
    """The viewer tags of a stored Forensics item (none when it does not validate)."""
    try:
        it = validated(item)
    except ValueError:
        return ItemTags()
    code = it.code
    terms = {p: FULL_TERMS.get(code.value(p), code.value(p)) for p in PERSPECTIVES}
    tags = (str(it.type_code), *(terms[p] for p in ("type", "model", "modality", "task")))
    return ItemTags(
        groups=(it.type, it.modality),
        line=(str(it.type_code),),
        tags=(*tags, it.source or ""),
        search=(*(terms[p] for p in PERSPECTIVES), it.source or ""),
    )
