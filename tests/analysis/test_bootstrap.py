"""Cluster bootstrap of the headline rates (resampling seeds)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from forgebench.analysis.bootstrap import BootstrapConfig, cluster_bootstrap


@pytest.fixture(scope="module")
def frame(synth):  # type: ignore[no-untyped-def]
    return synth.build_frame(
        [synth.ModelParams("a"), synth.ModelParams("b", fake_bias=1.0)], n_seeds=150, seed=5
    )


def test_point_estimates_and_intervals(frame: pd.DataFrame) -> None:
    ci = cluster_bootstrap(frame, BootstrapConfig(reps=400, seed=1))
    row = ci[(ci["model"] == "a") & (ci["probe"] == "L1") & (ci["condition"] == "full")].set_index(
        "metric"
    )
    sub = frame[(frame["model"] == "a") & (frame["probe"] == "L1") & (frame["condition"] == "full")]
    forged = sub[sub["label"] == "forged"]
    det = 100 * forged["correct"].fillna(False).mean()
    assert row.loc["det", "value"] == pytest.approx(det)
    assert row.loc["det", "n"] == len(forged)
    assert row.loc["kgr", "value"] == pytest.approx(100 * (forged["level"].fillna(0) >= 3).mean())
    for metric in ("det", "auth", "bal", "kgr"):
        assert row.loc[metric, "lo"] <= row.loc[metric, "value"] <= row.loc[metric, "hi"]
    assert row.loc["bal", "value"] == pytest.approx(
        (row.loc["det", "value"] + row.loc["auth", "value"]) / 2
    )
    # a 95% interval over ~450 forgeries in 150 clusters is a few points wide, not zero, not 50
    width = row.loc["det", "hi"] - row.loc["det", "lo"]
    assert 2 < width < 20


def test_reproducible_and_seed_dependent(frame: pd.DataFrame) -> None:
    a = cluster_bootstrap(frame, BootstrapConfig(reps=200, seed=7))
    b = cluster_bootstrap(frame, BootstrapConfig(reps=200, seed=7))
    c = cluster_bootstrap(frame, BootstrapConfig(reps=200, seed=8))
    pd.testing.assert_frame_equal(a, b)
    assert not np.allclose(a["lo"].to_numpy(), c["lo"].to_numpy())


def test_clustering_widens_intervals_for_correlated_items(synth) -> None:  # type: ignore[no-untyped-def]
    # every item of a seed gets the same outcome: clusters, not items, are the sampling unit
    f = synth.build_frame([synth.ModelParams("a")], n_seeds=80, seed=2)
    f = f[(f["probe"] == "L0") & (f["label"] == "forged")].copy()
    outcome = {s: bool(i % 2) for i, s in enumerate(sorted(f["seed_id"].unique()))}
    f["correct"] = f["seed_id"].map(outcome).astype("boolean")
    by_seed = cluster_bootstrap(f, BootstrapConfig(reps=600, seed=0))
    by_item = cluster_bootstrap(
        f.assign(item_cluster=f["item_id"]),
        BootstrapConfig(reps=600, seed=0, cluster="item_cluster"),
    )
    w_seed = float((by_seed["hi"] - by_seed["lo"])[by_seed["metric"] == "det"].iloc[0])
    w_item = float((by_item["hi"] - by_item["lo"])[by_item["metric"] == "det"].iloc[0])
    assert w_seed > 1.3 * w_item


def test_missing_cluster_column() -> None:
    with pytest.raises(KeyError, match="cluster column"):
        cluster_bootstrap(pd.DataFrame({"model": []}), BootstrapConfig(cluster="nope"))
