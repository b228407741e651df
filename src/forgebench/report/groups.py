"""Model groups of the papers' tables: the proprietary and open-weights blocks.

Every suite's tables split their models into the same two blocks, proprietary first, as the papers
print them (seed 000 "Proprietary" / "Open weights"; seed 002 "Proprietary Large Vision Language
Models" / "Open-sourced Large Vision Language Models"). A model's group comes from the models
file's ``group`` (recorded in ``RUN/config.json``); a model without one is open.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["GROUP_ORDER", "group_sections", "model_groups"]

GROUP_ORDER = ("proprietary", "open")
"""The blocks in the order the papers print them."""


def model_groups(config_path: Path, models: Iterable[str]) -> dict[str, str]:
    """Each model's group (``proprietary`` / ``open``) from ``RUN/config.json``; default ``open``.

    Reads a ``models`` list of objects with ``name`` (or ``alias``, or a ``spec`` parsed as a model
    spec) and ``group``, or a ``models`` mapping of name to such an object.
    """
    groups = {m: "open" for m in models}
    if not config_path.is_file():
        return groups
    try:
        data: Any = json.loads(config_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return groups
    entries = data.get("models") if isinstance(data, dict) else None
    if isinstance(entries, dict):
        entries = [{"name": k, **v} for k, v in entries.items() if isinstance(v, dict)]
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        name = entry.get("name") or entry.get("alias")
        if not name and isinstance(entry.get("spec"), str):
            try:
                # inside: light path (metrics loads no spec parser, so no asyncio)
                from forgebench.models.spec import parse_spec

                name = parse_spec(entry["spec"]).name
            except Exception:
                name = None
        group = str(entry.get("group") or "open").lower()
        if name in groups:
            groups[name] = "proprietary" if group.startswith("prop") else "open"
    return groups


def group_sections(
    models: Iterable[str], groups: Mapping[str, str], headings: Mapping[str, str]
) -> list[tuple[str, list[str]]]:
    """``models`` split into the blocks (heading, models), keeping their order; empty blocks
    are left out."""
    models = list(models)
    return [
        (headings[g], [m for m in models if groups.get(m, "open") == g])
        for g in GROUP_ORDER
        if any(groups.get(m, "open") == g for m in models)
    ]
