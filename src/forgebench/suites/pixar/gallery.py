"""PIXAR's gallery page: every pair each model answered, with the edited image, the truth mask and
the model's predicted mask side by side, its IoU and pixel F1, sortable by IoU.

Reads what ``metrics`` stored: each LOC answer's verdict (IoU and F1 in its detail), the truth
labels ``RUN/pixar/labels/<stem>.png`` and the predicted masks ``RUN/pixar/pred/<model>/<stem>.png``
(:mod:`.loc_score`); the edited image comes from the run's PIXAR dataset folder. Pictures are
written once each as small PNG thumbnails named by the hash of their bytes
(``report/pixar_gallery/<sha256>.png``), so a picture shown for several models is stored once.
The page is ``report/pixar_gallery.html``; it opens from disk.
"""

from __future__ import annotations

import hashlib
import html
import io
from pathlib import Path
from typing import Any

from PIL import Image

from forgebench.report.site_items import ahead_on_threads
from forgebench.util.atomic import atomic_path

PAGE = "pixar_gallery.html"
FOLDER = "pixar_gallery"
THUMB = 192
"""Longest side of a thumbnail, in pixels."""


_MADE: dict[tuple[str, str, int, int], str] = {}
"""(report folder, picture, mtime, size) -> its thumbnail: the viewer shows the gallery's own."""


def thumb(path: Path, out: Path) -> str | None:
    """A picture's gallery thumbnail (``pixar_gallery/<sha256>.png``), relative to the report
    folder ``out``, written once; None when there is no such picture."""
    try:
        st = path.stat()
    except OSError:
        return None
    key = (str(out), str(path), st.st_mtime_ns, st.st_size)
    if key not in _MADE:
        rel = _thumb(path, out)
        if rel is None:
            return None
        if len(_MADE) > 100_000:
            _MADE.clear()
        _MADE[key] = rel
    return _MADE[key]


def _thumb(path: Path, out: Path) -> str | None:
    """The thumbnail's path relative to the report folder (None: no such picture)."""
    if not path.is_file():
        return None
    try:
        with Image.open(path) as im:
            im.thumbnail((THUMB, THUMB))
            buf = io.BytesIO()
            im.convert("RGB" if im.mode not in ("L", "1") else "L").save(buf, format="PNG")
    except (OSError, ValueError):
        return None
    data = buf.getvalue()
    name = f"{hashlib.sha256(data).hexdigest()}.png"
    target = out / FOLDER / name
    if not target.exists():
        with atomic_path(target) as tmp:
            tmp.write_bytes(data)
    return f"{FOLDER}/{name}"


def _rows(run_dir: Path, dataset: Path | None) -> tuple[list[dict[str, Any]], Path | None]:
    from forgebench.run.export_source import items_of, iter_tasks, models_of
    from forgebench.run.store import Store
    from forgebench.suites.pixar.loc_score import model_dirname

    rows: list[dict[str, Any]] = []
    with Store.open(run_dir, create=False) as store:
        root = store.dataset_folder("pixar", dataset)
        for model in models_of(store, "pixar"):
            tasks = [t for t in iter_tasks(store, "pixar", model) if t.probe == "LOC"]
            items = items_of(store, "pixar", [t.item_id for t in tasks])
            for t in tasks:
                detail = t.verdict_detail or {}
                rows.append(
                    {
                        "model": model, "pair": t.item_id, "verdict": t.verdict or t.status,
                        "iou": detail.get("iou"), "f1": detail.get("f1"),
                        "image": (items.get(t.item_id) or {}).get("image"),
                        "pred": run_dir / "pixar" / "pred" / model_dirname(model) / f"{t.item_id}.png",
                        "truth": run_dir / "pixar" / "labels" / f"{t.item_id}.png",
                    }
                )  # fmt: skip
    return rows, root


def write_gallery(run_dir: Path, out_dir: Path, dataset: Path | None = None) -> Path | None:
    """Write the gallery page and its thumbnails; its path (None: no scored LOC answer).
    ``dataset``: the PIXAR folder, where the run's recorded one is not (a moved run)."""
    rows, root = _rows(run_dir, dataset)
    rows = [r for r in rows if r["iou"] is not None or r["verdict"] == "MISS"]
    if not rows:
        return None

    def pictures(r: dict[str, Any]) -> tuple[tuple[str, Path | None], ...]:
        image = root / str(r["image"]) if root is not None and r["image"] else None
        return (("edited", image), ("truth", r["truth"]), ("predicted", r["pred"]))

    # the thumbnails on threads first (each decoded and encoded); the rows then find them made
    paths = dict.fromkeys(p for r in rows for _, p in pictures(r) if p is not None)
    ahead_on_threads(lambda path: thumb(path, out_dir), list(paths))
    esc = html.escape
    body = []
    for r in rows:
        pics = []
        for label, path in pictures(r):
            src = thumb(path, out_dir) if path is not None else None
            pics.append(
                f"<td><img src='{esc(src)}' alt='{label}' loading='lazy'></td>"
                if src
                else "<td class='muted'>—</td>"
            )
        iou = "" if r["iou"] is None else f"{float(r['iou']):.1f}"
        f1 = "" if r["f1"] is None else f"{float(r['f1']):.1f}"
        body.append(
            f"<tr data-model='{esc(r['model'])}' data-iou='{esc(iou or '-1')}'>"
            f"<td class='t'>{esc(r['model'])}</td><td class='t'>{esc(r['pair'])}</td>"
            f"<td class='t'>{esc(str(r['verdict']))}</td><td>{iou or '—'}</td><td>{f1 or '—'}</td>"
            + "".join(pics)
            + "</tr>"
        )
    models = sorted({str(r["model"]) for r in rows})
    options = "".join(f"<option>{esc(m)}</option>" for m in models)
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>PIXAR gallery</title>
<link rel="stylesheet" href="viewer.css">
<style>#gallery img {{ max-width: {THUMB}px; border: 1px solid var(--line); }}</style></head>
<body><section><h2>PIXAR: every pair, truth and predicted masks</h2>
<p><a href="index.html#suite-pixar">Back to the report</a></p>
<form onsubmit="return false"><label>Model <select id="model"><option value="">all</option>{options}</select></label>
<label>Sort <select id="sort"><option value="asc">IoU, lowest first</option>
<option value="desc">IoU, highest first</option></select></label></form>
<table id="gallery" class="num paper-table"><caption>Each LOC answer: the edited image the model saw,
the truth (pixels changed by more than tau), the model's predicted mask, its IoU and pixel F1 (%).
</caption><thead><tr><th>Model</th><th>Pair</th><th>Verdict</th><th>IoU</th><th>F1</th>
<th>Edited</th><th>Truth</th><th>Predicted</th></tr></thead><tbody>{"".join(body)}</tbody></table>
</section>
<script>
const tbody = document.querySelector("#gallery tbody");
function apply() {{
  const model = document.getElementById("model").value;
  const dir = document.getElementById("sort").value === "asc" ? 1 : -1;
  const rows = Array.from(tbody.rows);
  rows.sort((a, b) => dir * (parseFloat(a.dataset.iou) - parseFloat(b.dataset.iou)));
  for (const r of rows) {{ r.hidden = model !== "" && r.dataset.model !== model; tbody.appendChild(r); }}
}}
document.getElementById("model").addEventListener("change", apply);
document.getElementById("sort").addEventListener("change", apply);
apply();
</script></body></html>
"""
    path = out_dir / PAGE
    with atomic_path(path) as tmp:
        tmp.write_text(page, encoding="utf-8")
    return path
