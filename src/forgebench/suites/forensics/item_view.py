"""The Forensics item view: ``report/forensics_items.html``, one card per item.

Each card shows the item's image, or for a multi-image row each of its images in order (a
video's frames; an item and its candidates), numbered, with a note on how each condition showed
them (a video under ``full``: tiled into one; a candidate row under ``full``: apart, under
``tiled``: tiled into one; ``multi_image``: apart); then the type code, the question, the options
with the right one marked, and every model's answer under ``full``, ``tiled`` and
``multi_image`` (the condition is named) with the extracted letter, the step and rule that found
it (option letter (cue), option text (binary), builtin/embed, extractor, refusal, readings that
disagree, none) and whether it is right. Pictures are JPEG thumbnails (longest side 384 px) under
``report/img/forensics/``. The page holds the first :data:`MAX_ITEMS` items of the run (a note
says so when there are more): the full release has 63K items.
"""

from __future__ import annotations

import hashlib
import html
import io
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from PIL import Image

from forgebench.report.site_items import ahead_on_threads
from forgebench.run.store import Store
from forgebench.suites.forensics.contract import ForensicsItem, validated
from forgebench.suites.forensics.scores import BENCHMARK
from forgebench.suites.forensics.studies import candidate_row
from forgebench.util.atomic import write_bytes

MAX_ITEMS = 500
CONDITIONS = ("full", "tiled", "multi_image")
THUMB = 384
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


def _config_dataset(run_dir: Path) -> Path | None:
    """The dataset folder ``config.json`` names, while it is a folder (a run holding several
    benchmarks, the demo's, names another benchmark's there: the store's record comes first)."""
    try:
        value = json.loads((run_dir / "config.json").read_text(encoding="utf-8")).get("dataset")
    except (OSError, ValueError):
        return None
    return Path(value) if isinstance(value, str) and Path(value).is_dir() else None


def _thumb(path: Path, out: Path) -> str | None:
    """A JPEG thumbnail of one image file under ``out/img/forensics/`` (None if missing)."""
    if not path.is_file():
        return None
    key = hashlib.sha256(str(path).encode()).hexdigest()[:16]
    rel = f"img/forensics/{key}.jpg"
    dest = out / rel
    if not dest.is_file():
        with Image.open(path) as im:
            shown = im.convert("RGB")
        shown.thumbnail((THUMB, THUMB))
        buf = io.BytesIO()
        shown.save(buf, format="JPEG", quality=85)
        write_bytes(dest, buf.getvalue(), durable=False)  # never half a thumbnail
    return rel


def _pictures(root: Path | None, item: ForensicsItem, out: Path) -> str:
    """The card's images: one, or each of a multi-image row's, numbered in order."""
    thumbs = [_thumb(root / p, out) if root is not None else None for p in item.images]
    if not thumbs or any(t is None for t in thumbs):
        return "<p>(image not found)</p>"
    if len(thumbs) == 1:
        return f"<img src='{html.escape(str(thumbs[0]))}' alt='item {html.escape(item.id)}'>"
    figs = "".join(
        f"<figure class='frame'><img src='{html.escape(str(t))}' "
        f"alt='item {html.escape(item.id)} image {k}'><figcaption>{k}</figcaption></figure>"
        for k, t in enumerate(thumbs, start=1)
    )
    if candidate_row(item):
        how = (
            "<code>full</code> and <code>multi_image</code> show them as separate images, "
            "<code>tiled</code> (models of one image) tiled into one image."
        )
    else:
        how = (
            "<code>full</code> shows them tiled into one image, <code>multi_image</code> as "
            "separate images."
        )
    return (
        f"<div class='frames'>{figs}</div><p class='note'>{len(thumbs)} images, in order: {how}</p>"
    )


Answer = tuple[str, str, str | None, str | None, str]
"""(model, condition, answer text, extracted letter, step)."""


def _answers(store: Store, item_ids: list[str]) -> dict[str, list[Answer]]:
    """The answers of ``item_ids`` under the conditions shown, by item (the release holds 63K
    items: only these are read)."""
    out: dict[str, list[Answer]] = {}
    rows = store.records(
        BENCHMARK, probes=["MCQ"], conditions=CONDITIONS, items=item_ids, models=store.models()
    )
    for r in sorted(rows, key=lambda r: (r.model, r.condition)):
        step = r.verdict_detail.get("step", "missing" if r.text is None else "")
        out.setdefault(r.item_id, []).append((r.model, r.condition, r.text, r.verdict, step))
    return out


def write_item_view(run_dir: Path, out: Path, dataset: Path | None = None) -> Path | None:
    """Write ``out/forensics_items.html``; None when the run has no Forensics items. ``dataset``:
    the Forensics dataset folder, where the run's recorded one is not (a moved run)."""
    with Store.open(run_dir, create=False) as store:
        root = store.dataset_folder(BENCHMARK, dataset) or _config_dataset(run_dir)
        stored = store.item_count(BENCHMARK)
        items = list(store.typed_items(BENCHMARK, ForensicsItem, MAX_ITEMS).values())
        answers = _answers(store, [it.id for it in items])
    if not items:
        return None
    if root is not None:  # the thumbnails on threads first; the cards then find them made
        ahead_on_threads(
            lambda path: _thumb(path, out),
            list(dict.fromkeys(root / p for it in items for p in it.images)),
        )
    cards = []
    for item in items:
        img = _pictures(root, item, out)
        opts = "".join(
            f"<li{' class=right' if k == item.answer else ''}>{html.escape(k)}. {html.escape(v)}</li>"
            for k, v in item.options.items()
        )
        rows = "".join(
            f"<tr><td>{html.escape(m)}</td><td>{html.escape(c)}</td>"
            f"<td>{html.escape((t or '')[:400])}</td>"
            f"<td>{html.escape(v or 'Z')}</td><td>{html.escape(STEP_WORDS.get(s, s))}</td>"
            f"<td>{'✓' if (v or 'Z') == item.answer else '✗'}</td></tr>"
            for m, c, t, v, s in answers.get(item.id, [])
        )
        hint = f"<p><b>Hint:</b> {html.escape(item.hint)}</p>" if item.hint else ""
        cards.append(
            f"<section class='card' id='item-{html.escape(item.id)}'><h3>{html.escape(item.id)} · "
            f"<code>{html.escape(str(item.type_code))}</code></h3>{img}{hint}"
            f"<p><b>Question:</b> {html.escape(item.question)}</p><ol class='opts'>{opts}</ol>"
            "<table><thead><tr><th>Model</th><th>Condition</th><th>Answer</th><th>Letter</th>"
            "<th>Found by</th>"
            f"<th></th></tr></thead><tbody>{rows}</tbody></table></section>"
        )
    more = (
        f"<p>The first {MAX_ITEMS} of {stored} items are shown; the report's item viewer "
        "holds them all.</p>"
        if stored > MAX_ITEMS
        else ""
    )
    page = (
        "<!doctype html><html><head><meta charset='utf-8'><title>Forensics items</title><style>"
        "body{font-family:sans-serif;margin:1em}.card{border:1px solid #ccc;padding:.5em;margin:.5em 0}"
        "img{max-width:384px}.frames{display:flex;flex-wrap:wrap;gap:4px}"
        ".frame{margin:0}.frame img{max-width:192px}.note{color:#555}.opts{list-style:none;padding:0}.right{font-weight:bold;color:#060}"
        "td,th{border-bottom:1px solid #eee;padding:2px 6px;text-align:left;vertical-align:top}"
        "</style></head><body><h1>Forensics items</h1>"
        "<p>Right option in bold; Z (refusal, nothing found, no answer) counts as wrong.</p>"
        + more
        + "".join(cards)
        + "</body></html>"
    )
    path = out / "forensics_items.html"
    out.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
    return path
