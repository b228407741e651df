"""PIXAR results: metrics.csv rows and tables in the layouts of seed 003 Tables 2-5.

metrics.csv rows (DESIGN.md long format): ``benchmark="pixar"``, probe ``LOC``, condition
``full``, subset ``all`` / ``small`` / ``medium`` / ``large`` (edit-size classes of Fig. 14),
metric ``giou``, ``ciou``, ``precision``, ``recall``, ``f1``, ``auc`` (percentages, 0-100),
``top1``, ``top5`` (percentages, semantic classification) and ``css`` (a raw similarity, as
Table 9). ``n`` is the number of images the value is computed over; ``judge`` is empty.

``pixar score --out RUN`` adds its image-level and semantic numbers on subset ``all`` (one row
each; ``n`` = images classified, or tampered images with object predictions):
``image_accuracy`` (3-class accuracy), ``image_precision`` / ``image_recall`` / ``image_f1`` on
the subsets ``real``, ``full_synthetic``, ``tampered`` (per class), ``combined_f1``;
``semantic_micro_precision`` ... ``semantic_macro_f1``, ``semantic_subset_accuracy`` and
``top1`` / ``top5`` (all percentages).

Tables use the report's one table model (``report.table``: Markdown, LaTeX, CSV, HTML). Layouts
(columns as in the seed, values with one decimal in Markdown, unrounded in CSV):

- Table 2 / Table 5: Top-1 Acc, Top-5 Acc (Semantic Classification) | Recall, F1-Score, AUC,
  g-IoU, IoU (Pixel Localization); rows are methods (Table 2) or generative sources (Table 5).
- Table 3: Recall, F1-Score, AUC, g-IoU, IoU.
- Table 4: Precision / Recall / F1-Score, each for Real, Fake and Overall (image level).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from forgebench.report.table import Column, Table, num, text, to_csv, to_latex, to_markdown
from forgebench.suites.pixar.imdl import PREFIX, imdl_table
from forgebench.suites.pixar.localization import SIZE_CLASSES
from forgebench.util.atomic import write_text

BENCHMARK = "pixar"
PROBE = "LOC"
PIXEL_METRICS: tuple[str, ...] = ("giou", "ciou", "precision", "recall", "f1", "auc")
ROW_FIELDS: tuple[str, ...] = (
    "benchmark", "model", "probe", "condition", "subset", "metric", "value", "n", "judge",
)  # fmt: skip


def pixar_metrics_rows(
    results: Mapping[str, Any], model: str, condition: str = "full"
) -> list[dict[str, Any]]:
    """metrics.csv rows for one model's PIXAR results.

    ``results`` is what :func:`forgebench.suites.pixar.scoring.score_folder` returns (percentages),
    optionally with ``top1`` / ``top5`` (percentages) and ``n_semantic``, and ``css`` (raw) and
    ``n_css``. Metrics that are absent or None produce no row.
    """

    def row(subset: str, metric: str, value: float, n: int) -> dict[str, Any]:
        return {
            "benchmark": BENCHMARK,
            "model": model,
            "probe": PROBE,
            "condition": condition,
            "subset": subset,
            "metric": metric,
            "value": float(value),
            "n": int(n),
            "judge": "",
        }

    rows: list[dict[str, Any]] = []
    blocks: list[tuple[str, Mapping[str, Any]]] = [("all", results)]
    by_size = results.get("by_size") or {}
    blocks += [(k, by_size[k]) for k in SIZE_CLASSES if k in by_size]
    for subset, block in blocks:
        n = int(block.get("n_images", 0))
        for m in PIXEL_METRICS:
            if block.get(m) is not None:
                rows.append(row(subset, m, block[m], n))
    for m, n_key in (("top1", "n_semantic"), ("top5", "n_semantic"), ("css", "n_css")):
        if results.get(m) is not None:
            rows.append(row("all", m, results[m], int(results.get(n_key, 0))))
    return rows


SEMANTIC_METRICS: tuple[str, ...] = (
    "micro_precision", "micro_recall", "micro_f1", "macro_precision", "macro_recall",
    "macro_f1", "subset_accuracy",
)  # fmt: skip


def score_metrics_rows(results: Mapping[str, Any], model: str) -> list[dict[str, Any]]:
    """metrics.csv rows of one ``pixar score`` result (:func:`.scoring.score_folder`):
    segmentation as :func:`pixar_metrics_rows`, then the image-level and semantic numbers."""
    rows = pixar_metrics_rows(results, model)
    base = {"benchmark": BENCHMARK, "model": model, "probe": PROBE, "condition": "full",
            "judge": ""}  # fmt: skip

    def add(subset: str, metric: str, value: Any, n: int) -> None:
        if value is not None:
            rows.append({**base, "subset": subset, "metric": metric, "value": float(value),
                         "n": int(n)})  # fmt: skip

    il = results.get("image_level")
    if il:
        add("all", "image_accuracy", il["accuracy"], il["n"])
        for cls, prf in il["per_class"].items():
            for m in ("precision", "recall", "f1"):
                add(str(cls), f"image_{m}", prf.get(m), il["n"])
        add("all", "combined_f1", results.get("combined_f1"), il["n"])
    sem = results.get("semantic")
    if sem:
        n = int(sem.get("n_tampered", sem.get("n", 0)))
        for m in SEMANTIC_METRICS:
            add("all", f"semantic_{m}", sem.get(m), n)
        for m in ("top1", "top5"):
            add("all", m, sem.get(m), int(sem.get("n", 0)))
    return rows


def _table(
    number: int,
    slug: str,
    caption: str,
    header: list[str],
    rows: list[list[Any]],
    heading: str | None = None,
) -> Table:
    """A PIXAR table in the report's one table model (first cell a label, then numbers)."""
    cells = [[text(str(r[0])), *(num(v) for v in r[1:])] for r in rows]
    return Table(number, caption, [Column(h) for h in header], [(None, cells)], slug=slug,
                 heading=heading)  # fmt: skip


_T2 = [("Top-1 Acc", "top1"), ("Top-5 Acc", "top5"), ("Recall", "recall"), ("F1-Score", "f1"),
       ("AUC", "auc"), ("g-IoU", "giou"), ("IoU", "ciou")]  # fmt: skip
_T3 = _T2[2:]


def localization_table(
    entries: Mapping[str, Mapping[str, Any]], layout: str = "table2", first: str = "Methods"
) -> Table:
    """Table 2 (``table2``), 3 (``table3``) or 5 (``table5``, rows = generative sources).

    ``entries`` maps a row label to a results mapping (keys as in :func:`pixar_metrics_rows`).
    """
    cols = {"table2": _T2, "table3": _T3, "table5": _T2}.get(layout)
    if cols is None:
        raise ValueError(f"unknown layout {layout!r}; known: table2, table3, table5")
    titles = {
        "table2": "Pixel-level tampered region localization and semantic accuracy (Table 2 layout)",
        "table3": "Pixel localization (Table 3 layout)",
        "table5": "Detection performance across generative sources (Table 5 layout)",
    }
    if layout == "table5" and first == "Methods":
        first = "Source"
    rows = [[label, *(_f(res.get(k)) for _, k in cols)] for label, res in entries.items()]
    number = {"table2": 2, "table3": 3, "table5": 5}[layout]
    return _table(number, f"pixar_{layout}", titles[layout], [first, *(c for c, _ in cols)], rows)


def classification_table(entries: Mapping[str, Mapping[str, Any]]) -> Table:
    """Table 4 layout from :meth:`ImageClassAccumulator.result` dicts (fractions -> percent)."""
    header = ["Detector"]
    for m in ("Precision", "Recall", "F1-Score"):
        header += [f"{m} Real", f"{m} Fake", f"{m} Overall"]
    rows = []
    for label, res in entries.items():
        b = res["binary"]
        r: list[Any] = [label]
        for m in ("precision", "recall", "f1"):
            r += [100.0 * b[part][m] for part in ("real", "fake", "overall")]
        rows.append(r)
    return _table(4, "pixar_table4", "Image-level real / fake classification (Table 4 layout)",
                  header, rows)  # fmt: skip


def size_table(entries: Mapping[str, Mapping[str, Any]]) -> Table:
    """g-IoU and IoU per edit-size class (Fig. 14 classes) for each model."""
    header = ["Methods"] + [f"{m} {s}" for s in SIZE_CLASSES for m in ("g-IoU", "IoU")]
    rows = []
    for label, res in entries.items():
        by = res.get("by_size") or {}
        r: list[Any] = [label]
        for s in SIZE_CLASSES:
            r += [_f(by.get(s, {}).get("giou")), _f(by.get(s, {}).get("ciou"))]
        rows.append(r)
    return _table(14, "pixar_sizes", "Localization by edit size (Fig. 14 classes)", header,
                  rows, heading="Localization by edit size")  # fmt: skip


def _f(v: Any) -> float | None:
    return None if v is None else float(v)


def results_from_rows(rows: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Rebuild per-model results mappings from metrics.csv rows of benchmark ``pixar``."""
    out: dict[str, dict[str, Any]] = {}
    for r in rows:
        if r.get("benchmark") != BENCHMARK:
            continue
        res = out.setdefault(str(r["model"]), {"by_size": {}})
        value = float(r["value"])
        if r["subset"] == "all":
            res[str(r["metric"])] = value
        elif r["subset"] in SIZE_CLASSES:
            res["by_size"].setdefault(str(r["subset"]), {})[str(r["metric"])] = value
    return out


def tables_from_rows(rows: Sequence[Mapping[str, Any]]) -> dict[str, Table]:
    """The Table 2, Table 3 and size tables of every model found in metrics.csv rows, and the
    IMDL-BenCo convention's table where ``imdl_*`` rows exist (:mod:`.imdl`)."""
    res = results_from_rows(r for r in rows if not str(r.get("metric")).startswith(PREFIX))
    out = {
        "pixar_table2": localization_table(res, "table2"),
        "pixar_table3": localization_table(res, "table3"),
        "pixar_sizes": size_table(res),
    }
    imdl = imdl_table(rows)
    if imdl is not None:
        out["pixar_imdl"] = imdl
    return out


def write_tables(tables: Mapping[str, Table], out_dir: str | Path) -> list[Path]:
    """Write ``<name>.md``, ``<name>.tex`` and ``<name>.csv`` for each table; returns the paths
    written."""
    out = Path(out_dir)
    written: list[Path] = []
    for name, t in tables.items():
        for suffix, body in ((".md", to_markdown(t)), (".tex", to_latex(t)), (".csv", to_csv(t))):
            p = out / f"{name}{suffix}"
            write_text(p, body)
            written.append(p)
    return written
