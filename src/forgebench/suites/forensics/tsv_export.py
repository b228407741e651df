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
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from forgebench.suites.forensics.contract import ITEMS_FILE, LETTERS, ForensicsItem
from forgebench.suites.forensics.problems import ForensicsDataError
from forgebench.util.atomic import atomic_open
from forgebench.util.csvsafe import writer as csv_writer
from forgebench.util.jsonl import iter_jsonl
from forgebench.util.paths import OutsideDataset, dataset_file


def _scan(root: Path) -> tuple[int, bool, bool]:
    n_opts, hint, paths = 2, False, False
    for lineno, obj, err in iter_jsonl(root / ITEMS_FILE):
        if obj is None:
            raise ForensicsDataError(f"{ITEMS_FILE}:{lineno}: {err}")
        n_opts = max(n_opts, len(obj.get("options") or {}))
        hint = hint or bool(obj.get("hint"))
        paths = paths or bool(obj.get("image_path"))
    return n_opts, hint, paths


def _item(obj: dict[str, Any] | None, lineno: int) -> ForensicsItem:
    try:
        return ForensicsItem.model_validate(obj)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "item"
        raise ForensicsDataError(f"{ITEMS_FILE}:{lineno}: {where}: {first['msg']}") from None


def _base64(root: Path, rel: str, lineno: int) -> str:
    try:
        return base64.b64encode(dataset_file(root, rel).read_bytes()).decode("ascii")
    except OutsideDataset as exc:
        raise ForensicsDataError(f"{ITEMS_FILE}:{lineno}: {exc}") from None
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise ForensicsDataError(f"{ITEMS_FILE}:{lineno}: image {rel}: {why}") from None


def export_release_tsv(root: Path, dest: Path) -> int:
    """Write ``root``'s items to ``dest`` (a TSV), atomically: on any error the old ``dest`` (or
    none) stays; returns the number of rows. :class:`ForensicsDataError` names a bad item line
    or an unreadable image; ``OSError`` is ``dest`` that cannot be written."""
    n_opts, has_hint, has_paths = _scan(root)
    letters = list(LETTERS[:n_opts])
    header = ["index", "image", "question"]
    header += ["hint"] if has_hint else []
    header += [*letters, "answer", "category"]
    header += ["image_path"] if has_paths else []
    first_row: dict[tuple[str, ...], str] = {}
    rows = 0
    with atomic_open(dest, "w", newline="") as fh:
        writer = csv_writer(fh, delimiter="\t")  # a CR or LF in a cell is quoted, not a row end
        writer.writerow(header)
        for lineno, obj, _err in iter_jsonl(root / ITEMS_FILE):
            item = _item(obj, lineno)
            key = tuple(item.images)
            if key in first_row:
                image_cell = first_row[key]
            else:
                encoded = [_base64(root, p, lineno) for p in key]
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
    return rows
