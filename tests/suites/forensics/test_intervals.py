"""Bootstrap intervals of the Forensics headline numbers (the report's front page)."""

from __future__ import annotations

from dataclasses import asdict

import numpy as np
import pandas as pd
import pytest

from forgebench.analysis.bootstrap import BootstrapConfig, resampled_sums
from forgebench.suites.forensics.intervals import intervals
from forgebench.suites.forensics.scores import metric_rows

CODES = ["HS-RGB-BC-ES-DF", "HS-NIR-BC-ES-GAN", "GS-RGB-SLS-CM-GR", "GS-VID-BC-ES-AR"]


def _frame(n: int = 600) -> pd.DataFrame:
    rng = np.random.default_rng(1)
    parts = []
    for model, p in (("strong", 0.8), ("weak", 0.35)):
        codes = rng.choice(CODES, n)
        bonus = np.where(codes == CODES[0], 0.15, 0.0)
        parts.append(
            pd.DataFrame(
                {
                    "model": model, "item_id": [f"i{k}" for k in range(n)], "type_code": codes,
                    "correct": rng.random(n) < p + bonus,
                }
            )
        )  # fmt: skip
    return pd.concat(parts, ignore_index=True)


def test_point_values_are_the_metrics_and_intervals_hold_them() -> None:
    frame = _frame()
    got = intervals(frame, BootstrapConfig(reps=400, seed=3, cluster="item_id"))
    scored = frame.assign(probe="MCQ", condition="full", step="letter", judge="")
    want = pd.DataFrame([asdict(r) for r in metric_rows(scored)])
    for _, r in got.iterrows():
        w = want[(want["model"] == r["model"]) & (want["subset"] == r["subset"])]
        w = w[w["metric"] == r["metric"]]
        assert r["value"] == pytest.approx(float(w["value"].iloc[0]))
        assert r["lo"] < r["value"] < r["hi"]
    assert set(got["subset"]) == {"all", "semantic", "modality", "task", "type", "model"}


def test_accuracy_interval_agrees_with_scipy() -> None:
    from scipy.stats import bootstrap  # here, not in every worker's collection (0.8 s)

    frame = _frame(800)
    got = intervals(frame, BootstrapConfig(reps=2000, seed=0, cluster="item_id"))
    for model in ("strong", "weak"):
        x = frame.loc[frame["model"] == model, "correct"].to_numpy(dtype=float) * 100
        ref = bootstrap((x,), np.mean, n_resamples=4000, method="percentile", random_state=0)
        row = got[(got["model"] == model) & (got["metric"] == "acc")].iloc[0]
        # a different generator: the limits agree within Monte Carlo error
        assert row["lo"] == pytest.approx(ref.confidence_interval.low, abs=0.8)
        assert row["hi"] == pytest.approx(ref.confidence_interval.high, abs=0.8)


def test_resampled_sums_point_is_the_plain_sum_and_seeded() -> None:
    rng = np.random.default_rng(0)
    clusters = rng.integers(0, 50, 300)
    cells = rng.integers(0, 4, 300)
    values = rng.random((300, 2))
    cfg = BootstrapConfig(reps=50, seed=7)
    point, boot = resampled_sums(clusters, cells, values, cfg, chunk=16)
    for c in range(4):
        assert point[c] == pytest.approx(values[cells == c].sum(axis=0))
    assert boot.shape == (50, 4, 2)
    again = resampled_sums(clusters, cells, values, cfg, chunk=50)[1]
    assert np.allclose(boot, again)  # chunking does not change the draws
    assert boot.sum(axis=1).mean(axis=0) == pytest.approx(values.sum(axis=0), rel=0.05)


def test_the_outcomes_metrics_wrote_are_the_stores(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The report's bootstrap reads the outcomes the metrics stage wrote; read from the store
    instead (a run scored before they were written), they are the same tasks and numbers."""
    from forgebench import api
    from forgebench.run.generate import GenerationSettings
    from forgebench.suites.forensics import intervals as module
    from forgebench.suites.forensics.run_score import OUTCOMES
    from support.forensics_data import write_forensics_release

    dataset, _ = write_forensics_release(tmp_path / "fb")
    run = tmp_path / "run"
    settings = GenerationSettings(cache_dir=tmp_path / "cache")
    api.run(dataset, run, ["a=builtin/artefact", "b=builtin/artefact"], settings)
    api.metrics(run)
    written = module._outcomes(run)
    (run / OUTCOMES).unlink()
    stored = module._outcomes(run)
    key = ["model", "item_id"]
    pd.testing.assert_frame_equal(
        written.sort_values(key).reset_index(drop=True),
        stored.sort_values(key).reset_index(drop=True),
        check_dtype=False,
    )
    assert len(written) == 2 * written["item_id"].nunique() and written["correct"].any()
