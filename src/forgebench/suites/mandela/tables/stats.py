"""Tables of seed 000 built on fitted statistics: 4 (judge calibration), 10 (recognition and
detection, Appendix I) and 20 (footprint covariates, Appendix L); and :class:`Statistics`, the
fits and bootstrap intervals computed once per report.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from forgebench.analysis.bootstrap import BootstrapConfig, cluster_bootstrap
from forgebench.analysis.logit import LogitFit
from forgebench.analysis.stats import format_p
from forgebench.report.table import Cell, Column, Skipped, Table, dash, num, signed, text
from forgebench.suites.mandela.regression import (
    FootprintResult,
    RecognitionResult,
    footprint_regressions,
    has_footprint,
    recognition_regressions,
)
from forgebench.suites.mandela.tables.inputs import TableData
from forgebench.suites.mandela.tables.main import _model, _sectioned

LEVELS = ("E0", "E1", "E2", "E3", "E4")


@dataclass
class Statistics:
    """Every regression and bootstrap of a report, computed once from the frame."""

    recognition: list[RecognitionResult] = field(default_factory=list)
    """Table 10's fits (per model and family group, then ``pooled``)."""
    recognition_share: dict[str, float] = field(default_factory=dict)
    """Each model's share (%) of forgeries recognized under Full."""
    footprint: list[FootprintResult] | None = None
    """Table 20's fits, ``None`` without footprint data."""
    bootstrap: pd.DataFrame | None = None
    """Cluster-bootstrap CIs of det/auth/bal/kgr (``analysis.bootstrap``)."""
    reason: str = ""
    """Why statistics are missing, when they are."""


def compute_statistics(
    frame: pd.DataFrame | None, reps: int = 2000, reason: str = ""
) -> Statistics:
    """All regressions (Tables 10 and 20) and the cluster bootstrap of the headline rates."""
    if frame is None or frame.empty:
        return Statistics(reason=reason or "no row-level data")
    rec, share = recognition_regressions(frame)
    foot = footprint_regressions(frame) if has_footprint(frame) else None
    boot = cluster_bootstrap(frame, BootstrapConfig(reps=reps))
    return Statistics(rec, share, foot, boot)


def table_calibration(data: TableData) -> Table | Skipped:
    """Table 4: human label (rows) against the judge's level (columns)."""
    mat = data.calibration
    if mat is None:
        return Skipped(4, "no judge-calibration data (a human-vs-judge E0-E4 matrix)")
    mat = np.asarray(mat, dtype=int)
    if mat.shape != (5, 5):
        return Skipped(4, f"calibration matrix must be 5 x 5 (E0-E4), got {mat.shape}")
    cols = (
        [Column("Human")]
        + [Column(lv) for lv in LEVELS]
        + [Column("n"), Column("exact"), Column("±1")]
    )
    rows = []
    for i, lv in enumerate(LEVELS):
        n = int(mat[i].sum())
        exact = 100.0 * mat[i, i] / n if n else None
        within = 100.0 * mat[i, max(0, i - 1) : i + 2].sum() / n if n else None
        rows.append(
            [
                text(lv),
                *(Cell(int(v), str(int(v))) for v in mat[i]),
                Cell(n, str(n)),
                num(exact),
                num(within),
            ]
        )
    total = int(mat.sum())
    agree = 100.0 * np.trace(mat) / total if total else float("nan")
    caption = f"Human label (rows) against the judge's level (columns) on the {total} calibration answers; the right-hand columns give exact and within-one agreement by human level."
    return Table(4, caption, cols, [(None, rows)], [f"Exact agreement overall: {agree:.1f}%."])


def _or_cells(fit: LogitFit) -> list[Cell]:
    c = fit.get("recognized")
    if c is None:
        return [Cell(fit.status, "—"), Cell(fit.status, "—")]
    return [Cell(c.odds_ratio, f"{c.odds_ratio:.2f}"), Cell(c.p, format_p(c.p))]


def _rate_n(value: float, n: int) -> Cell:
    return Cell(
        None if math.isnan(value) else value,
        f"{'—' if math.isnan(value) else f'{value:.1f}'} ({n})",
    )


def _pooled_note(res: RecognitionResult, label: str) -> str:
    c = res.fit.get("recognized")
    if c is None:
        return f"Pooled {label}: {res.fit.status} ({'; '.join(res.fit.notes[-1:])})."
    lo, hi = c.ci
    return f"Pooled {label}: OR {c.odds_ratio:.2f} (95% CI {lo:.2f}-{hi:.2f}), p {format_p(c.p)}, {res.fit.n} model-item observations, {res.fit.clusters} scenes."


def table_recognition_regression(data: TableData, stats: Statistics) -> Table | Skipped:
    """Table 10: detection (L1) on recognized vs unrecognized scenes, and the logit OR."""
    if not stats.recognition:
        return Skipped(
            10,
            f"needs RECOG and L1 answers in the row-level frame ({stats.reason or data.frame_reason})",
        )
    by = {(r.model, r.families): r for r in stats.recognition}
    models = [m for m in data.order if (m, "people") in by]
    if not models:
        return Skipped(10, "no model has both RECOG and L1 answers under full")
    cols = [Column("Model"), Column("Full (%)", "RECOG")]
    cols += [Column(c, "People family (K1)") for c in ("recognized", "not", "Δ", "OR", "p")]
    cols += [Column(c, "Class-level families (K2-K6)") for c in ("recognized", "not", "OR", "p")]

    def row(m: str) -> list[Cell]:
        share = stats.recognition_share.get(m, float("nan"))
        cells = [_model(data, m, "¶" if share < 50 else ""), num(share)]
        p = by[(m, "people")]
        diff = p.recognized_rate - p.unrecognized_rate
        cells += [
            _rate_n(p.recognized_rate, p.recognized_n),
            _rate_n(p.unrecognized_rate, p.unrecognized_n),
            signed(None if math.isnan(diff) else diff),
            *_or_cells(p.fit),
        ]
        c = by.get((m, "class"))
        if c is None:
            return [*cells, dash(), dash(), dash(), dash()]
        return [
            *cells,
            _rate_n(c.recognized_rate, c.recognized_n),
            _rate_n(c.unrecognized_rate, c.unrecognized_n),
            *_or_cells(c.fit),
        ]

    caption = "Prompted-verification (L1) detection as a function of self-reported scene recognition (RECOG under Full), per model, strict scoring. For the people family (K1) and the class-level families (K2-K6): detection on recognized and unrecognized scenes (n in brackets), their difference, and the recognition odds ratio from a logistic regression controlling for saliency (with its interaction), family and domain, with scene-clustered errors. Anchor-free controls count under the family of their edit specification. ¶ recognizes fewer than half of the images and is excluded from the pooled model; — separated or empty cells."
    notes = [
        _pooled_note(by[("pooled", "people")], "people family"),
        _pooled_note(by[("pooled", "class")], "class-level families"),
    ]
    notes.append(
        "The recognition OR is the effect at the most common saliency level of each fit (treatment coding of the interaction); observations in fixed-effect levels whose outcome is constant are dropped."
    )
    return Table(10, caption, cols, _sectioned(data, models, row), notes)


def table_footprint(data: TableData, stats: Statistics) -> Table | Skipped:
    """Table 20: swap-versus-erase contrasts with footprint and detector covariates."""
    if stats.footprint is None:
        return Skipped(
            20, "no footprint data (item column 'footprint') for the absent-celebrity items"
        )
    met = data.metrics
    by = {r.model: r for r in stats.footprint}
    models = []
    for m in data.order:
        named = met.get(m, "L0", "full", "erase", "named")
        swap = met.get(m, "L0", "full", "swap", "det")
        if m in by and named is not None and swap is not None and named >= 25 and swap >= 25:
            models.append(m)
    if not models:
        return Skipped(
            20,
            "no model names the erased person in at least 25% of L0 answers and detects at least 25% of swaps",
        )
    cols = [
        Column("Model"),
        Column("n"),
        Column("log-odds", "Contrast, recorded"),
        Column("p", "Contrast, recorded"),
    ]
    cols += [Column("log-odds", "Contrast, measured"), Column("p", "Contrast, measured")]
    cols += [Column(c, "Swap coef. vs. K0") for c in ("base", "full", "shrink")]

    def row(m: str) -> list[Cell]:
        r = by[m]
        cells = [_model(data, m), Cell(r.n, str(r.n))]
        for measured in (False, True):
            c = r.contrast(measured)
            fit = r.full_measured if measured else r.full_recorded
            status = fit.status if fit else "no data"
            cells += (
                [num(c[0], 3), Cell(c[1], format_p(c[1]))] if c else [dash(status), dash(status)]
            )
        s = r.swap_coefs()
        if s is None:
            why = r.base.status if r.reference == "k0" else "K0 never detected: not identified"
            return [*cells, dash(why), dash(why), dash(why)]
        return [*cells, num(s[0], 3), num(s[1], 3), Cell(s[2], f"{s[2]:.1f}%")]

    caption = "Per-model logistic regressions of L0 detection on the absent-celebrity erase, swap and K0 items, with edit condition (K0 reference), domain fixed effects, log footprint and both pixel-detector scores; standard errors clustered by seed. Swap-versus-erase log-odds contrast under the recorded and measured footprint, and the swap coefficient relative to K0 before (base) and after (full) adding the covariates; shrink = (base - full) / base. Models naming the erased person in at least 25% of answers and detecting at least 25% of swaps. Rows follow Table 2."
    notes = sorted({n for r in stats.footprint for n in r.notes})
    notes += [
        f"{r.model}: K0 never detected; erase is the reference, the contrast is still identified "
        "and the swap coefficient vs. K0 is not."
        for r in stats.footprint
        if r.model in models and r.reference != "k0"
    ]
    return Table(20, caption, cols, _sectioned(data, models, row), notes)
