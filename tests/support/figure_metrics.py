"""Synthetic ``metrics.csv`` frames for the figure tests and ``benchmarks/figure_sizes.py``.

Built directly in the long format (DESIGN.md's columns), no row-level frame: a frame of 50 models
x 112 type codes is made in milliseconds. Model names vary in length like real ones (a short
``m1``, a 30-character ``Qwen3.5-122B-A10B-Thinking-2507``); values come from a seeded generator,
so a picture is the same on every run.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

_STEMS = (
    "GPT-5.2", "Gemini-3.8-Flash", "Claude-Opus-4.6", "Qwen3.5-9B", "InternVL3.5-30B-A3B",
    "Gemma-4-31B", "MiniMax-M3", "Kimi-K3", "LLaVA-NeXT-34B", "m1",
    "Qwen3.5-122B-A10B-Thinking-2507", "GLM-4.9V",
)  # fmt: skip


def model_names(n: int) -> list[str]:
    """``n`` distinct names, the first twelve the stems above, then ``stem-v<k>``."""
    return [_STEMS[i % len(_STEMS)] + (f"-v{i // len(_STEMS)}" if i >= len(_STEMS) else "")
            for i in range(n)]  # fmt: skip


def _row(bench: str, model: str, probe: str, cond: str, subset: str, metric: str, value: float):
    return (bench, model, probe, cond, subset, metric, float(value), 100, "")


def mandela_metrics(n_models: int, seed: int = 0) -> pd.DataFrame:
    """Every number the Mandela figures read (Figure 4 a-c, KGR by family under L0 and L1)."""
    rng = np.random.default_rng(seed)
    rows = []
    for m in model_names(n_models):
        for probe in ("L0", "L1"):
            rows.append(_row("mandela", m, probe, "full", "all", "kgr", rng.uniform(0, 40)))
            rows.append(_row("mandela", m, probe, "full", "all", "det", rng.uniform(0, 80)))
            for k in ("K0", "K1", "K2", "K3", "K4", "K5", "K6"):
                rows.append(_row("mandela", m, probe, "full", k, "kgr", rng.uniform(0, 60)))
        rows.append(_row("mandela", m, "RECOG", "full", "peripheral_K1", "recog",
                         rng.uniform(0, 100)))  # fmt: skip
        rows.append(_row("mandela", m, "L1", "crop_caption", "peripheral_K1", "pen",
                         rng.normal(5, 6)))  # fmt: skip
        rows.append(_row("mandela", m, "L0", "full", "erase", "named", rng.uniform(0, 100)))
        rows.append(_row("mandela", m, "L0", "full", "erase", "det", rng.uniform(0, 60)))
        rows.append(_row("mandela", m, "L0", "full", "swap", "det", rng.uniform(0, 90)))
    return pd.DataFrame(
        rows, columns=["benchmark", "model", "probe", "condition", "subset", "metric", "value",
                       "n", "judge"],
    )  # fmt: skip


def forensics_metrics(
    n_models: int, n_codes: int = 112, *, robustness: bool = True, seed: int = 0
) -> pd.DataFrame:
    """Every number the Forensics figures read: overall and perspective scores, accuracy per
    perspective value and per type code (the first ``n_codes`` of the paper's order), and the
    six perturbation kinds at levels 1-5."""
    from forgebench.suites.forensics.ids import LEVELS, TABLE3_KINDS
    from forgebench.suites.forensics.paper_codes import PAPER_CODES
    from forgebench.suites.forensics.taxonomy import PERSPECTIVES

    rng = np.random.default_rng(seed)
    codes = list(PAPER_CODES[:n_codes])
    values = {p: sorted({c.split("-")[i] for c in PAPER_CODES}) for i, p in enumerate(PERSPECTIVES)}
    rows = []
    for m in model_names(n_models):
        skill = rng.uniform(25, 85)
        rows.append(_row("forensics", m, "MCQ", "full", "all", "acc", skill))
        for p in PERSPECTIVES:
            rows.append(_row("forensics", m, "MCQ", "full", p, "persp", rng.uniform(20, 90)))
            for v in values[p]:
                rows.append(_row("forensics", m, "MCQ", "full", f"{p}={v}", "acc",
                                 rng.uniform(0, 100)))  # fmt: skip
        for c in codes:
            rows.append(_row("forensics", m, "MCQ", "full", c, "acc", rng.uniform(0, 100)))
        if robustness:
            for k in TABLE3_KINDS:
                for n in LEVELS:
                    rows.append(_row("forensics", m, "MCQ", f"{k}_{n}", "all", "acc",
                                     max(0.0, skill - 4 * n + rng.normal(0, 3))))  # fmt: skip
    return pd.DataFrame(
        rows, columns=["benchmark", "model", "probe", "condition", "subset", "metric", "value",
                       "n", "judge"],
    )  # fmt: skip
