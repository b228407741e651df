"""The static report and item viewer: ``RUN/report/index.html``.

The page opens from disk (``file://``), needs no server and no network, and stays responsive for
a 36-model run of 2,000 items and a 25-model run of 63,000 Forensics questions:

- the results (front page and each suite's section) are the page itself; the item data loads
  after they are drawn;
- pictures are copied into ``report/img/`` (thumbnails, views, variants, difference heatmaps) and
  never inlined in the page (:mod:`.site_items`);
- item data is split into paged chunks ``report/data/page-NNNN.js`` that the page loads on demand
  with ``<script>`` tags (``fetch`` of ``file://`` URLs is blocked by browsers, script tags are
  not), each written as soon as it is full; a page holds its items' cards and their answers
  column-wise (one list per field, facets as positions in the index's lists: :mod:`.site_answers`
  reads and orders them without one object per answer, :mod:`.site_pages` cuts a page's slice),
  which the page turns back into one object per answer when it loads;
- the index holds one compact row per item with its facets and one integer per answer (its
  model, probe, condition, verdict and level positions, :func:`.site_answers.pack_codes`), so
  filtering needs no page loads. A row is ``[id, list line, group 1, group 2, benchmark,
  thumbnail, answer codes, "", page]``. It comes in chunks of :data:`ROW_CHUNK` rows: the first
  in ``data/index.js`` with the lists and each grouping facet's values (the item list shows as
  soon as it is read), the others in ``data/rows-NNNN.js``, read several at a time and added in
  order, filtered as they arrive. Each item's search text is in ``data/search.js``, loaded at the first search.
  The list line, the two grouping facets (and their dropdown labels), the card's tag line and
  the search text come from the item's suite (:class:`.facets.ItemTags`).

The calibration sample (``forgebench calibrate sample``), when given, becomes a grading view:
image, answer, ground truth and the rubric, E0-E4 picked by click or key, saved as the CSV that
``forgebench calibrate score`` reads.
"""

from __future__ import annotations

import html
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from forgebench.models.base import ImageRef
from forgebench.report.facets import (
    AnswerView,
    GroupLabels,
    ItemCard,
    ItemCarder,
    ItemFacts,
    ItemTagger,
    ItemTags,
    PairAnswer,
    group_label,
)
from forgebench.report.site_data import calibration_view, read_viewer_data
from forgebench.report.site_images import shown_images
from forgebench.report.site_items import (
    AnswerPictures,
    Pictures,
    TaskImages,
    VariantViews,
    cache_of,
    dataset_roots,
    item_record,
    picture_sources,
    prefetch_pictures,
)
from forgebench.report.site_pages import PageAnswers, answer_facets, js_file

PAGE_SIZE = 50
"""Items per data chunk."""
ROW_CHUNK = 500
"""Index rows per chunk of the index: the first chunk is in ``data/index.js`` (the item list
shows as soon as it is read), the others in ``data/rows-NNNN.js``, read several at a time."""


@dataclass
class SiteResult:
    """What :func:`build_site` wrote."""

    index: Path
    n_items: int
    n_answers: int
    n_pages: int
    warnings: list[str] = field(default_factory=list)


def build_site(
    run_dir: Path,
    *,
    out_dir: Path | None = None,
    dataset_root: Path | None = None,
    judge: str | None = None,
    calibration_csv: Path | None = None,
    page_size: int = PAGE_SIZE,
    row_chunk: int = ROW_CHUNK,
    sections_html: str = "",
    variant_views: VariantViews | None = None,
    rubric: str = "",
    verdicts: Sequence[str] = (),
    levels: Sequence[str] = (),
    answer_views: Mapping[str, AnswerView] | None = None,
    item_facts: ItemFacts | None = None,
    item_tags: ItemTagger | None = None,
    group_labels: GroupLabels | None = None,
    item_card: ItemCarder | None = None,
    answer_pictures: Mapping[str, AnswerPictures] | None = None,
    pair_answers: Mapping[str, PairAnswer] | None = None,
) -> SiteResult:
    """Write ``index.html`` and its data, pictures and assets under ``RUN/report/``.

    The benchmark suites of the run supply what is theirs: ``sections_html`` (their headline
    tables and figures, already HTML), ``variant_views`` (extra pictures per item), ``rubric``
    (the grading instructions of the calibration view), the verdict and level facets in display
    order (``verdicts``, ``levels``; see :mod:`.facets`), ``answer_views`` (by benchmark: an
    answer's verdict and how it was found), ``item_facts`` (extra lines of an item's card),
    ``item_tags`` (an item's grouping facets, list line, tag line and search text),
    ``group_labels`` (by benchmark: the names of the two grouping facets) and ``item_card`` (an
    item's details rows, picture caption and outline, and the pairing with its original) and
    ``answer_pictures`` (by benchmark: the pictures an answer made, such as a predicted mask)
    and ``pair_answers`` (by benchmark: how a pair scored from files, a detector's score map
    stored by ``pixar score --out``, shows as an answer; :mod:`.site_data`)."""
    data = read_viewer_data(run_dir, judge, pair_answers)
    out = out_dir or run_dir / "report"
    (out / "data").mkdir(parents=True, exist_ok=True)
    for old in (out / "data").glob("rows-*.js"):  # chunks of an earlier, larger index
        old.unlink()
    warnings: list[str] = []
    root, roots = dataset_roots(data, dataset_root)
    if root is None and not roots:
        warnings.append("dataset folder unknown: items are shown without pictures")

    benchmarks = list(dict.fromkeys(str(it.get("benchmark") or "") for it in data.items))
    cards = [item_card(it) if item_card is not None else ItemCard() for it in data.items]
    originals = {
        c.pair: it for it, c in zip(data.items, cards, strict=True) if c.original and c.pair
    }
    ans = data.answers
    fac = answer_facets(ans, answer_views or {}, verdicts, levels)
    starts = ans.starts
    groups, group_at = ans.image_groups()
    group_pics: dict[int, list[str | None] | None] = {}
    # the items where each list of shown images first appears: it is written there, once
    first_rows = np.unique(group_at, return_index=True)[1] if len(ans) else np.zeros(0, int)
    first_item = np.searchsorted(starts, first_rows, side="right") - 1
    resolve: dict[int, list[int]] = {}
    for g, pos in zip(group_at[first_rows].tolist(), first_item.tolist(), strict=True):
        resolve.setdefault(pos, []).append(g)
    page_answers = PageAnswers(ans, fac, group_at, group_pics, answer_pictures, warnings)

    condition_at = {c: i for i, c in enumerate(ans.conditions)}

    def task_images(pos: int) -> TaskImages:
        """What item ``pos``'s tasks showed, by condition (the first answer's of each)."""

        def shown(condition: str) -> tuple[ImageRef, ...]:
            lo, hi = int(starts[pos]), int(starts[pos + 1])
            at = condition_at.get(condition)
            if at is None:
                return ()
            hit = np.flatnonzero(ans.condition_pos[lo:hi] == at)
            return groups[int(group_at[lo + hit[0]])] if len(hit) else ()

        return shown

    def original_of(pos: int) -> dict[str, Any] | None:
        card = cards[pos]
        return originals.get(card.pair) if card.pair and not card.original else None

    item_roots = [roots.get(item.get("benchmark") or "", root) for item in data.items]
    jobs = []
    for pos, item in enumerate(data.items):
        src, osrc = picture_sources(item, item_roots[pos], original_of(pos))
        if src is not None:
            jobs.append((src, str(item["id"]), osrc))
    prefetch_pictures(jobs, out)
    index_rows: list[list[Any]] = []
    search: list[str] = []
    pics = Pictures(out, cache_of(data.meta))
    item_views: list[str | None] = []
    n_pages = 0
    page: list[dict[str, Any]] = []
    values: list[dict[str, dict[str, None]]] = [{}, {}]
    for pos, item in enumerate(data.items):
        rec = item_record(
            item,
            cards[pos],
            item_roots[pos],
            pics,
            original_of(pos),
            warnings,
            variant_views,
            task_images(pos),
        )
        facts = item_facts(item) if item_facts is not None else []
        tags = item_tags(item) if item_tags is not None else ItemTags()
        rec["tags"] = [t for t in tags.tags if t]
        if facts:
            rec["facts"] = [[label, text] for label, text in facts]
        own = rec.pop("_own", {})
        for g in resolve.get(pos, ()):  # the task's pictures, each written once per variant
            group_pics[g] = shown_images(groups[g], out, pics.seen, own) if groups[g] else None
        search.append(
            " ".join(
                str(x) for x in (item["id"], *tags.search, *(v for _label, v in facts)) if x
            ).lower()
        )
        benchmark = item.get("benchmark") or ""
        for col in (0, 1):
            if tags.groups[col]:
                values[col].setdefault(benchmark, {})[tags.groups[col]] = None
        index_rows.append(
            [
                item["id"],
                " · ".join(t for t in tags.line if t),
                tags.groups[0] or "",
                tags.groups[1] or "",
                benchmark,
                rec["img"].get("thumb"),
                fac.codes[starts[pos] : starts[pos + 1]].tolist(),
                "",
                pos // page_size,
            ]
        )
        item_views.append(rec["img"].get("view"))
        page.append(rec)
        if len(page) == page_size or pos == len(data.items) - 1:  # written as it fills
            payload = {
                "n": n_pages,
                "items": page,
                "answers": page_answers(pos + 1 - len(page), pos),
            }
            (out / "data" / f"page-{n_pages:04d}.js").write_text(
                js_file("page", payload), encoding="utf-8"
            )
            n_pages, page = n_pages + 1, []

    chunks = [index_rows[k : k + row_chunk] for k in range(0, len(index_rows), row_chunk)]
    meta = {
        "run": run_dir.name,
        "judge": data.judge,
        "judges": data.judges,
        "models": ans.models,
        "probes": ans.probes,
        "conditions": ans.conditions,
        "verdicts": fac.verdicts,
        "levels": fac.levels,
        "notes": fac.notes,
        "page_size": page_size,
        "n_pages": n_pages,
        "n_rows": len(index_rows),
        "row_chunks": max(len(chunks), 1),
        "code_radix": fac.radix,
        "benchmarks": benchmarks,
        "groups": [
            {
                "label": group_label(group_labels or {}, benchmarks, col),
                "of": {b: (group_labels or {}).get(b, ("", ""))[col] for b in benchmarks},
                "values": {b: list(vs) for b, vs in values[col].items()},
            }
            for col in (0, 1)
        ],
    }
    (out / "data" / "index.js").write_text(
        js_file("index", {"meta": meta, "rows": chunks[0] if chunks else []}), encoding="utf-8"
    )
    for k, rows in enumerate(chunks[1:], start=1):
        (out / "data" / f"rows-{k:04d}.js").write_text(
            js_file("rows", {"k": k, "rows": rows}), encoding="utf-8"
        )
    (out / "data" / "search.js").write_text(js_file("search", search), encoding="utf-8")
    views = {row[0]: v for row, v in zip(index_rows, item_views, strict=True) if v}
    calib = calibration_view(calibration_csv, run_dir, views)
    (out / "data" / "calibration.js").write_text(js_file("calibration", calib), encoding="utf-8")

    assets = resources.files("forgebench.report") / "html"
    for name in ("viewer.js", "viewer.css"):
        with resources.as_file(assets / name) as path:
            shutil.copyfile(path, out / name)
    template = (assets / "index.html").read_text(encoding="utf-8")
    page_html = (
        template.replace("{{TITLE}}", html.escape(f"forgebench report: {run_dir.name}"))
        .replace("{{HEADLINE}}", sections_html)
        .replace("{{RUBRIC}}", html.escape(rubric))
    )
    index = out / "index.html"
    index.write_text(page_html, encoding="utf-8")
    return SiteResult(
        index=index,
        n_items=len(data.items),
        n_answers=int(starts[-1]) if len(starts) else 0,
        n_pages=n_pages,
        warnings=warnings,
    )
