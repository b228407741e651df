"""Synthetic row-level frames and metrics for the analysis and report tests.

``build_frame`` makes a frame with exactly the columns of ``analysis.frame.load_frame`` (one row
per answered task) from a seeded generator and per-model parameters, so tests know the effects
they should recover. ``metrics_from_frame`` aggregates it into the long ``metrics.csv`` format for
the subsets the tables read (a test helper, not the metrics stage).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

FAMILY_P = {"K0": 0.10, "K1": 0.38, "K2": 0.20, "K3": 0.06, "K4": 0.07, "K5": 0.10, "K6": 0.09}
FAMILY_SKILL = {"K0": -2.5, "K1": 0.0, "K2": 1.2, "K3": 0.5, "K4": 0.8, "K5": 0.6, "K6": 0.6}


@dataclass
class ModelParams:
    """How a synthetic model behaves."""

    name: str
    fake_bias: float = -0.3
    """Logit of answering FAKE on a forgery before family and recognition effects."""
    real_bias: float = 1.5
    """Logit of answering REAL on an authentic image."""
    recog_p: float = 0.7
    """Probability of recognizing a scene."""
    recog_effect: float = -1.0
    """Log-odds change of detecting a people-family forgery when the scene is recognized."""
    grounding: float = 0.5
    """Probability that a detection is graded E3+."""
    miss: float = 0.02
    """Share of unparsed answers."""


def _sig(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def build_items(n_seeds: int, rng: np.random.Generator, triples: float = 0.3) -> pd.DataFrame:
    """Items: per seed an authentic original, three forgeries, and for some seeds a triple."""
    rows = []
    fams, probs = list(FAMILY_P), np.array(list(FAMILY_P.values()))
    for s in range(n_seeds):
        seed = f"s{s:04d}"
        domain = f"A{rng.integers(1, 7)}"
        rows.append(
            dict(
                item_id=f"{seed}-orig",
                seed_id=seed,
                label="authentic",
                family=None,
                domain=domain,
                saliency=None,
            )
        )
        for k in range(3):
            fam = str(rng.choice(fams, p=probs / probs.sum()))
            sal = str(rng.choice(["C1", "C2", "C3"], p=[0.4, 0.1, 0.5]))
            rows.append(
                dict(
                    item_id=f"{seed}-f{k}",
                    seed_id=seed,
                    label="forged",
                    family=fam,
                    domain=domain,
                    saliency=sal,
                )
            )
        if rng.random() < triples:
            for variant, fam in (("erase", "K1"), ("swap", "K1"), ("k0", "K0")):
                rows.append(
                    dict(
                        item_id=f"{seed}-{variant}",
                        seed_id=seed,
                        label="forged",
                        family=fam,
                        domain=domain,
                        saliency="C1",
                        variant=variant,
                    )
                )
    items = pd.DataFrame(rows)
    if "variant" not in items:
        items["variant"] = None
    items["control_for"] = np.where(items["family"] == "K0", "K1", None)
    items.loc[(items["family"] == "K0") & (items["variant"] != "k0"), "control_for"] = [
        str(rng.choice(["K1", "K2", "K4"]))
        for _ in range(int(((items["family"] == "K0") & (items["variant"] != "k0")).sum()))
    ]
    items["analysis_family"] = np.where(
        items["family"] == "K0", items["control_for"], items["family"]
    )
    items["k1_type"] = np.where(items["family"] == "K1", "date_impossible", None)
    items.loc[items["variant"] == "erase", "k1_type"] = "absent_celebrity"
    forged = items["label"] == "forged"
    items["peripheral"] = forged & items["saliency"].isin(["C2", "C3"])
    items["peripheral_K1"] = items["peripheral"] & (items["family"] == "K1")
    pk1_seeds = set(items.loc[items["peripheral_K1"], "seed_id"])
    p_seeds = set(items.loc[items["peripheral"], "seed_id"])
    auth = items["label"] == "authentic"
    items.loc[auth & items["seed_id"].isin(pk1_seeds), "peripheral_K1"] = True
    items.loc[auth & items["seed_id"].isin(p_seeds), "peripheral"] = True
    items["named_insertion"] = items["k1_type"].isin(["date_impossible", "cross_domain"])
    return items.rename(columns={"peripheral_K1": "peripheral_k1"})  # as analysis.frame names it


def _plan(items: pd.DataFrame, model_index: int) -> list[tuple[str, str, pd.Series]]:
    forged, auth = items["label"] == "forged", items["label"] == "authentic"
    per, pk1 = items["peripheral"].astype(bool), items["peripheral_k1"].astype(bool)
    erase = items["variant"] == "erase"
    plan = [
        ("L0", "full", items["item_id"].notna()),
        ("L1", "full", items["item_id"].notna()),
        ("L-adv", "full", auth),
        ("RECOG", "full", items["item_id"].notna()),
        ("RECOG", "mirror", forged & per),
        ("RECOG", "crop", forged & per),
        ("L1", "full_caption", pk1 | ((forged & per) if model_index < 2 else False)),
        ("L1", "crop_caption", pk1 | (forged & per)),
        ("L1", "crop", (forged & per) | auth),
        ("L1", "mirror", (forged & per) | auth),
        ("L2", "full", (forged & pk1) | erase),
        ("L2", "crop", forged & pk1),
        ("TEXT", "none", items["named_insertion"].astype(bool)),
    ]
    if model_index < 2:
        plan.append(("L1", "full_wrong_caption", pk1))
        plan.append(("FACE", "face_original", erase))
        plan.append(("FACE", "face_replacement", erase))
    return plan


def build_frame(
    models: list[ModelParams], n_seeds: int = 120, seed: int = 0, footprint: bool = False
) -> pd.DataFrame:
    """A synthetic row-level frame with the columns of ``load_frame``."""
    rng = np.random.default_rng(seed)
    items = build_items(n_seeds, rng)
    if footprint:
        fp = np.where(
            items["variant"] == "swap", 0.048, np.where(items["variant"] == "erase", 0.006, 0.003)
        )
        items["footprint"] = fp * rng.lognormal(0, 0.5, len(items))
        items["footprint_measured"] = items["footprint"] * rng.lognormal(0, 0.3, len(items))
        items["npr_score"] = rng.normal(0, 1, len(items))
        items["ufd_score"] = rng.normal(0, 1, len(items))
    parts = []
    for mi, mp in enumerate(models):
        recognized = rng.random(len(items)) < mp.recog_p
        rec = pd.Series(recognized, index=items.index)
        for probe, cond, mask in _plan(items, mi):
            sub = items[mask.astype(bool)].copy()
            if sub.empty:
                continue
            n = len(sub)
            r = rec.loc[sub.index].to_numpy()
            forged = (sub["label"] == "forged").to_numpy()
            fam = sub["family"].fillna("K1").map(FAMILY_SKILL).to_numpy(dtype=float)
            k1 = (sub["analysis_family"] == "K1").to_numpy()
            boost = {"crop": 0.6, "crop_caption": 0.8, "full_wrong_caption": 1.5}.get(cond, 0.0)
            p_fake = _sig(mp.fake_bias + fam + mp.recog_effect * r * k1 + boost)
            p_real = _sig(mp.real_bias - boost)
            says_fake = np.where(forged, rng.random(n) < p_fake, rng.random(n) >= p_real)
            miss = rng.random(n) < mp.miss
            sub["verdict"] = np.where(miss, "MISS", np.where(says_fake, "FAKE", "REAL"))
            sub["correct"] = np.where(miss, False, np.where(forged, says_fake, ~says_fake))
            grounded = rng.random(n) < mp.grounding * (sub["family"] != "K0").to_numpy()
            level = np.where(
                says_fake & ~miss & forged,
                np.where(grounded, rng.choice([3, 4], n), rng.choice([1, 2], n)),
                0,
            )
            sub["level"] = pd.array(np.where(forged, level, 0), dtype="Int64")
            if probe == "RECOG":
                rr = (
                    r
                    if cond == "full"
                    else (r & (rng.random(n) < (0.95 if cond == "mirror" else 0.4)))
                )
                sub["verdict"] = np.where(rr, "RECOGNISED", "NOT_RECOGNISED")
            elif probe == "L2":
                sub["verdict"] = np.where(
                    rng.random(n) < (0.7 if cond == "full" else 0.2), "NAMES", "CANNOT"
                )
            elif probe in ("TEXT", "FACE"):
                yes = rng.random(n) < (0.3 if cond == "face_replacement" else 0.8)
                sub["verdict"] = np.where(yes, "YES", "NO")
            if probe not in ("L0", "L1", "L-adv"):
                sub["correct"] = pd.NA
                sub["level"] = pd.NA
            sub["model"], sub["probe"], sub["condition"] = mp.name, probe, cond
            parts.append(sub)
    frame = pd.concat(parts, ignore_index=True)
    n = len(frame)
    frame["task_key"] = [f"t{i:07d}" for i in range(n)]
    frame["text"] = "synthetic answer"
    frame["correct"] = frame["correct"].astype("boolean")
    frame["level"] = frame["level"].astype("Int64")
    frame["grade_status"] = "graded"
    frame["judge"] = "judge/j1"
    frame["names_erased"] = (frame["variant"] == "erase") & (rng.random(n) < 0.45)
    frame["names_principal"] = rng.random(n) < 0.5
    ids = frame["item_id"].unique()
    frame["has_principal"] = frame["item_id"].map(
        dict(zip(ids, rng.random(len(ids)) < 0.8, strict=True))
    )
    frame["input_tokens"], frame["output_tokens"], frame["latency_s"] = 500, 60, 1.0
    return frame


def metrics_from_frame(frame: pd.DataFrame, judge: str = "judge/j1") -> pd.DataFrame:
    """Long-format metrics (det, auth, bal, kgr, e4, det_parsed, recog, named, ...) of a frame."""
    out: list[tuple] = []
    subsets = {
        "all": lambda f: pd.Series(True, index=f.index),
        **{k: (lambda f, k=k: f["family"] == k) for k in FAMILY_P},
        **{f"A{i}": (lambda f, i=i: f["domain"] == f"A{i}") for i in range(1, 7)},
        **{c: (lambda f, c=c: f["saliency"] == c) for c in ("C1", "C2", "C3")},
        "peripheral": lambda f: f["peripheral"].astype(bool),
        "peripheral_K1": lambda f: f["peripheral_k1"].astype(bool),
        "erase": lambda f: f["variant"] == "erase",
        "swap": lambda f: f["variant"] == "swap",
        "triple_k0": lambda f: f["variant"] == "k0",
        "named_insertion": lambda f: f["named_insertion"].astype(bool),
    }
    masks = {k: sel(frame).fillna(False).astype(bool).to_numpy() for k, sel in subsets.items()}
    forged_a = (frame["label"] == "forged").to_numpy()
    correct_a = frame["correct"].fillna(False).astype(bool).to_numpy()
    level_a = frame["level"].fillna(0).astype(int).to_numpy()
    verdict_a = frame["verdict"].astype(str).to_numpy()
    parsed_a = verdict_a != "MISS"
    named_a = frame["names_erased"].astype(bool).to_numpy()

    subset_now = [""]

    def pct(x: np.ndarray) -> float:
        return 100.0 * float(x.mean())

    for (model, probe, cond), idx in frame.groupby(
        ["model", "probe", "condition"], sort=False
    ).indices.items():

        def add(
            metric: str,
            value: float,
            n: int,
            graded: bool = False,
            key: tuple = (model, probe, cond),
        ) -> None:
            out.append(("mandela", *key, subset_now[0], metric, value, n, judge if graded else ""))

        for subset, mask in masks.items():
            subset_now[0] = subset
            sel = idx[mask[idx]]
            if len(sel) == 0:
                continue
            fz, au = sel[forged_a[sel]], sel[~forged_a[sel]]
            if probe in ("L0", "L1", "L-adv"):
                det = auth = None
                if len(fz):
                    det = pct(correct_a[fz])
                    add("det", det, len(fz))
                    pz = fz[parsed_a[fz]]
                    if len(pz):
                        add("det_parsed", pct(correct_a[pz]), len(pz))
                    add("kgr", pct(level_a[fz] >= 3), len(fz), True)
                    add("e4", pct(level_a[fz] >= 4), len(fz), True)
                    if subset == "erase":
                        add("named", pct(named_a[fz]), len(fz))
                        add("named_real", pct(named_a[fz] & (verdict_a[fz] == "REAL")), len(fz))
                if len(au):
                    auth = pct(correct_a[au])
                    add("auth", auth, len(au))
                    pa = au[parsed_a[au]]
                    if len(pa):
                        add("auth_parsed", pct(correct_a[pa]), len(pa))
                if det is not None and auth is not None:
                    add("bal", (det + auth) / 2, len(fz) + len(au))
            elif probe == "RECOG" and len(fz):
                add("recog", pct(verdict_a[fz] == "RECOGNISED"), len(fz))
            elif probe == "L2" and subset == "erase":
                add("l2_names", pct(verdict_a[sel] == "NAMES"), len(sel))
                add("l2_cannot", pct(verdict_a[sel] == "CANNOT"), len(sel))
            elif probe == "TEXT" and subset == "named_insertion":
                add("text_knows", pct(verdict_a[sel] == "NO"), len(sel))
    cols = ["benchmark", "model", "probe", "condition", "subset", "metric", "value", "n", "judge"]
    return pd.DataFrame(out, columns=cols)
