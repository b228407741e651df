"""The static report and item viewer: ``RUN/report/index.html``.

The page opens from disk (``file://``), needs no server and no network, and stays responsive for
a 36-model run of 2,000 items and a 25-model run of 63,000 Forensics questions:

- the results (front page and each suite's section) are the page itself; the item data loads
  after they are drawn;
- pictures are copied into ``report/img/`` (thumbnails, views, variants, difference heatmaps) and
  never inlined in the page (:mod:`.site_items`);
- item data is split into paged chunks ``report/data/page-NNNN.js`` that the page loads on demand
  with ``<script>`` tags (``fetch`` of ``file://`` URLs is blocked by browsers, script tags are
  not), each written as soon as it is full;
- the index (``data/index.js``) holds one compact row per item with its facets and one integer
  per answer (its model, probe, condition, verdict and level positions, :func:`pack_code`), so
  filtering needs no page loads. A row is ``[id, list line, group 1, group 2, benchmark,
  thumbnail, answer codes, "", page]``; each item's search text is in ``data/search.js``, loaded
  at the first search. The list line, the two grouping facets (and their dropdown labels), the
  card's tag line and the search text come from the item's suite (:class:`.facets.ItemTags`).

The calibration sample (``forgebench calibrate sample``), when given, becomes a grading view:
image, answer, ground truth and the rubric, E0-E4 picked by click or key, saved as the CSV that
``forgebench calibrate score`` reads.
"""

from __future__ import annotations

import html
import json
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from forgebench.report.facets import (
    ERROR,
    LEVEL_TAIL,
    NOT_GRADED,
    PENDING,
    UNSCORED,
    VERDICT_TAIL,
    AnswerView,
    GroupLabels,
    ItemCard,
    ItemCarder,
    ItemFacts,
    ItemTagger,
    ItemTags,
    group_label,
    vocabulary,
)
from forgebench.report.site_data import (
    ViewerAnswer,
    calibration_view,
    parse_detail,
    read_viewer_data,
)
from forgebench.report.site_images import shown_images
from forgebench.report.site_items import (
    AnswerPictures,
    Pictures,
    VariantViews,
    cache_of,
    dataset_roots,
    item_record,
    made_pictures,
)

PAGE_SIZE = 50
"""Items per data chunk."""


@dataclass
class SiteResult:
    """What :func:`build_site` wrote."""

    index: Path
    n_items: int
    n_answers: int
    n_pages: int
    warnings: list[str] = field(default_factory=list)


def _js(name: str, payload: Any) -> str:
    """A data file that works from ``file://``: it assigns to ``window.FB`` (pages also notify)."""
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    head = "window.FB = window.FB || {};\n"
    if name == "page":
        return (
            head
            + f"(FB.pages = FB.pages || {{}})[{payload['n']}] = {body};\nif (FB.onpage) FB.onpage({payload['n']});\n"
        )
    return head + f"FB.{name} = {body};\n"


def pack_code(digits: Sequence[int], radix: Sequence[int]) -> int:
    """An answer's facets (model, probe, condition, verdict, level positions) as one integer,
    mixed radix, the model most significant: one number per answer keeps the index small."""
    code = 0
    for d, r in zip(digits, radix, strict=True):
        code = code * r + d
    return code


def _shown(a: ViewerAnswer, views: Mapping[str, AnswerView]) -> tuple[str, str, str]:
    """An answer's verdict facet, level facet and note (how its verdict was found)."""
    view = views.get(a.benchmark)
    verdict, note = (a.verdict, "") if view is None else view(a.verdict, parse_detail(a.detail))
    if not verdict or a.text is None:
        verdict = ERROR if a.error else PENDING
    if a.level is not None:
        level = f"E{a.level}"
    else:
        level = UNSCORED if a.grade_status == "unscored" else NOT_GRADED
    return verdict, level, note


def build_site(
    run_dir: Path,
    *,
    out_dir: Path | None = None,
    dataset_root: Path | None = None,
    judge: str | None = None,
    calibration_csv: Path | None = None,
    page_size: int = PAGE_SIZE,
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
    ``answer_pictures`` (by benchmark: the pictures an answer made, such as a predicted mask)."""
    data = read_viewer_data(run_dir, judge)
    out = out_dir or run_dir / "report"
    (out / "data").mkdir(parents=True, exist_ok=True)
    warnings: list[str] = []
    root, roots = dataset_roots(data, dataset_root)
    if root is None and not roots:
        warnings.append("dataset folder unknown: items are shown without pictures")

    benchmarks = list(dict.fromkeys(str(it.get("benchmark") or "") for it in data.items))
    cards = [item_card(it) if item_card is not None else ItemCard() for it in data.items]
    originals = {
        c.pair: it for it, c in zip(data.items, cards, strict=True) if c.original and c.pair
    }
    models = sorted({a.model for rows in data.answers.values() for a in rows})
    probes = sorted({a.probe for rows in data.answers.values() for a in rows})
    conditions = sorted({a.condition for rows in data.answers.values() for a in rows})
    memo: dict[tuple[Any, ...], tuple[str, str, str]] = {}  # answers read alike: done once

    def shown_of(a: ViewerAnswer) -> tuple[str, str, str]:
        key = (a.benchmark, a.verdict, a.detail, a.text is None, bool(a.error), a.level,
               a.grade_status)  # fmt: skip
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = _shown(a, answer_views or {})
        return hit

    shown = {item_id: [shown_of(a) for a in rows] for item_id, rows in data.answers.items()}
    verdict_codes = vocabulary(
        verdicts, (v for rows in shown.values() for v, _l, _n in rows), VERDICT_TAIL
    )
    level_codes = vocabulary(
        levels, (lv for rows in shown.values() for _v, lv, _n in rows), LEVEL_TAIL
    )
    verdict_pos = {v: i for i, v in enumerate(verdict_codes)}
    level_pos = {lv: i for i, lv in enumerate(level_codes)}

    index_rows: list[list[Any]] = []
    search: list[str] = []
    pics = Pictures(out, cache_of(data.meta))
    item_views: list[str | None] = []
    n_answers = 0
    n_pages = 0
    page: list[dict[str, Any]] = []
    pos_of = [{v: i for i, v in enumerate(vs)} for vs in (models, probes, conditions)]
    radix = [len(models), len(probes), len(conditions), len(verdict_codes), len(level_codes)]
    for pos, item in enumerate(data.items):
        item_root = roots.get(item.get("benchmark") or "", root)
        card = cards[pos]
        original = originals.get(card.pair) if card.pair and not card.original else None
        rec = item_record(item, card, item_root, pics, original, warnings, variant_views)
        facts = item_facts(item) if item_facts is not None else []
        tags = item_tags(item) if item_tags is not None else ItemTags()
        rec["tags"] = [t for t in tags.tags if t]
        if facts:
            rec["facts"] = [[label, text] for label, text in facts]
        answers = data.answers.get(item["id"], [])
        codes = []
        rec["answers"] = []
        for a, (verdict, level, note) in zip(answers, shown.get(item["id"], []), strict=True):
            digits = (pos_of[0][a.model], pos_of[1][a.probe], pos_of[2][a.condition],
                      verdict_pos[verdict], level_pos[level])  # fmt: skip
            codes.append(pack_code(digits, radix))
            shown_answer: dict[str, Any] = {
                "m": a.model,
                "p": a.probe,
                "c": a.condition,
                "t": a.text,
                "v": verdict,
                "l": level,
                "r": a.reason,
                "e": a.error,
            }
            if note:
                shown_answer["s"] = note
            if a.images:
                shown_answer["i"] = shown_images(a.images, out, pics.seen, rec.get("_own", {}))
            made = made_pictures(answer_pictures, a, warnings)
            if made:
                shown_answer["o"] = made
            rec["answers"].append(shown_answer)
        n_answers += len(answers)
        search.append(
            " ".join(
                str(x) for x in (item["id"], *tags.search, *(v for _label, v in facts)) if x
            ).lower()
        )
        index_rows.append(
            [
                item["id"],
                " · ".join(t for t in tags.line if t),
                tags.groups[0] or "",
                tags.groups[1] or "",
                item.get("benchmark") or "",
                rec["img"].get("thumb"),
                codes,
                "",
                pos // page_size,
            ]
        )
        rec.pop("_own", None)
        item_views.append(rec["img"].get("view"))
        page.append(rec)
        if len(page) == page_size or pos == len(data.items) - 1:  # written as it fills
            (out / "data" / f"page-{n_pages:04d}.js").write_text(
                _js("page", {"n": n_pages, "items": page}), encoding="utf-8"
            )
            n_pages, page = n_pages + 1, []

    meta = {
        "run": run_dir.name,
        "judge": data.judge,
        "judges": data.judges,
        "models": models,
        "probes": probes,
        "conditions": conditions,
        "verdicts": verdict_codes,
        "levels": level_codes,
        "page_size": page_size,
        "n_pages": n_pages,
        "code_radix": radix,
        "benchmarks": benchmarks,
        "groups": [
            {
                "label": group_label(group_labels or {}, benchmarks, col),
                "of": {b: (group_labels or {}).get(b, ("", ""))[col] for b in benchmarks},
            }
            for col in (0, 1)
        ],
    }
    (out / "data" / "index.js").write_text(
        _js("index", {"meta": meta, "rows": index_rows}), encoding="utf-8"
    )
    (out / "data" / "search.js").write_text(_js("search", search), encoding="utf-8")
    views = {row[0]: v for row, v in zip(index_rows, item_views, strict=True) if v}
    calib = calibration_view(calibration_csv, run_dir, views)
    (out / "data" / "calibration.js").write_text(_js("calibration", calib), encoding="utf-8")

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
        n_answers=n_answers,
        n_pages=n_pages,
        warnings=warnings,
    )
