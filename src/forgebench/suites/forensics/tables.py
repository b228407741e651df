"""Forensics tables in the paper's layouts: Table 2 (overall and perspectives, in Proprietary /
Open-sourced blocks with each block's average), Tables 15-26 (accuracy per type code, ten codes a
table in the paper's column order; codes the paper lacks in an "Other type codes" table), Table 3
(robustness as printed: the clean ``full`` accuracy, then the mean over the five levels of each
perturbation), its per-level companion (forgebench's addition, not the paper's), the extraction
table (how each model's letters were found), the free-form and constrained accuracy side by side
(``MCQ`` against ``MCQ_CHOICE``, ``--protocol choice``), Table 4 (attribution),
Table 13 (attribution with class descriptions), Tables 12 and 14 (the prefix and face-box
studies against ``full`` on the same type codes), and Table 11 (single- vs multi-image input on
the same items, :mod:`.multi`).

All read ``metrics.csv`` rows of benchmark ``forensics`` (:mod:`.scores`); a table whose rows are
absent is a :class:`~forgebench.report.table.Skipped` naming what is missing. Models are sorted by
overall accuracy, best first, within their group (the models file's ``group``, recorded in
``RUN/config.json``: :mod:`forgebench.report.groups`); the best number of each column is bold.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from forgebench.report.groups import group_sections
from forgebench.report.table import Cell, Column, Skipped, Table, dash, mark_best, num, text
from forgebench.suites.forensics.ids import LEVELS, TABLE3_KINDS
from forgebench.suites.forensics.multi import table11
from forgebench.suites.forensics.paper_codes import PAPER_CODE_TABLES, PAPER_CODES
from forgebench.suites.forensics.taxonomy import PERSPECTIVES

PERSP_LABELS = ("Semantic", "Modality", "Task", "Type", "Model")
GROUP_HEADINGS = {
    "proprietary": "Proprietary Large Vision Language Models",
    "open": "Open-sourced Large Vision Language Models",
}
AVERAGE = "Average"
"""The label of a group's average row."""
SHARES = (
    ("by_letter", "Option letter"),
    ("by_text", "Option text"),
    ("by_embed", "Embedding"),
    ("by_extractor", "LLM extractor"),
    ("z", "Z"),
)
"""The extraction shares of metrics.csv and their column labels."""
KIND_LABELS = {
    "saturation": "Saturation", "contrast": "Contrast", "block": "Block",
    "noise": "Noise", "blur": "Blur", "pixelate": "Pixel",
}  # fmt: skip


def _rows(metrics: pd.DataFrame, probe: str, condition: str | None = None) -> pd.DataFrame:
    m = metrics[(metrics["benchmark"] == "forensics") & (metrics["probe"] == probe)]
    if condition is not None:
        m = m[m["condition"] == condition]
    return m


def _value(m: pd.DataFrame, model: str, subset: str, metric: str) -> float | None:
    hit = m[(m["model"] == model) & (m["subset"] == subset) & (m["metric"] == metric)]
    return None if hit.empty else float(hit["value"].iloc[0])


def _values(m: pd.DataFrame, metric: str) -> dict[tuple[str, str], float]:
    """``metric``'s value by (model, subset), the first row's as :func:`_value` reads it: one
    pass for a table of thousands of cells (the per-type tables: 25 models x 112 codes)."""
    hit = m[m["metric"] == metric]
    out: dict[tuple[str, str], float] = {}
    for model, subset, value in zip(hit["model"], hit["subset"], hit["value"], strict=True):
        out.setdefault((str(model), str(subset)), float(value))
    return out


def _by_overall(m: pd.DataFrame) -> list[str]:
    acc = m[(m["subset"] == "all") & (m["metric"] == "acc")]
    return [str(x) for x in acc.sort_values(["value", "model"], ascending=[False, True])["model"]]


def _overall_and_persp(
    number: int, caption: str, m: pd.DataFrame, groups: Mapping[str, str] | None = None
) -> Table:
    """Overall accuracy and the five perspective scores, one block per model group with the
    group's average row (the mean of its models' printed numbers) when it has several models."""
    columns = [Column("Model"), Column("Overall"), *(Column(label) for label in PERSP_LABELS)]

    def row(model: str) -> list[Cell]:
        return [
            text(model),
            num(_value(m, model, "all", "acc")),
            *(num(_value(m, model, p, "persp")) for p in PERSPECTIVES),
        ]

    sections: list[tuple[str | None, list[list[Cell]]]] = []
    for heading, models in group_sections(_by_overall(m), groups or {}, GROUP_HEADINGS):
        rows = [row(x) for x in models]
        if len(rows) > 1:
            rows.append([text(AVERAGE), *(_mean_cell([r[j] for r in rows]) for j in range(1, 7))])
        sections.append((heading, rows))
    return Table(number, caption, columns, mark_best(sections, skip=frozenset({AVERAGE})))


def _mean_cell(cells: list[Cell]) -> Cell:
    vals = [float(c.raw) for c in cells if isinstance(c.raw, int | float)]
    return num(sum(vals) / len(vals)) if len(vals) == len(cells) and vals else dash()


def table2(metrics: pd.DataFrame, groups: Mapping[str, str] | None = None) -> Table | Skipped:
    """Table 2: overall accuracy and the five perspective scores (probe MCQ, condition full),
    in the paper's Proprietary / Open-sourced blocks."""
    m = _rows(metrics, "MCQ", "full")
    if m.empty:
        return Skipped(2, "no Forensics MCQ answers under condition full")
    return _overall_and_persp(
        2,
        "Accuracy (%) over all items and per perspective (mean over each perspective's values of "
        "the mean type-code accuracy); Average: the mean of the block's models.",
        m,
        groups,
    )


def extraction_table(metrics: pd.DataFrame) -> Table | Skipped:
    """How each model's letters were found (shares of its answers) per probe, under condition
    ``full``, with the extractor that was used; the shares sum to 100 (every condition's shares
    are in metrics.csv)."""
    m = metrics[
        (metrics["benchmark"] == "forensics")
        & (metrics["subset"] == "all")
        & (metrics["condition"] == "full")
    ]
    m = m[m["metric"].isin([s for s, _ in SHARES])]
    if m.empty:
        return Skipped(0, "no extraction shares in metrics.csv")
    shown = [(s, label) for s, label in SHARES if s in set(m["metric"])]
    rows: list[list[Cell]] = []
    for (model, probe, cond), g in m.groupby(["model", "probe", "condition"], sort=True):
        vals = dict(zip(g["metric"], g["value"].astype(float), strict=True))
        judge = next((str(j) for j in g["judge"] if isinstance(j, str) and j), "")
        rows.append(
            [text(str(model)), text(str(probe)), text(str(cond))]
            + [num(vals.get(s)) for s, _ in shown]
            + [text(judge or "—")]
        )
    cols = [Column("Model"), Column("Probe"), Column("Condition")]
    cols += [Column(label, "Found by (%)") for _, label in shown] + [Column("Extractor model")]
    return Table(
        0,
        "How the option letters were found, condition full: shares of the answers (Z counts as "
        "wrong, never a random letter).",
        cols,
        [(None, rows)],
        slug="forensics_extraction",
        heading="Letter extraction",
    )


def choice_table(metrics: pd.DataFrame) -> Table | Skipped:
    """Free-form (``MCQ``) and constrained (``MCQ_CHOICE``, ``--protocol choice``) accuracy side
    by side, condition ``full``, for each model the run holds both for: the difference is how
    much of the free-form score the answer's format and its extraction cost (or gave)."""
    m = metrics[
        (metrics["benchmark"] == "forensics")
        & (metrics["condition"] == "full")
        & (metrics["subset"] == "all")
        & (metrics["metric"] == "acc")
        & metrics["probe"].isin(["MCQ", "MCQ_CHOICE"])
    ]
    both = m.groupby("model")["probe"].nunique()
    models = [str(x) for x in both[both == 2].index]
    if not models:
        return Skipped(0, "no model has both MCQ and MCQ_CHOICE answers (--protocol choice)")
    free, held = _rows(m, "MCQ"), _rows(m, "MCQ_CHOICE")

    def n(part: pd.DataFrame, model: str) -> str:
        return str(int(part.loc[part["model"] == model, "n"].iloc[0]))

    rows: list[list[Cell]] = []
    for x in sorted(models, key=lambda x: (-(_value(held, x, "all", "acc") or 0.0), x)):
        a, b = _value(free, x, "all", "acc"), _value(held, x, "all", "acc")
        diff = None if a is None or b is None else b - a
        rows.append([text(x), num(a), num(b), num(diff), text(f"{n(free, x)} / {n(held, x)}")])
    cols = [
        Column("Model"),
        Column("MCQ (free form)", "Accuracy (%)"),
        Column("MCQ_CHOICE (constrained)", "Accuracy (%)"),
        Column("Difference", "Accuracy (%)"),
        Column("Items (MCQ / MCQ_CHOICE)"),
    ]
    return Table(
        0,
        "The same questions answered in free form (letters read by the extraction chain) and "
        "held to one option letter by the server (--protocol choice), condition full; "
        "Difference: constrained minus free form, how much of the free-form score is "
        "extraction and format.",
        cols,
        [(None, rows)],
        slug="forensics_choice",
        heading="Free-form and constrained answers",
    )


def table4(metrics: pd.DataFrame, groups: Mapping[str, str] | None = None) -> Table | Skipped:
    """Table 4: attribution (probe ATTR), overall and per perspective."""
    m = _rows(metrics, "ATTR", "full")
    if m.empty:
        return Skipped(4, "no attribution (ATTR) answers: run with --probes ATTR")
    return _overall_and_persp(
        4, "Forgery attribution accuracy (%) over binary-classification forgeries.", m, groups
    )


def table13(metrics: pd.DataFrame) -> Table | Skipped:
    """Table 13: attribution without and with class descriptions."""
    base, desc = _rows(metrics, "ATTR", "full"), _rows(metrics, "ATTR_DESC", "full")
    if base.empty or desc.empty:
        return Skipped(13, "needs both ATTR and ATTR_DESC answers")
    models = [x for x in _by_overall(base) if x in set(desc["model"])]
    rows = [
        [text(x), num(_value(base, x, "all", "acc")), num(_value(desc, x, "all", "acc"))]
        for x in models
    ]
    cols = [
        Column("Model"),
        Column("Baseline"),
        Column("+Detailed Introductions of Forgery Models"),
    ]
    return Table(
        13, "Attribution accuracy (%) without and with class descriptions.", cols, [(None, rows)]
    )


def _pct(value: float | None) -> Cell:
    return dash() if value is None else Cell(float(value), f"{value:.1f}%")


def per_type_tables(metrics: pd.DataFrame) -> list[Table | Skipped]:
    """Tables 15-26 in the paper's column order; the run's codes the paper lacks follow in an
    "Other type codes" table (ten codes a part), never numbered as a paper table."""
    m = _rows(metrics, "MCQ", "full")
    if m.empty:
        return [Skipped(15, "no Forensics MCQ answers under condition full")]
    present = set(m.loc[m["metric"] == "acc", "subset"])
    models = _by_overall(m)
    acc = _values(m, "acc")

    def table(number: int, codes: list[str], caption: str, **naming: str) -> Table:
        rows = [[text(x), *(_pct(acc.get((x, c))) for c in codes)] for x in models]
        cols = [Column("Model"), *(Column(c) for c in codes)]
        return Table(number, caption, cols, mark_best([(None, rows)]), **naming)  # type: ignore[arg-type]

    out: list[Table | Skipped] = []
    for k, codes in enumerate(PAPER_CODE_TABLES):
        if not present & set(codes):
            out.append(Skipped(15 + k, "none of its type codes is in this run"))
            continue
        out.append(
            table(15 + k, list(codes), f"Accuracy per forgery detection type (part {k + 1}).")
        )
    paper = set(PAPER_CODES)
    extra = sorted(c for c in present if c.count("-") == 4 and "=" not in c and c not in paper)
    for k in range(0, len(extra), 10):
        part = k // 10 + 1
        out.append(
            table(
                0,
                extra[k : k + 10],
                "Accuracy per type code for the run's codes outside the paper's 112.",
                slug=f"forensics_other_types_{part}",
                heading=f"Other type codes (part {part})",
            )
        )
    return out


def _robustness(metrics: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    m = metrics[(metrics["benchmark"] == "forensics") & (metrics["probe"] == "MCQ")]
    m = m[(m["subset"] == "all") & (m["metric"] == "acc")]
    conds = set(m["condition"])
    return m, [k for k in TABLE3_KINDS if any(f"{k}_{n}" in conds for n in LEVELS)]


def _kind_mean(m: pd.DataFrame, model: str, kind: str) -> float | None:
    vals = [_value(m[m["condition"] == f"{kind}_{n}"], model, "all", "acc") for n in LEVELS]
    return None if any(v is None for v in vals) else sum(v for v in vals if v is not None) / 5


def table3(metrics: pd.DataFrame) -> Table | Skipped:
    """Table 3 as printed: overall accuracy under each perturbation kind, the mean over its five
    levels, after the clean (``full``) accuracy; a kind with a missing level has a dash."""
    m, kinds = _robustness(metrics)
    if not kinds:
        return Skipped(3, "no robustness conditions in this run (--protocol robustness)")
    cols = [Column("Clean"), *(Column(KIND_LABELS[k]) for k in kinds)]
    rows = [
        [text(x), num(_value(m[m["condition"] == "full"], x, "all", "acc"))]
        + [num(_kind_mean(m, x, k)) for k in kinds]
        for x in _by_overall(m[m["condition"] == "full"]) or sorted(set(m["model"]))
    ]
    return Table(
        3,
        "Accuracy (%) on clean images and under each perturbation, the mean over its five "
        "intensity levels. Pixel is DeeperForensics' 'JPEG' (pixelation).",
        [Column("Model"), *cols],
        mark_best([(None, rows)]),
    )


def table3_levels(metrics: pd.DataFrame) -> Table | Skipped:
    """Accuracy at each level of each perturbation, level 0 being the clean ``full`` accuracy
    (forgebench's addition to Table 3, not a table of the paper)."""
    m, kinds = _robustness(metrics)
    if not kinds:
        return Skipped(3, "no robustness conditions in this run (--protocol robustness)")
    cols = [Column("Model")]
    for k in kinds:
        cols += [Column(f"L{n}", KIND_LABELS[k]) for n in (0, *LEVELS)]
    rows = []
    for x in _by_overall(m[m["condition"] == "full"]) or sorted(set(m["model"])):
        cells = [text(x)]
        clean = num(_value(m[m["condition"] == "full"], x, "all", "acc"))
        for k in kinds:
            cells += [
                clean,
                *(num(_value(m[m["condition"] == f"{k}_{n}"], x, "all", "acc")) for n in LEVELS),
            ]
        rows.append(cells)
    return Table(
        3,
        "forgebench's addition, not the paper's: accuracy (%) at each intensity level of each "
        "perturbation; L0 is the clean image (condition full).",
        cols,
        mark_best([(None, rows)]),
        slug="forensics_table_03_levels",
        heading="Table 3 by level (forgebench)",
    )


def _same_items_acc(m: pd.DataFrame, model: str, treated: str) -> tuple[float | None, float | None]:
    """Accuracy under ``treated`` and under ``full`` on the type codes ``treated`` was asked on
    (each code weighted by its items, so the baseline covers the same items)."""
    acc = m[(m["model"] == model) & (m["metric"] == "acc") & (m["subset"].str.count("-") == 4)]
    t = acc[acc["condition"] == treated].set_index("subset")
    b = acc[acc["condition"] == "full"].set_index("subset")
    codes = [c for c in t.index if c in b.index]
    if not codes:
        return None, None

    def mean(x: pd.DataFrame) -> float:
        return float((x.loc[codes, "value"] * x.loc[codes, "n"]).sum() / x.loc[codes, "n"].sum())

    return mean(b), mean(t)


def _study(
    number: int, treated: str, label: str, caption: str, metrics: pd.DataFrame
) -> Table | Skipped:
    m = metrics[(metrics["benchmark"] == "forensics") & (metrics["probe"] == "MCQ")]
    models = sorted(set(m.loc[m["condition"] == treated, "model"]))
    if not models:
        return Skipped(number, f"no {treated} answers (--protocol studies)")
    rows = []
    for x in models:
        base, treat = _same_items_acc(m, x, treated)
        rows.append([text(x), num(base), num(treat)])
    return Table(
        number, caption, [Column("Model"), Column("Baseline"), Column(label)], [(None, rows)]
    )


def table12(metrics: pd.DataFrame) -> Table | Skipped:
    """Table 12: accuracy without and with the forgery-technique prefix, on the same items."""
    caption = "Accuracy (%) without and with the prompt prefix, on the same items."
    return _study(12, "prefix", "+Prompt Engineering", caption, metrics)


def table14(metrics: pd.DataFrame) -> Table | Skipped:
    """Table 14: human-subject binary questions without and with face boxes, same items."""
    caption = "Accuracy (%) on human-subject binary questions without and with face boxes."
    return _study(14, "face_boxes", "+Prompt Engineering (Visual)", caption, metrics)


def all_tables(
    metrics: pd.DataFrame, groups: Mapping[str, str] | None = None
) -> list[Table | Skipped]:
    """Every Forensics table, in paper order, each followed by its companions (the extraction
    table after Table 2, the per-level table after Table 3)."""
    return [
        table2(metrics, groups),
        extraction_table(metrics),
        choice_table(metrics),
        table3(metrics),
        table3_levels(metrics),
        table4(metrics, groups),
        table11(metrics),
        table12(metrics),
        table13(metrics),
        table14(metrics),
        *per_type_tables(metrics),
    ]
