"""The regressions of seed 000: recognition and detection (Appendix I, Table 10) and the
footprint covariates of the absent-celebrity contrast (Appendix L, Table 20).

Both take the row-level frame of ``analysis.frame.load_frame`` and return :class:`LogitFit`
results (``analysis.logit``), whose ``status`` reports separated or empty cells instead of
raising. Standard errors are clustered by scene (``seed_id``).

Recognition (Appendix I). For each forgery the model's RECOG answer under Full (recognized =
verdict ``RECOGNISED``; a miss counts as not recognized) is paired with its prompted-verification
verdict (L1, Full; detected = a correct FAKE, a miss counts as not detected). Per model and for the
people family (``analysis_family == "K1"``, anchor-free controls included by the family of their
edit specification) and the class-level families (K2-K6) separately, detection is regressed on
recognition, saliency, recognition x saliency, and family and domain fixed effects. The paper does
not say how saliency is coded in the interaction; here it is treatment-coded with the most common
saliency level of the data as reference, so the reported recognition odds ratio is the effect at
that (most common) saliency. The family effect distinguishes the item's own family (K0 controls
against knowledge edits). The pooled model adds model fixed effects and uses the models that
recognize at least half of their forgeries.

Footprint (Appendix L). Per model, on the absent-celebrity erase, swap and K0 items under the
default probe (L0, Full): the base model predicts detection from the edit condition (K0 the
reference) and domain fixed effects; the full model adds log footprint and the standardized NPR
and UniversalFakeDetect scores. The footprint (fraction of pixels changed outside the annotated
region) is read from the item columns ``footprint`` (recorded edit box) and
``footprint_measured`` (largest connected component of the pixel difference); detector scores
from ``npr_score`` and ``ufd_score``. A footprint of zero is floored at 1e-4 before the log;
missing detector columns are left out of the full model (and named in the notes). A condition
whose outcome never varies (e.g. K0 never detected) is dropped with its rows (Stata's rule, as for
domain levels); with K0 gone, erase becomes the reference, the swap - erase contrast is still
reported and only the swap-versus-K0 coefficients are withheld.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from forgebench.analysis.logit import LogitFit, drop_constant_levels, dummies, fit_logit

PEOPLE = ("K1",)
"""Analysis families of the people family."""
CLASS_LEVEL = ("K2", "K3", "K4", "K5", "K6")
"""Analysis families of the class-level families."""
FOOTPRINT_FLOOR = 1e-4
"""Smallest footprint fraction before taking the log."""


def recognition_data(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per model x forgery with ``detected`` (L1 Full) and ``recognized`` (RECOG Full).

    Forgeries lacking either answer are left out (nothing to pair).
    """
    used = ["model", "item_id", "probe", "condition", "label", "correct", "verdict", "seed_id",
            "family", "analysis_family", "domain", "saliency"]  # fmt: skip
    forged = frame[used][frame["label"] == "forged"]  # only these columns are copied
    full = forged[forged["condition"] == "full"]
    l1 = full[full["probe"] == "L1"][
        [
            "model",
            "item_id",
            "correct",
            "seed_id",
            "family",
            "analysis_family",
            "domain",
            "saliency",
        ]
    ]
    rec = full[full["probe"] == "RECOG"][["model", "item_id", "verdict"]]
    data = l1.merge(rec, on=["model", "item_id"], how="inner")
    data = data.assign(
        detected=data["correct"].astype("boolean").fillna(False).astype(int),
        recognized=(data["verdict"] == "RECOGNISED").astype(int),
        saliency=data["saliency"].astype("object").fillna("none").astype(str),
        family=data["family"].astype(str),
        analysis_family=data["analysis_family"].astype(str),
        domain=data["domain"].astype(str),
    )
    data = data.drop(columns=["correct", "verdict"]).reset_index(drop=True)
    # the fits slice these few thousand rows hundreds of times: plain Python strings make each
    # slice a NumPy take instead of one Arrow take per text column (same values, same order)
    text = ["model", "item_id", "seed_id", "family", "analysis_family", "domain", "saliency"]
    return data.astype(dict.fromkeys(text, object))


def _recognition_fit(data: pd.DataFrame, fixed: list[str]) -> LogitFit:
    """Fit detected ~ recognized * saliency + fixed effects, clustered by seed."""
    if data.empty:
        return LogitFit("empty", 0, 0, notes=["no forgeries with both RECOG and L1 answers"])
    if data["recognized"].nunique() < 2:
        which = "every" if data["recognized"].iloc[0] == 1 else "no"
        return LogitFit(
            "empty", len(data), int(data["seed_id"].nunique()), notes=[f"{which} scene recognized"]
        )
    data, notes = drop_constant_levels(data, "detected", ["saliency", "family", "domain", *fixed])
    n, k = len(data), int(data["seed_id"].nunique())
    for r in (0, 1):
        cell = data.loc[data["recognized"] == r, "detected"]
        if cell.empty:
            return LogitFit(
                "empty", n, k, notes=[*notes, f"no {'un' if r == 0 else ''}recognized scenes left"]
            )
        if cell.nunique() < 2:
            return LogitFit(
                "separated",
                n,
                k,
                notes=[*notes, f"recognized={r}: outcome always {int(cell.iloc[0])}"],
            )
    # Interaction: reference = the most common saliency level whose recognized/unrecognized cells
    # both vary. In the other levels a recognition cell whose outcome never varies predicts it
    # perfectly: its rows are dropped and its term with them (Stata's rule, as for fixed-effect
    # levels above), rather than folding the cell into the main effect.
    sal = data["saliency"].to_numpy(dtype=object)
    rec, det = data["recognized"].to_numpy(), data["detected"].to_numpy()
    cells = {}  # (level, recognized) -> outcomes, levels sorted as groupby sorts them
    for level in np.unique(sal):
        at = sal == level
        for r in np.unique(rec[at]):
            cells[(str(level), int(r))] = det[at & (rec == r)]
    sal_ok = []
    for level in dict.fromkeys(lv for lv, _ in cells):
        both = [cells.get((level, r), det[:0]) for r in (0, 1)]
        if all(len(c) and len(np.unique(c)) == 2 for c in both):
            sal_ok.append((int(np.sum(sal == level)), level))
    reference = max(sal_ok)[1] if sal_ok else str(data["saliency"].value_counts().idxmax())
    if sal_ok:
        drop = []
        for (level, r), out in cells.items():
            if level != reference and out.min() == out.max():
                drop.append((level, r))
                notes.append(
                    f"dropped {len(out)} obs. with saliency={level}, recognized={r} "
                    f"(outcome always {int(out.min())})"
                )
        if drop:
            gone = np.zeros(len(data), dtype=bool)
            for level, r in drop:
                gone |= (sal == level) & (rec == r)
            data = data[~gone]
            data, more = drop_constant_levels(data, "detected", ["family", "domain", *fixed])
            notes += more
            n, k = len(data), int(data["seed_id"].nunique())
    recognized = data["recognized"].to_numpy(dtype=float)
    terms: dict[str, np.ndarray] = {"const": np.ones(len(data)), "recognized": recognized}
    sal_terms = dummies(data, "saliency", reference)
    terms.update((str(c), v.to_numpy()) for c, v in sal_terms.items())
    for col in sal_terms.columns if sal_ok else []:  # empty terms go in the rank check
        terms[f"recognized:{col}"] = recognized * terms[col]
    for col in ["family", "domain", *fixed]:
        terms.update((str(c), v.to_numpy()) for c, v in dummies(data, col).items())
    X = pd.DataFrame(terms, index=data.index)
    notes.append(f"recognition effect at saliency {reference}")
    return fit_logit(data["detected"], X, data["seed_id"], focus="recognized", notes=notes)


@dataclass
class RecognitionResult:
    """Table 10 for one model (or the pooled model) and one family group."""

    model: str
    """Model name, or ``pooled``."""
    families: str
    """``people`` (K1) or ``class`` (K2-K6)."""
    recognized_rate: float
    """Detection (%) on recognized scenes (NaN when none)."""
    recognized_n: int
    """Recognized forgeries."""
    unrecognized_rate: float
    """Detection (%) on unrecognized scenes (NaN when none)."""
    unrecognized_n: int
    """Unrecognized forgeries."""
    fit: LogitFit
    """The regression; ``fit.get("recognized")`` is the recognition coefficient."""


def _rates(data: pd.DataFrame) -> tuple[float, int, float, int]:
    recognized, detected = data["recognized"].to_numpy(), data["detected"].to_numpy()
    rec, unrec = detected[recognized == 1], detected[recognized == 0]
    r = 100.0 * (rec.sum() / len(rec)) if len(rec) else float("nan")
    u = 100.0 * (unrec.sum() / len(unrec)) if len(unrec) else float("nan")
    return float(r), len(rec), float(u), len(unrec)


def recognition_regressions(
    frame: pd.DataFrame, min_recognition: float = 50.0
) -> tuple[list[RecognitionResult], dict[str, float]]:
    """Table 10: per-model and pooled regressions for the people and class-level families.

    Returns the results (per model and family group, then the two pooled fits, ``model ==
    "pooled"``) and each model's recognition share (% of its forgeries recognized under Full); the
    pooled fits use the models at or above ``min_recognition``.
    """
    data = recognition_data(frame)
    share = {str(m): 100.0 * float(g["recognized"].mean()) for m, g in data.groupby("model")}
    out: list[RecognitionResult] = []
    groups = {"people": PEOPLE, "class": CLASS_LEVEL}
    for model, mdata in data.groupby("model", sort=False):
        for name, fams in groups.items():
            sub = mdata[mdata["analysis_family"].isin(fams)]
            out.append(RecognitionResult(str(model), name, *_rates(sub), _recognition_fit(sub, [])))
    keep = [m for m, s in share.items() if s >= min_recognition]
    for name, fams in groups.items():
        sub = data[data["model"].isin(keep) & data["analysis_family"].isin(fams)]
        fixed = ["model"] if sub["model"].nunique() > 1 else []
        out.append(RecognitionResult("pooled", name, *_rates(sub), _recognition_fit(sub, fixed)))
    return out, share


@dataclass
class FootprintResult:
    """Table 20 for one model."""

    model: str
    """Model name."""
    n: int
    """Observations (erase + swap + K0 answers) in the full model."""
    base: LogitFit
    """Condition + domain."""
    full_recorded: LogitFit | None
    """Base + log footprint (recorded edit box) + detector scores."""
    full_measured: LogitFit | None
    """Base + log footprint (measured) + detector scores."""
    notes: list[str] = field(default_factory=list)
    """Covariates left out for lack of data."""
    reference: str = "k0"
    """The reference condition: ``k0``, or ``erase`` when the K0 rows were dropped (their
    outcome never varies), in which case the swap-versus-K0 coefficients are not identified."""

    def contrast(self, measured: bool = False) -> tuple[float, float] | None:
        """Swap-versus-erase log-odds contrast and its p-value in the full model."""
        fit = self.full_measured if measured else self.full_recorded
        if fit is None:
            return None
        if self.reference == "erase":
            c = fit.get("variant[swap]")
        else:
            c = fit.contrast("variant[swap]", "variant[erase]")
        return (c.coef, c.p) if c else None

    def swap_coefs(self) -> tuple[float, float, float] | None:
        """Swap vs. K0 coefficient in the base and full (recorded) models and the shrink (%);
        None when K0 is not the reference (not identified)."""
        if self.reference != "k0":
            return None
        b = self.base.get("variant[swap]")
        f = self.full_recorded.get("variant[swap]") if self.full_recorded else None
        if b is None or f is None:
            return None
        return b.coef, f.coef, 100.0 * (b.coef - f.coef) / b.coef if b.coef else float("nan")


def footprint_data(frame: pd.DataFrame) -> pd.DataFrame:
    """Absent-celebrity triple members (erase, swap, K0) under L0, Full, one row per model x item."""
    sub = frame[(frame["probe"] == "L0") & (frame["condition"] == "full")]
    sub = sub[sub["variant"].isin(["erase", "swap", "k0"])].copy()
    sub["detected"] = sub["correct"].astype("boolean").fillna(False).astype(int)
    sub["variant"] = sub["variant"].astype(str)
    sub["domain"] = sub["domain"].astype(str)
    return sub.reset_index(drop=True)


def has_footprint(frame: pd.DataFrame) -> bool:
    """True when the frame carries a usable ``footprint`` item column."""
    return "footprint" in frame.columns and bool(
        pd.to_numeric(frame["footprint"], errors="coerce").notna().any()
    )


def footprint_regressions(frame: pd.DataFrame) -> list[FootprintResult]:
    """Table 20's regressions for every model (the table applies the paper's selection)."""
    if not has_footprint(frame):
        raise ValueError("no footprint data: the items carry no 'footprint' column")
    data = footprint_data(frame)
    detectors = [
        c for c in ("npr_score", "ufd_score") if c in data.columns and data[c].notna().any()
    ]
    notes = [
        f"{c} not in the item data: left out"
        for c in ("npr_score", "ufd_score")
        if c not in detectors
    ]
    out = []
    for model, mdata in data.groupby("model", sort=False):
        # a condition whose outcome never varies (K0 never detected) is dropped with its rows;
        # what stays identified (the swap - erase contrast) is still reported
        mdata, drop_notes = drop_constant_levels(mdata, "detected", ["variant", "domain"])
        left = set(mdata["variant"])
        reference = "k0" if "k0" in left else "erase"
        base_X = pd.DataFrame({"const": 1.0}, index=mdata.index)
        base_X = base_X.join(dummies(mdata, "variant", reference)).join(dummies(mdata, "domain"))
        base = fit_logit(mdata["detected"], base_X, mdata["seed_id"], "variant[swap]", drop_notes)
        fits: dict[str, LogitFit | None] = {}
        for key, col in (("recorded", "footprint"), ("measured", "footprint_measured")):
            if col not in mdata.columns or mdata[col].isna().all():
                fits[key] = None
                continue
            use = mdata[mdata[col].notna() & mdata[detectors].notna().all(axis=1)]
            X = base_X.loc[use.index].copy()
            X["log_footprint"] = np.log(np.maximum(use[col].astype(float), FOOTPRINT_FLOOR))
            for det in detectors:
                v = use[det].astype(float)
                X[det] = (v - v.mean()) / v.std(ddof=0) if v.std(ddof=0) > 0 else 0.0
            fits[key] = fit_logit(use["detected"], X, use["seed_id"], "variant[swap]", drop_notes)
        full = fits["recorded"]
        out.append(
            FootprintResult(
                str(model),
                full.n if full else base.n,
                base,
                full,
                fits["measured"],
                list(notes),
                reference,
            )
        )
    return out
