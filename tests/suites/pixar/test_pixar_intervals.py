"""Bootstrap intervals of PIXAR's headline numbers (gIoU and F1 over pairs) on the front page:
the point values are the metrics of the scored masks, the limits agree with scipy's bootstrap,
and a real run's report shows them (with one line on why AUC has none)."""

from __future__ import annotations

import csv
import html
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from forgebench import api
from forgebench.analysis.bootstrap import BootstrapConfig
from forgebench.run.generate import GenerationSettings
from forgebench.suites.pixar.intervals import AUC_NOTE, intervals
from forgebench.suites.pixar.scoring import score_arrays
from support.pixar_loc import box_pairs, exact_or_prose, metrics_of, serve_loc


def _masks(seed: int, n: int, skill: float) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """``n`` pairs of 24 x 32 truth masks (a random box, some empty) and predictions that hit
    the box with probability ``skill`` (else a box elsewhere, or nothing)."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(n):
        truth = np.zeros((24, 32), dtype=bool)
        if k % 7:
            y, x = rng.integers(0, 16), rng.integers(0, 24)
            truth[y : y + rng.integers(2, 8), x : x + rng.integers(2, 8)] = True
        pred = np.zeros_like(truth)
        roll = rng.random()
        if roll < skill:
            pred[np.roll(truth, int(rng.integers(-2, 3)), axis=1)] = True
        elif roll < skill + 0.2:
            y, x = rng.integers(0, 16), rng.integers(0, 24)
            pred[y : y + 5, x : x + 5] = True
        out.append((f"p{k:03d}", truth, pred))
    return out


def _counts(pairs: list[tuple[str, np.ndarray, np.ndarray]]) -> pd.DataFrame:
    return pd.DataFrame(
        [(s, int(t.sum()), int(p.sum()), int((t & p).sum())) for s, t, p in pairs],
        columns=["stem", "truth", "pred", "inter"],
    )


def test_point_values_are_the_scored_metrics_and_inside_their_intervals() -> None:
    data = {"good": _masks(1, 150, 0.8), "poor": _masks(2, 150, 0.3)}
    got = intervals({m: _counts(p) for m, p in data.items()}, BootstrapConfig(reps=400, seed=3))
    assert set(got["metric"]) == {"giou", "f1"} and set(got["subset"]) == {"all"}
    for model, pairs in data.items():
        scored = score_arrays(pairs)  # the metrics' own accumulator, on the masks themselves
        for metric in ("giou", "f1"):
            row = got[(got["model"] == model) & (got["metric"] == metric)].iloc[0]
            assert row["value"] == pytest.approx(scored[metric], abs=1e-9)
            assert row["lo"] < row["value"] < row["hi"] and row["n"] == 150
    good = got[got["model"] == "good"].set_index("metric")
    poor = got[got["model"] == "poor"].set_index("metric")
    assert poor.loc["giou", "hi"] < good.loc["giou", "lo"]


def test_intervals_agree_with_scipy_bootstrap() -> None:
    from scipy.stats import bootstrap  # here, not in every worker's collection (0.8 s)

    pairs = _masks(5, 300, 0.6)
    counts = _counts(pairs)
    got = intervals({"m": counts}, BootstrapConfig(reps=3000, seed=0)).set_index("metric")
    ious = np.array([score_arrays([p])["giou"] for p in pairs])
    ref = bootstrap((ious,), np.mean, n_resamples=4000, method="percentile", random_state=0)
    assert got.loc["giou", "lo"] == pytest.approx(ref.confidence_interval.low, abs=1.0)
    assert got.loc["giou", "hi"] == pytest.approx(ref.confidence_interval.high, abs=1.0)

    def f1(inter: np.ndarray, pred: np.ndarray, truth: np.ndarray, axis: int = -1) -> Any:
        tp, fp, fn = inter.sum(axis), (pred - inter).sum(axis), (truth - inter).sum(axis)
        prec, rec = tp / (tp + fp), tp / (tp + fn)
        return 100 * 2 * prec * rec / (prec + rec)

    cols = [counts[c].to_numpy(dtype=float) for c in ("inter", "pred", "truth")]
    ref = bootstrap(cols, f1, paired=True, n_resamples=4000, method="percentile", random_state=0)
    assert got.loc["f1", "lo"] == pytest.approx(ref.confidence_interval.low, abs=1.0)
    assert got.loc["f1", "hi"] == pytest.approx(ref.confidence_interval.high, abs=1.0)


def test_no_pairs_no_rows() -> None:
    assert intervals({}).empty
    empty = pd.DataFrame(columns=["stem", "truth", "pred", "inter"])
    assert intervals({"m": empty}).empty


def test_the_front_page_shows_pixar_intervals(fake_openai: Any, tmp_path: Path) -> None:
    pairs, run = tmp_path / "pairs", tmp_path / "run"
    server = serve_loc(fake_openai, box_pairs(pairs), exact_or_prose)
    models = [f"exact=openai/exact@{server.url}", f"mixed=openai/mixed@{server.url}"]
    api.run(pairs, run, models, GenerationSettings(cache_dir=tmp_path / "cache"))
    api.metrics(run)
    # the counts scoring wrote: every pair of every model, the miss predicting nothing
    with (run / "pixar" / "counts" / "mixed.csv").open(newline="") as fh:
        rows = {r["stem"]: r for r in csv.DictReader(fh)}
    assert set(rows) == {"a", "b", "c"} and rows["b"]["pred"] == rows["b"]["inter"] == "0"
    assert rows["a"]["truth"] == rows["a"]["pred"] == rows["a"]["inter"] == str(30 * 25)
    api.report(run)
    with (run / "report" / "overview.csv").open(newline="") as fh:
        front = [r for r in csv.DictReader(fh) if r["benchmark"] == "pixar"]
    shown = {(r["model"], r["metric"]): r for r in front}
    metrics = metrics_of(run)
    for model in ("exact", "mixed"):
        for metric in ("giou", "f1"):
            r = shown[(model, metric)]
            assert float(r["value"]) == pytest.approx(metrics[("pixar", model, "all", metric)][0])
            assert float(r["lo"]) <= float(r["value"]) <= float(r["hi"])
    # the mixed model missed one pair of three: its gIoU interval spans the replicates' spread
    assert float(shown[("mixed", "giou")]["lo"]) < float(shown[("mixed", "giou")]["hi"])
    assert float(shown[("exact", "giou")]["lo"]) == float(shown[("exact", "giou")]["hi"]) == 100
    page = (run / "report" / "index.html").read_text(encoding="utf-8")
    assert html.escape(AUC_NOTE) in page
