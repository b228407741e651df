"""Write a Forensics dataset folder back as a release-format TSV (VLMEvalKit's layout).

Streaming: one item at a time. Columns ``index, image, question, hint, A.., answer, category,
image_path`` (``hint`` / ``image_path`` only when some item has one; option columns up to the
largest option count, empty when an item has fewer). An item whose image list equals an earlier
row's is written as a reference to that row's ``index`` (as the release does, and as
:mod:`.tsv_import` reads it); a multi-image row is a Python list literal of base64 strings.
``category`` is the item's original release string when it has one, else the tokens of its type
code (:meth:`.taxonomy.TypeCode.category`).
"""

from __future__ import annotations

import base64
import csv
from pathlib import Path

from forgebench.suites.forensics.contract import ITEMS_FILE, LETTERS, ForensicsItem, iter_jsonl
from forgebench.suites.forensics.problems import ForensicsDataError


def _scan(root: Path) -> tuple[int, bool, bool]:
    n_opts, hint, paths = 2, False, False
    for lineno, obj, err in iter_jsonl(root / ITEMS_FILE):
        if obj is None:
            raise ForensicsDataError(f"{ITEMS_FILE}:{lineno}: {err}")
        n_opts = max(n_opts, len(obj.get("options") or {}))
        hint = hint or bool(obj.get("hint"))
        paths = paths or bool(obj.get("image_path"))
    return n_opts, hint, paths


def export_release_tsv(root: Path, dest: Path) -> int:
    """Write ``root``'s items to ``dest`` (a TSV); returns the number of rows."""
    n_opts, has_hint, has_paths = _scan(root)
    letters = list(LETTERS[:n_opts])
    header = ["index", "image", "question"]
    header += ["hint"] if has_hint else []
    header += [*letters, "answer", "category"]
    header += ["image_path"] if has_paths else []
    first_row: dict[tuple[str, ...], str] = {}
    rows = 0
    tmp = dest.with_name(dest.name + ".part")
    with tmp.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, delimiter="\t", lineterminator="\n")
        writer.writerow(header)
        for _lineno, obj, _err in iter_jsonl(root / ITEMS_FILE):
            item = ForensicsItem.model_validate(obj)
            key = tuple(item.images)
            if key in first_row:
                image_cell = first_row[key]
            else:
                encoded = [base64.b64encode((root / p).read_bytes()).decode("ascii") for p in key]
                image_cell = encoded[0] if len(encoded) == 1 else repr(encoded)
                first_row[key] = item.id
            cells = {
                "index": item.id,
                "image": image_cell,
                "question": item.question,
                "hint": item.hint or "",
                "answer": item.answer,
                "category": item.category or item.code.category(),
                "image_path": (
                    ""
                    if not item.image_path
                    else item.image_path[0]
                    if len(item.image_path) == 1
                    else repr(item.image_path)
                ),
                **{k: item.options.get(k, "") for k in letters},
            }
            writer.writerow([cells[c] for c in header])
            rows += 1
    tmp.replace(dest)
    return rows
