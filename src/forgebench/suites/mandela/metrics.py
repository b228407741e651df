"""Grades -> the numbers of seed 000 (§4.3; Tables 2, 3, 5, 6, 8, 13-18), as ``metrics.csv`` rows.

Long format ``benchmark,model,probe,condition,subset,metric,value,n,judge`` (DESIGN.md): ``value``
is a percentage (0-100, unrounded) for rates and the raw number for counts, ratios and
differences; ``n`` is the denominator; ``judge`` is filled only where grades are used.

Definitions (strict scoring unless the name ends in ``_parsed``):

- ``det`` = FAKE verdicts / forged items; ``auth`` = REAL verdicts / authentic items;
  ``bal`` = (det + auth) / 2 with ``n`` = forged + authentic; ``miss`` = misses / all items of the
  group. A task without an answer (error, pending) is a miss. ``det_parsed``, ``auth_parsed``,
  ``bal_parsed`` divide by the items with a REAL/FAKE verdict only (Table 18).
- ``kgr`` = items graded E3+ / **all** forged items (K0 included); ``e4`` = E4 / all forged items.
  Unscored and ungraded answers count as not grounded; their counts are the ``unscored`` and
  ``ungraded`` rows (subset ``all``). Graded metrics appear only where the group has a grade.
- subsets: ``all``; families ``K0``..``K6`` (by ``family``); domains; saliency; ``peripheral``
  (peripheral forgeries and all authentic items, Table 19); ``peripheral_K1`` (peripheral K1
  forgeries and the authentic originals of their seeds, Tables 3/17/18); ``erase``, ``swap``,
  ``triple_k0`` (absent-celebrity triple members).
- ``gap`` = KGR(L1, full) - KGR(L0, full) over forged items with both tasks (probe L1, condition
  full, subset all); ``cap`` = Det(L1, full_caption) - Det(L1, full) and ``pen`` =
  Bal(L1, crop_caption) - Bal(L1, full) over the paired ``peripheral_K1`` items (recorded under the
  treated arm's condition; ``n`` = paired items).
- ``named`` / ``named_real`` (subset ``erase``): answers that name the erased person / name them
  and give the verdict REAL, over all erase items (Table 3: read from the same answer);
  ``erase_swap_ratio`` = det(erase) / det(swap) (``n`` = erase items), withheld when swap
  detection is at most 10% (``SWAP_DET_FLOOR``). Seed 000 contradicts itself here: Table 21's
  caption withholds the ratio for "fewer than one swap in ten", while its text ("more than one
  swap in ten") and its outcome label "n/a (swap <= 10)" withhold it at exactly 10% too; we follow
  the text and the label (and Table 21 does the same).
- ``text_knows``: TEXT answers NO (rules out presence) / named insertions.
- ``recog``: RECOGNISED / items, per condition, on ``forged`` (Table 10's population), on
  ``authentic`` (Table 13's) and on ``peripheral`` (peripheral *forgeries* only, as Table 7). No
  row mixes forged and authentic items: no number of the paper uses that population.
- ``l2_names`` / ``l2_cannot`` (L2): on ``erase``, answers naming the erased person / saying someone
  cannot be identified (Table 8; not exclusive); on ``peripheral_K1``, ``l2_names`` is the share of
  peripheral K1 forgeries with principal figures whose answer names one (Table 9).
- subsets ``l2_named`` / ``l2_cannot`` (probe L0, full): the L0 base metrics on the erase items
  whose L2 (full) answer named the erased person / said it cannot identify someone (Table 8).
- ``face_pass`` (probe FACE, condition face_replacement, subset face_pass): erase items whose
  original face is accepted (YES under face_original) and replacement rejected (NO under
  face_replacement), over the erase items with a FACE task. Subset ``face_pass`` of L0 carries the
  L0 metrics on the passing items, with ``real`` = REAL verdicts / items (Table 8's "full real").
- Appendix N's wrong-name control (FACE, ``face_original``, subset ``wrong_name``: the erase items
  whose original face was also asked with ``faces.wrong_name``): ``face_wrong_yes`` = YES to the
  wrong name / control faces (the false-yes rate), ``face_right_yes`` = YES to the erased person's
  name on the same faces; ``face_pass_corrected`` (FACE, face_replacement, face_pass) = face_pass
  x (1 - face_wrong_yes / 100), the baseline-corrected pass rate. The seed does not give the
  formula; this one reproduces both of its reported values (55/119 x (1 - 0.100) = 41.6% for
  Kimi-K3, 47/119 x (1 - 0.000) = 39.5% for Qwen3.6-27B).
- ``known`` (EVENT): KNOWN answers / events.
- ``uptake`` / ``dispute`` (L1, full_wrong_caption, peripheral_K1; judged): answers that adopt /
  explicitly dispute the wrong caption's event, over all items of the population (Table 11; our
  prompt and rules grader, ``uptake.py``), for the models the judge judged.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from forgebench.analysis.decision import MIN_SWAP
from forgebench.results.metrics_csv import COLUMNS as _COLUMNS
from forgebench.results.metrics_csv import Scope
from forgebench.results.metrics_csv import write_metrics as write_rows
from forgebench.suites.mandela.frame import connect, load_frame, resolve_judge
from forgebench.suites.mandela.metric_rows import (
    KEYS,
    base_rows,
    graded_groups,
    indicators,
    with_subset,
)
from forgebench.suites.mandela.paired_tests import write_paired_tests
from forgebench.suites.mandela.verdict import REAL_FAKE_PROBES

BENCHMARK = "mandela"
COLUMNS = list(_COLUMNS)
SWAP_DET_FLOOR = MIN_SWAP
"""erase_swap_ratio is written only when swap detection (%) exceeds this (seed 000 Table 21)."""
_GRADED = ("kgr", "e4", "unscored", "ungraded", "gap")


_RF_COLUMNS = (
    "model", "probe", "condition", "item_id", "label", "verdict", "level", "grade_status",
    "names_erased", "family", "domain", "saliency", "variant", "peripheral", "peripheral_k1",
    "seed_peripheral_k1",
)  # fmt: skip
"""The frame's columns the REAL/FAKE rows are counted from (the rest is not copied)."""


def _real_fake(f: pd.DataFrame, judge: str | None) -> list[pd.DataFrame]:
    rf = f[list(_RF_COLUMNS)][f["probe"].isin(REAL_FAKE_PROBES)].reset_index(drop=True)
    if rf.empty:
        return []
    ind = indicators(rf)
    forged, auth = rf["label"] == "forged", rf["label"] == "authentic"
    parts = [ind.assign(subset="all")]
    for col in ("family", "domain", "saliency"):
        parts.append(with_subset(ind, rf[col].notna(), rf[col].astype(object)))
    parts.append(with_subset(ind, rf["peripheral"] | auth, "peripheral"))
    parts.append(
        with_subset(ind, rf["peripheral_k1"] | (auth & rf["seed_peripheral_k1"]), "peripheral_K1")
    )
    variant = rf["variant"].map({"erase": "erase", "swap": "swap", "k0": "triple_k0"})
    parts.append(with_subset(ind, forged & variant.notna(), variant.astype(object)))
    keys = graded_groups(ind)
    out = base_rows(parts, judge, keys)
    out += _differences(
        ind.assign(peri=(rf["peripheral_k1"] | (auth & rf["seed_peripheral_k1"])).to_numpy()), judge
    )
    out += _absent(rf, ind, f, judge, keys)
    return out


def _paired(
    ind: pd.DataFrame, probe: str, base: str, treated: str, mask: pd.Series | None = None
) -> pd.DataFrame:
    sel = ind if mask is None else ind[mask.to_numpy()]
    a = sel[(sel["probe"] == probe) & (sel["condition"] == base)]
    b = sel[(sel["probe"] == probe) & (sel["condition"] == treated)]
    cols = ["model", "item_id", "n_f", "n_a", "det_hit", "auth_hit", "kgr_hit", "has_grade"]
    return a[cols].merge(b[cols], on=["model", "item_id", "n_f", "n_a"], suffixes=("_0", "_1"))


def _diff_rows(
    g: pd.DataFrame, metric: str, probe: str, cond: str, subset: str, judge: str = ""
) -> pd.DataFrame:
    g = g.reset_index()
    return pd.DataFrame(
        {"model": g["model"], "probe": probe, "condition": cond, "subset": subset, "metric": metric,
         "value": g["value"].astype(float), "n": g["n"].astype(int), "judge": judge}
    )  # fmt: skip


def _differences(ind: pd.DataFrame, judge: str | None) -> list[pd.DataFrame]:
    out = []
    if judge:
        p = ind[ind["probe"].isin(["L0", "L1"]) & (ind["condition"] == "full") & (ind["n_f"] == 1)]
        l0, l1 = p[p["probe"] == "L0"], p[p["probe"] == "L1"]
        cols = ["model", "item_id", "kgr_hit", "has_grade"]
        m = l0[cols].merge(l1[cols], on=["model", "item_id"], suffixes=("_0", "_1"))
        m = m[
            m.groupby("model")["has_grade_0"].transform("sum").gt(0)
            & m.groupby("model")["has_grade_1"].transform("sum").gt(0)
        ]
        if not m.empty:
            g = m.groupby("model").agg(
                h0=("kgr_hit_0", "sum"), h1=("kgr_hit_1", "sum"), n=("item_id", "size")
            )
            g["value"] = 100.0 * (g["h1"] - g["h0"]) / g["n"]
            out.append(_diff_rows(g, "gap", "L1", "full", "all", judge))
    peri = ind["peri"]
    cap = _paired(ind, "L1", "full", "full_caption", peri)
    cap = cap[cap["n_f"] == 1]
    if not cap.empty:
        g = cap.groupby("model").agg(
            h0=("det_hit_0", "sum"), h1=("det_hit_1", "sum"), n=("item_id", "size")
        )
        g["value"] = 100.0 * (g["h1"] - g["h0"]) / g["n"]
        out.append(_diff_rows(g, "cap", "L1", "full_caption", "peripheral_K1"))
    pen = _paired(ind, "L1", "full", "crop_caption", peri)
    if not pen.empty:
        g = pen.groupby("model").agg(
            f=("n_f", "sum"), a=("n_a", "sum"), d0=("det_hit_0", "sum"), d1=("det_hit_1", "sum"),
            a0=("auth_hit_0", "sum"), a1=("auth_hit_1", "sum"),
        )  # fmt: skip
        g = g[(g["f"] > 0) & (g["a"] > 0)]
        g["value"] = 100.0 * ((g["d1"] - g["d0"]) / g["f"] + (g["a1"] - g["a0"]) / g["a"]) / 2
        g["n"] = g["f"] + g["a"]
        out.append(_diff_rows(g, "pen", "L1", "crop_caption", "peripheral_K1"))
    return out


def _absent(
    rf: pd.DataFrame,
    ind: pd.DataFrame,
    f: pd.DataFrame,
    judge: str | None,
    graded_keys: set[tuple[str, str, str]],
) -> list[pd.DataFrame]:
    """erase/swap ratio, L0 by L2 answer (Table 8) and the FACE pass set."""
    out: list[pd.DataFrame] = []
    erase = (rf["variant"] == "erase") & (rf["label"] == "forged")
    swap = (rf["variant"] == "swap") & (rf["label"] == "forged")
    e = ind[erase.to_numpy()].groupby(KEYS).agg(d=("det_hit", "sum"), n=("n_f", "sum"))
    s = ind[swap.to_numpy()].groupby(KEYS).agg(d=("det_hit", "sum"), n=("n_f", "sum"))
    both = e.add_suffix("_e").join(s.add_suffix("_s"), how="inner")
    # withheld unless swap detection exceeds one in ten (SWAP_DET_FLOOR; see the docstring)
    both = both[100.0 * both["d_s"] > SWAP_DET_FLOOR * both["n_s"]]
    if not both.empty:
        both["value"] = (both["d_e"] / both["n_e"]) / (both["d_s"] / both["n_s"])
        b = both.reset_index()
        out.append(pd.DataFrame({"model": b["model"], "probe": b["probe"], "condition": b["condition"],
                                 "subset": "erase", "metric": "erase_swap_ratio", "value": b["value"],
                                 "n": b["n_e"].astype(int), "judge": ""}))  # fmt: skip
    l0 = (rf["probe"] == "L0") & (rf["condition"] == "full") & erase
    l0_ind, l0_items = ind[l0.to_numpy()], rf.loc[l0, ["model", "item_id"]]
    l2 = f[
        (f["probe"] == "L2")
        & (f["condition"] == "full")
        & (f["variant"] == "erase")
        & (f["label"] == "forged")
    ]
    parts = []
    for subset, col in (("l2_named", "names_erased"), ("l2_cannot", "l2_cannot")):
        keys = set(zip(l2.loc[l2[col], "model"], l2.loc[l2[col], "item_id"], strict=True))
        mask = [k in keys for k in zip(l0_items["model"], l0_items["item_id"], strict=True)]
        parts.append(l0_ind[np.asarray(mask, dtype=bool)].assign(subset=subset))
    # the wrong-name control (Appendix N; protocol.table asks it when faces.wrong_name is set)
    # is not part of the pass criterion: only the questions naming the erased person count
    face = f[
        (f["probe"] == "FACE") & (f["variant"] == "erase") & (f["name_source"] != "wrong_name")
    ]
    if not face.empty:
        ok_o = face.assign(ok=(face["verdict"] == "YES").astype(int))
        ok_r = face.assign(ok=(face["verdict"] == "NO").astype(int))
        orig = ok_o[ok_o["condition"] == "face_original"].groupby(["model", "item_id"])["ok"].min()
        repl = (
            ok_r[ok_r["condition"] == "face_replacement"].groupby(["model", "item_id"])["ok"].min()
        )
        pairs = face[["model", "item_id"]].drop_duplicates().set_index(["model", "item_id"])
        pairs["ok"] = (
            orig.reindex(pairs.index, fill_value=0) * repl.reindex(pairs.index, fill_value=0)
        ) > 0
        g = pairs.groupby(level="model")["ok"].agg(["sum", "size"])
        out.append(pd.DataFrame({"model": g.index, "probe": "FACE", "condition": "face_replacement",
                                 "subset": "face_pass", "metric": "face_pass",
                                 "value": 100.0 * g["sum"].to_numpy() / g["size"].to_numpy(),
                                 "n": g["size"].to_numpy(), "judge": ""}))  # fmt: skip
        out += _wrong_name(f, face, g)
        passed = set(pairs.index[pairs["ok"].to_numpy()])
        mask = [k in passed for k in zip(l0_items["model"], l0_items["item_id"], strict=True)]
        parts.append(l0_ind[np.asarray(mask, dtype=bool)].assign(subset="face_pass"))
    parts = [p for p in parts if not p.empty]
    if parts:
        out += base_rows(parts, judge, graded_keys)
    return out


def _wrong_name(f: pd.DataFrame, face: pd.DataFrame, passes: pd.DataFrame) -> list[pd.DataFrame]:
    """Appendix N's wrong-name control: false-yes, correct-name yes, baseline-corrected pass."""
    ctrl = f[
        (f["probe"] == "FACE")
        & (f["variant"] == "erase")
        & (f["condition"] == "face_original")
        & (f["name_source"] == "wrong_name")
    ][["model", "item_id", "verdict"]].drop_duplicates(["model", "item_id"])
    if ctrl.empty:
        return []
    right = face[face["condition"] == "face_original"][["model", "item_id", "verdict"]]
    right = ctrl[["model", "item_id"]].merge(
        right.drop_duplicates(["model", "item_id"]), on=["model", "item_id"], how="left"
    )
    w = (ctrl["verdict"] == "YES").groupby(ctrl["model"]).agg(["sum", "size"])
    r = (right["verdict"] == "YES").groupby(right["model"]).agg(["sum", "size"])
    wrong_yes = 100.0 * w["sum"] / w["size"]
    out = [
        pd.DataFrame({"model": w.index, "probe": "FACE", "condition": "face_original",
                      "subset": "wrong_name", "metric": "face_wrong_yes",
                      "value": wrong_yes.to_numpy(), "n": w["size"].to_numpy(), "judge": ""}),
        pd.DataFrame({"model": r.index, "probe": "FACE", "condition": "face_original",
                      "subset": "wrong_name", "metric": "face_right_yes",
                      "value": (100.0 * r["sum"] / r["size"]).to_numpy(),
                      "n": r["size"].to_numpy(), "judge": ""}),
    ]  # fmt: skip
    both = passes.join(wrong_yes.rename("wrong"), how="inner")
    if not both.empty:
        corrected = 100.0 * both["sum"] / both["size"] * (1.0 - both["wrong"] / 100.0)
        out.append(pd.DataFrame({"model": both.index, "probe": "FACE",
                                 "condition": "face_replacement", "subset": "face_pass",
                                 "metric": "face_pass_corrected", "value": corrected.to_numpy(),
                                 "n": both["size"].to_numpy(), "judge": ""}))  # fmt: skip
    return out


def _rate(
    f: pd.DataFrame, mask: pd.Series, hit: pd.Series, metric: str, subset: str
) -> pd.DataFrame | None:
    sub = f.loc[mask, KEYS].assign(hit=hit[mask].astype(int).to_numpy(), n=1)
    if sub.empty:
        return None
    g = sub.groupby(KEYS, sort=False).sum().reset_index()
    return pd.DataFrame({"model": g["model"], "probe": g["probe"], "condition": g["condition"],
                         "subset": subset, "metric": metric, "value": 100.0 * g["hit"] / g["n"],
                         "n": g["n"].astype(int), "judge": ""})  # fmt: skip


def _probes(f: pd.DataFrame) -> list[pd.DataFrame]:
    v, probe, forged = f["verdict"], f["probe"], f["label"] == "forged"
    specs = [
        (probe == "TEXT", v == "NO", "text_knows", "named_insertion"),
        (probe == "TEXT", v == "MISS", "miss", "named_insertion"),
        ((probe == "RECOG") & forged, v == "RECOGNISED", "recog", "forged"),
        ((probe == "RECOG") & (f["label"] == "authentic"), v == "RECOGNISED", "recog", "authentic"),
        ((probe == "RECOG") & f["peripheral"], v == "RECOGNISED", "recog", "peripheral"),
        (
            (probe == "L2") & forged & (f["variant"] == "erase"),
            f["names_erased"],
            "l2_names",
            "erase",
        ),
        (
            (probe == "L2") & forged & (f["variant"] == "erase"),
            f["l2_cannot"],
            "l2_cannot",
            "erase",
        ),
        (
            (probe == "L2") & f["peripheral_k1"] & f["has_principal"],
            f["names_principal"],
            "l2_names",
            "peripheral_K1",
        ),
        (probe == "EVENT", v == "KNOWN", "known", "all"),
    ]
    out = []
    for mask, hit, metric, subset in specs:
        if metric in ("text_knows", "miss") and subset == "named_insertion":
            mask = mask & f["named_insertion"]
        rows = _rate(f, mask, hit, metric, subset)
        if rows is not None:
            out.append(rows)
    return out


def _uptake(f: pd.DataFrame, judge: str | None) -> list[pd.DataFrame]:
    """Table 11's uptake and dispute (``uptake.py``) for the models the judge judged."""
    if not judge or "uptake" not in f.columns:
        return []
    pop = (
        (f["probe"] == "L1")
        & (f["condition"] == "full_wrong_caption")
        & (f["peripheral_k1"] | ((f["label"] == "authentic") & f["seed_peripheral_k1"]))
    )
    sub = f[pop.to_numpy()]
    judged = sub.groupby("model")["uptake"].transform(lambda s: s.notna().any()).astype(bool)
    sub = sub[judged.to_numpy()]
    if sub.empty:
        return []
    out = []
    for metric in ("uptake", "dispute"):
        hit = pd.to_numeric(sub[metric], errors="coerce").fillna(0).to_numpy() == 1
        g = sub.assign(hit=hit.astype(int)).groupby("model")["hit"].agg(["sum", "size"])
        out.append(pd.DataFrame({"model": g.index, "probe": "L1", "condition": "full_wrong_caption",
                                 "subset": "peripheral_K1", "metric": metric,
                                 "value": 100.0 * g["sum"].to_numpy() / g["size"].to_numpy(),
                                 "n": g["size"].to_numpy(), "judge": judge}))  # fmt: skip
    return out


def compute_metrics(frame: pd.DataFrame, judge: str | None) -> pd.DataFrame:
    """Every metric of the module docstring from a :func:`~forgebench.suites.mandela.frame.load_frame`
    frame; graded metrics (``kgr``, ``e4``, ``gap``, ...) only when ``judge`` is given."""
    parts = [*_real_fake(frame, judge), *_probes(frame), *_uptake(frame, judge)]
    parts = [p for p in parts if not p.empty]
    if not parts:
        return pd.DataFrame(columns=COLUMNS)
    out = pd.concat(parts, ignore_index=True)
    out.insert(0, "benchmark", BENCHMARK)
    out["judge"] = out["judge"].fillna("")
    return (
        out[COLUMNS]
        .sort_values(["model", "probe", "condition", "subset", "metric"], kind="stable")
        .reset_index(drop=True)
    )


def write_metrics(run_dir: Path, judge: str | None = None) -> Path:
    """Compute the run's metrics and write them into ``RUN/metrics.csv`` (and the McNemar tests
    into ``RUN/paired_tests.csv``, :mod:`~forgebench.suites.mandela.paired_tests`); returns the
    metrics' path.

    The writer owns the Mandela rows of this judge and the Mandela rows that use no grade: other
    benchmarks' rows and other judges' graded rows are kept (``results.metrics_csv``)."""
    run_dir = Path(run_dir)
    con = connect(run_dir)
    try:
        judge = resolve_judge(con, judge)
    finally:
        con.close()
    frame = load_frame(run_dir, judge)
    table = compute_metrics(frame, judge)
    path = write_rows(run_dir, table, Scope.of(BENCHMARK, judges=[judge, ""]))
    write_paired_tests(run_dir, frame)
    return path
