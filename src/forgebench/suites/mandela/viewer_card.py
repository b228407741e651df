"""A Mandela item's card in the report viewer: its details list, the forgery's edit region
outlined on its picture, and its seed's authentic original beside it (with a difference heatmap).

Read from the stored item dict as it is, like Mandela's viewer facet's ``tags`` (an item the contract
would now reject still shows). The rows are those the viewer showed before the suite seam, in the
same words: family, entity (role), aliases, erased figure, contradiction, event (date), edit,
crop box, principal figures, source.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from forgebench.report.facets import ItemCard


def _sub(item: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = item.get(key)
    return value if isinstance(value, Mapping) else {}


def _box(value: Any) -> str:
    """``[x0, y0, x1, y1]`` as the page writes it (``[100, 20, 130, 50]``)."""
    nums = value if isinstance(value, Sequence) and not isinstance(value, str) else []
    return "[" + ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in nums) + "]"


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def item_card(item: Mapping[str, Any]) -> ItemCard:
    """The card of a Mandela item (pairs a forgery with the authentic item of its seed)."""
    entity, event, edit = _sub(item, "entity"), _sub(item, "event"), _sub(item, "edit")
    erased, source = _sub(item, "erased"), _sub(item, "source")
    name, role = _text(entity.get("name")), _text(entity.get("role"))
    label = _text(item.get("label"))
    region = edit.get("region")
    rows = [
        ("family", _text(item.get("family"))),
        ("entity", name + (f" ({role})" if role else "") if name else ""),
        ("aliases", ", ".join(str(a) for a in entity.get("aliases") or [])),
        ("erased", _text(erased.get("name"))),
        ("contradiction", _text(item.get("contradiction"))),
        ("event", f"{event['label']} ({_text(event.get('date'))})" if event.get("label") else ""),
        ("edit", f"{_text(edit.get('operation'))}: {_text(edit.get('instruction'))} {_box(region)}" if edit else ""),
        ("crop", _box(item["crop"]) if item.get("crop") else ""),
        ("principal figures", ", ".join(str(p) for p in item.get("principal_figures") or [])),
        ("source", " — ".join(_text(source.get(k)) for k in ("url", "license") if source.get(k))),
    ]  # fmt: skip
    outline = tuple(region) if isinstance(region, Sequence) and len(region) == 4 else None
    return ItemCard(
        rows=tuple(rows),
        caption="forgery (edit region outlined)" if label == "forged" else "image",
        outline=outline,
        pair=_text(item.get("seed_id")) if label in ("forged", "authentic") else "",
        original=label == "authentic",
    )
