"""Forensics tables in the paper's layouts: Table 2 (overall and perspectives), Tables 15-26
(accuracy per type code, ten codes a table in the paper's column order), Table 3 (robustness:
mean over the five levels of each perturbation, and each level), Table 4 (attribution),
Table 13 (attribution with class descriptions), Tables 12 and 14 (the prefix and face-box
studies against ``full`` on the same type codes), and Table 11 (single- vs multi-image input on
the same items, :mod:`.multi`).

All read ``metrics.csv`` rows of benchmark ``forensics`` (:mod:`.scores`); a table whose rows are
absent is a :class:`~forgebench.report.table.Skipped` naming what is missing. Models are sorted by
overall accuracy, best first (the paper also splits proprietary from open models; a run does not
know which is which).
"""

from __future__ import annotations

import pandas as pd

from forgebench.report.table import Cell, Column, Skipped, Table, dash, num, text
from forgebench.suites.forensics.multi import table11
from forgebench.suites.forensics.perturb import LEVELS, TABLE3_KINDS
from forgebench.suites.forensics.taxonomy import PERSPECTIVES

PAPER_CODE_TABLES: tuple[tuple[str, ...], ...] = (
    (
        "HS-RGB-BC-ES-DF",
        "HS-NIR-BC-ES-GAN",
        "HS-RGB-BC-ES-GAN",
        "HS-RGB-SLS-ES-GAN",
        "HS-RGB-BC-ES-PRO",
        "HS-RGB-BC-SPF-3D",
        "HS-RGB-BC-SPF-PC",
        "HS-RGB-BC-SPF-PR",
        "HS-RGB-BC-SPF-RP",
        "HS-RGB-BC-FE-DF",
    ),
    (
        "HS-RGB-BC-FE-ED",
        "HS-RGB-SLS-FE-ED",
        "HS-RGB&TXT-BC-FE-ED",
        "HS-RGB&TXT-SLD-FE-ED",
        "HS-RGB&TXT-BC-FE-GAN",
        "HS-RGB&TXT-SLD-FE-GAN",
        "HS-RGB-BC-FE-PRO",
        "HS-RGB-SLS-FE-PRO",
        "HS-RGB-BC-FE&FT-ED&GR",
        "HS-RGB-SLS-FE&FT-ED&GR",
    ),
    (
        "HS-RGB&TXT-BC-FE&TAM-ED&TR",
        "HS-RGB&TXT-SLD-FE&TAM-ED&TR",
        "HS-RGB&TXT-BC-FE&TAM-GAN&TR",
        "HS-RGB&TXT-SLD-FE&TAM-GAN&TR",
        "HS-RGB&TXT-BC-FE&TS-ED&RT",
        "HS-RGB&TXT-SLD-FE&TS-ED&RT",
        "HS-RGB&TXT-BC-FE&TS-GAN&RT",
        "HS-RGB&TXT-SLD-FE&TS-GAN&RT",
    ),
    (
        "HS-VID-BC-FR-RNN",
        "HS-VID-TL-FR-RNN",
        "HS-RGB-BC-FR-RNN",
        "HS-RGB-SLS-FR-RNN",
        "HS-VID-BC-FR-ED",
        "HS-RGB-BC-FR-ED",
        "HS-RGB-SLS-FR-ED",
        "HS-VID-BC-FR-GR",
        "HS-VID-SLS-FR-GR",
        "HS-RGB-BC-FR-GR",
    ),
    (
        "HS-RGB-SLS-FR-GR",
        "HS-VID-BC-FSM-ED&RNN&GR",
        "HS-VID-SLS-FSM-ED&RNN&GR",
        "HS-RGB-BC-FSM-ED&RNN&GR",
        "HS-RGB-SLS-FSM-ED&RNN&GR",
        "HS-RGB-SLD-FSM-GAN",
        "HS-RGB-SLS-FSM-GAN",
        "HS-VID-BC-FSS-RNN",
        "HS-VID-TL-FSS-RNN",
        "HS-RGB-BC-FSS-RNN",
    ),
    (
        "HS-RGB-SLS-FSS-RNN",
        "HS-RGB-BC-FSS-DF",
        "HS-VID-BC-FSS-ED",
        "HS-VID-SLS-FSS-ED",
        "HS-VID-TL-FSS-ED",
        "HS-RGB-BC-FSS-ED",
        "HS-RGB-SLS-FSS-ED",
        "HS-RGB&TXT-BC-FSS-ED",
        "HS-RGB&TXT-SLD-FSS-ED",
        "HS-VID-BC-FSS-GR",
    ),
    (
        "HS-VID-SLS-FSS-GR",
        "HS-RGB-BC-FSS-GR",
        "HS-RGB-SLS-FSS-GR",
        "HS-VID-BC-FSS-WILD",
        "HS-RGB-BC-FSS-WILD",
        "HS-VID-BC-FSS-VAE",
        "HS-RGB-BC-FSS-VAE",
        "HS-VID-BC-FSS&FE-ED",
        "HS-VID-SLS-FSS&FE-ED",
        "HS-VID-TL-FSS&FE-ED",
    ),
    (
        "HS-RGB-BC-FSS&FE-ED",
        "HS-RGB-SLS-FSS&FE-ED",
        "HS-RGB&TXT-BC-FSS&TAM-ED&TR",
        "HS-RGB&TXT-SLD-FSS&TAM-ED&TR",
        "HS-RGB&TXT-BC-FSS&TS-ED&RT",
        "HS-RGB&TXT-SLD-FSS&TS-ED&RT",
        "HS-VID-BC-FT-GR",
        "HS-VID-SLS-FT-GR",
        "HS-VID-TL-FT-GR",
        "HS-RGB-BC-FT-GR",
    ),
    (
        "HS-RGB-SLS-FT-GR",
        "HS-NIR-BC-ST-ED",
        "HS-RGB&TXT-BC-TAM-TR",
        "HS-RGB&TXT-SLD-TAM-TR",
        "HS-RGB&TXT-BC-TS-RT",
        "HS-RGB&TXT-SLD-TS-RT",
        "GS-RGB-BC-ES-AR",
        "GS-RGB-BC-ES-DF",
        "GS-RGB-BC-ES-GAN",
        "GS-RGB-BC-ES-PRO",
    ),
    (
        "GS-RGB-BC-ES-VAE",
        "GS-RGB-BC-CM-GR",
        "GS-RGB-SLS-CM-GR",
        "GS-RGB-BC-RM-ED",
        "GS-RGB-SLS-RM-ED",
        "GS-RGB-BC-SPL-GR",
        "GS-RGB-SLS-SPL-GR",
        "GS-RGB-BC-IE-ED",
        "GS-RGB-BC-ST-DC",
        "GS-RGB-BC-ST-ED",
    ),
    (
        "HS-RGB&TXT-BC-OOC-RT",
        "HS-VID-BC-REAL-REAL",
        "HS-VID-SLS-REAL-REAL",
        "HS-VID-TL-REAL-REAL",
        "HS-RGB-BC-REAL-REAL",
        "HS-RGB-SLD-REAL-REAL",
        "HS-RGB-SLS-REAL-REAL",
    ),
    (
        "HS-RGB&TXT-BC-REAL-REAL",
        "HS-RGB&TXT-SLD-REAL-REAL",
        "GS-VID-BC-ES-AR",
        "GS-VID-BC-ES-DF",
        "GS-RGB-BC-REAL-REAL",
        "GS-RGB-SLD-REAL-REAL",
        "GS-RGB-SLS-REAL-REAL",
    ),
)
"""The type codes of Tables 15-26, in the paper's order (12 tables, 112 codes)."""
PERSP_LABELS = ("Semantic", "Modality", "Task", "Type", "Model")
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


def _by_overall(m: pd.DataFrame) -> list[str]:
    acc = m[(m["subset"] == "all") & (m["metric"] == "acc")]
    return [str(x) for x in acc.sort_values(["value", "model"], ascending=[False, True])["model"]]


def _overall_and_persp(number: int, caption: str, m: pd.DataFrame) -> Table:
    columns = [Column("Model"), Column("Overall"), *(Column(label) for label in PERSP_LABELS)]
    rows = []
    for model in _by_overall(m):
        cells = [text(model), num(_value(m, model, "all", "acc"))]
        cells += [num(_value(m, model, p, "persp")) for p in PERSPECTIVES]
        rows.append(cells)
    return Table(number, caption, columns, [(None, rows)])


def table2(metrics: pd.DataFrame) -> Table | Skipped:
    """Table 2: overall accuracy and the five perspective scores (probe MCQ, condition full)."""
    m = _rows(metrics, "MCQ", "full")
    if m.empty:
        return Skipped(2, "no Forensics MCQ answers under condition full")
    return _overall_and_persp(
        2,
        "Accuracy (%) over all items and per perspective (mean over each perspective's values of "
        "the mean type-code accuracy).",
        m,
    )


def table4(metrics: pd.DataFrame) -> Table | Skipped:
    """Table 4: attribution (probe ATTR), overall and per perspective."""
    m = _rows(metrics, "ATTR", "full")
    if m.empty:
        return Skipped(4, "no attribution (ATTR) answers: run with --probes ATTR")
    return _overall_and_persp(
        4, "Forgery attribution accuracy (%) over binary-classification forgeries.", m
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
    """Tables 15-26 in the paper's column order; codes the paper lacks go to extra tables after
    Table 26 (numbered on), ten codes each."""
    m = _rows(metrics, "MCQ", "full")
    if m.empty:
        return [Skipped(15, "no Forensics MCQ answers under condition full")]
    present = set(m.loc[m["metric"] == "acc", "subset"])
    paper = {c for t in PAPER_CODE_TABLES for c in t}
    extra = sorted(c for c in present if c.count("-") == 4 and "=" not in c and c not in paper)
    groups = [list(t) for t in PAPER_CODE_TABLES]
    groups += [extra[i : i + 10] for i in range(0, len(extra), 10)]
    models = _by_overall(m)
    out: list[Table | Skipped] = []
    for k, codes in enumerate(groups):
        number = 15 + k
        if not present & set(codes):
            out.append(Skipped(number, "none of its type codes is in this run"))
            continue
        rows = [[text(x), *(_pct(_value(m, x, c, "acc")) for c in codes)] for x in models]
        cols = [Column("Model"), *(Column(c) for c in codes)]
        out.append(
            Table(
                number, f"Accuracy per forgery detection type (part {k + 1}).", cols, [(None, rows)]
            )
        )
    return out


def table3(metrics: pd.DataFrame) -> Table | Skipped:
    """Table 3: overall accuracy under each perturbation, the mean over levels 1-5 and each
    level; a kind with a missing level has a dash for its mean."""
    m = metrics[(metrics["benchmark"] == "forensics") & (metrics["probe"] == "MCQ")]
    m = m[(m["subset"] == "all") & (m["metric"] == "acc")]
    conds = set(m["condition"])
    kinds = [k for k in TABLE3_KINDS if any(f"{k}_{n}" in conds for n in LEVELS)]
    if not kinds:
        return Skipped(3, "no robustness conditions in this run (--conditions saturation_1,...)")
    cols = [Column("Model")]
    for k in kinds:
        cols += [Column("Mean", KIND_LABELS[k]), *(Column(f"L{n}", KIND_LABELS[k]) for n in LEVELS)]
    rows = []
    for model in sorted(set(m["model"])):
        cells = [text(model)]
        for k in kinds:
            vals = [_value(m[m["condition"] == f"{k}_{n}"], model, "all", "acc") for n in LEVELS]
            mean = (
                None if any(v is None for v in vals) else sum(v for v in vals if v is not None) / 5
            )
            cells += [num(mean), *(num(v) for v in vals)]
        rows.append(cells)
    return Table(
        3,
        "Accuracy (%) under each perturbation: the mean over its five levels (the paper's "
        "column) and each level. Pixel is DeeperForensics' 'JPEG' (pixelation).",
        cols,
        [(None, rows)],
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


def all_tables(metrics: pd.DataFrame) -> list[Table | Skipped]:
    """Every Forensics table, in paper order."""
    return [
        table2(metrics),
        table3(metrics),
        table4(metrics),
        table11(metrics),
        table12(metrics),
        table13(metrics),
        table14(metrics),
        *per_type_tables(metrics),
    ]
