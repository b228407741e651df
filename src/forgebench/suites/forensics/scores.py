"""Forensics scores: accuracy over items, per type code, per perspective value, per perspective.

- ``acc`` (subset ``all``): the share of items answered with the right letter (``Z`` is wrong).
- ``acc`` per type code (subset ``HS-RGB-BC-ES-DF``) and per perspective value (subset
  ``semantic=HS``, ``modality=RGB&TXT``, ...): the same share over those items.
- ``persp`` (subset ``semantic``, ``modality``, ``task``, ``type``, ``model``): the mean over the
  perspective's values of the mean accuracy of the type codes having that value; a composite value
  (``FE&FT``, ``ED&GR``) is a value of its own. This is what the release's ``summary_scores.py``
  computes from the per-type accuracies (``wrap_load_data``, then ``np.mean`` over the values),
  and it reproduces seed 002 Table 2's five perspective columns from Tables 15-26 within 0.1
  point for all 25 models (``tests/suites/forensics/test_scores.py``).
- ``by_letter``, ``by_text``, ``by_embed``, ``by_extractor``, ``z``: how the letters were found,
  as shares of the answers (they sum to 100): the rules' letter step, their text step,
  ``builtin/embed``, the LLM extractor with an option letter, and ``Z`` by any route (refusal,
  conflict, nothing found, or the extractor saying Z).

Values are percentages (0-100, unrounded); ``n`` is the number of items behind the value.
``judge`` names the extractors (``builtin/embed``, an LLM) that decided any answer of that
model, probe and condition, and is empty when the rules alone decided.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from forgebench.results.metrics_csv import Scope, write_metrics
from forgebench.suites.forensics.taxonomy import PERSPECTIVES

BENCHMARK = "forensics"
GROUP = ["model", "probe", "condition"]
SHARES = ("by_letter", "by_text", "by_embed", "by_extractor", "z")
SCORE_COLUMNS = ("model", "probe", "condition", "item_id", "type_code", "correct", "step", "judge")
"""The frame :func:`metric_rows` reads: one row per answer; ``correct`` is bool, ``step`` one of
:data:`.extract.STEPS`, ``judge`` the extractor's name or ``""``."""


@dataclass(frozen=True)
class MetricRow:
    """One metrics.csv row (DESIGN.md "Run directory")."""

    model: str
    probe: str
    condition: str
    subset: str
    metric: str
    value: float
    n: int
    judge: str = ""
    benchmark: str = BENCHMARK


def perspective_scores(acc_by_code: Mapping[str, float]) -> dict[str, float]:
    """Each perspective's score from per-type-code accuracies (see the module docstring)."""
    out: dict[str, float] = {}
    for pos, perspective in enumerate(PERSPECTIVES):
        by_value: dict[str, list[float]] = {}
        for code, acc in acc_by_code.items():
            by_value.setdefault(code.split("-")[pos], []).append(float(acc))
        out[perspective] = float(np.mean([np.mean(v) for v in by_value.values()]))
    return out


def _group_rows(
    key: tuple[str, str, str], codes: pd.DataFrame, steps: pd.Series
) -> Iterator[MetricRow]:
    """Rows of one (model, probe, condition) from its per-type-code counts and step shares."""
    model, probe, condition = key
    judge = str(steps.attrs.get("judge", ""))
    n = int(codes["n"].sum())

    def row(subset: str, metric: str, value: float, count: int) -> MetricRow:
        return MetricRow(model, probe, condition, subset, metric, value, count, judge)

    yield row("all", "acc", 100.0 * float(codes["right"].sum()) / n, n)
    for code, r in codes.iterrows():
        yield row(str(code), "acc", 100.0 * float(r["right"]) / float(r["n"]), int(r["n"]))
    parts = pd.Series(codes.index, index=codes.index).str.split("-", expand=True)
    for pos, perspective in enumerate(PERSPECTIVES):
        per_value = codes.groupby(parts[pos].to_numpy(), sort=True)[["right", "n"]].sum()
        for value, r in per_value.iterrows():
            yield row(
                f"{perspective}={value}",
                "acc",
                100.0 * float(r["right"]) / float(r["n"]),
                int(r["n"]),
            )
    acc = {str(c): 100.0 * float(r["right"]) / float(r["n"]) for c, r in codes.iterrows()}
    persp = perspective_scores(acc)
    for perspective in PERSPECTIVES:
        yield row(perspective, "persp", persp[perspective], n)
    for metric in SHARES:
        yield row("all", metric, 100.0 * float(steps.get(metric, 0)) / n, n)


def _codes(values: object) -> tuple[np.ndarray, np.ndarray]:
    codes, uniques = pd.factorize(pd.Series(values), sort=True)
    return np.asarray(codes, dtype=np.int64), np.asarray(uniques, dtype=object)


def metric_rows(frame: pd.DataFrame) -> list[MetricRow]:
    """All metric rows of the answers in ``frame`` (columns :data:`SCORE_COLUMNS`, plus
    ``letter`` when available: without it ``Z`` is read from the steps ``refusal``/``none``).

    One pass counts the answers per (model, probe, condition, type code) and per extraction share
    (integer keys and ``np.bincount``); every metric is then computed from those small tables.
    """
    missing = [c for c in SCORE_COLUMNS if c not in frame]
    if missing:
        raise ValueError(f"score frame lacks column(s) {missing}")
    if frame.empty:
        return []
    step = np.asarray(frame["step"], dtype=object)
    letters = np.asarray(frame["letter"], dtype=object) if "letter" in frame else None
    is_z = (
        (letters == "Z") if letters is not None else np.isin(step, ["refusal", "none", "missing"])
    )
    group_codes = [_codes(frame[c]) for c in GROUP]
    g = np.zeros(len(frame), dtype=np.int64)
    for codes, uniques in group_codes:
        g = g * len(uniques) + codes
    tcode, tnames = _codes(frame["type_code"])
    n_groups = int(np.prod([len(u) for _, u in group_codes]))
    key = g * len(tnames) + tcode
    size = n_groups * len(tnames)
    right = np.bincount(key, weights=np.asarray(frame["correct"], dtype=bool), minlength=size)
    count = np.bincount(key, minlength=size)
    share_masks = {
        "by_letter": (step == "letter") & ~is_z,
        "by_text": (step == "text") & ~is_z,
        "by_embed": (step == "embed") & ~is_z,
        "by_extractor": (step == "extractor") & ~is_z,
        "z": is_z,
    }
    shares = {
        m: np.bincount(g, weights=mask, minlength=n_groups) for m, mask in share_masks.items()
    }
    judge_col = np.asarray(frame["judge"], dtype=object)
    by_extractor = np.isin(step, ["extractor", "embed"])
    out: list[MetricRow] = []
    for gi in np.unique(g):
        idx, names = int(gi), []
        for _c, uniques in reversed(group_codes):
            idx, r = divmod(idx, len(uniques))
            names.append(str(uniques[r]))
        model, probe, condition = reversed(names)
        lo = int(gi) * len(tnames)
        n_code = count[lo : lo + len(tnames)]
        present = np.nonzero(n_code)[0]
        codes_table = pd.DataFrame(
            {"right": right[lo : lo + len(tnames)][present], "n": n_code[present]},
            index=pd.Index([str(t) for t in tnames[present]], name="type_code"),
        )
        steps = pd.Series({m: float(v[gi]) for m, v in shares.items()})
        judges = sorted({str(j) for j in judge_col[(g == gi) & by_extractor] if j})
        steps.attrs["judge"] = ",".join(judges)
        out.extend(_group_rows((model, probe, condition), codes_table, steps))
    return out


def write_forensics_metrics(run_dir: Path, rows: list[MetricRow]) -> Path:
    """Replace the Forensics rows of ``RUN/metrics.csv`` for the models in ``rows`` (every other
    benchmark's and model's rows are kept; :mod:`forgebench.results.metrics_csv`)."""
    scope = Scope.of(BENCHMARK, models={r.model for r in rows})
    return write_metrics(run_dir, [asdict(r) for r in rows], scope)
