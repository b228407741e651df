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
- ``by_letter``, ``by_text``, ``by_extractor``, ``z``: how the letters were found, as shares of
  the answers (they sum to 100): the letter step, the text step, the extractor with an option
  letter, and ``Z`` by any route (refusal, nothing found, or the extractor saying Z).

Values are percentages (0-100, unrounded); ``n`` is the number of items behind the value.
``judge`` names the extractor when it decided any answer of that model, probe and condition,
and is empty when the rules alone decided.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from forgebench.suites.forensics.taxonomy import PERSPECTIVES

BENCHMARK = "forensics"
GROUP = ["model", "probe", "condition"]
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


def _group_rows(key: tuple[str, str, str], g: pd.DataFrame) -> Iterator[MetricRow]:
    model, probe, condition = key
    steps = g["step"].to_numpy()
    judges = sorted({j for j in g.loc[steps == "extractor", "judge"] if j})
    judge = ",".join(judges)
    correct = g["correct"].to_numpy(dtype=bool)
    n = len(g)

    def row(subset: str, metric: str, value: float, count: int) -> MetricRow:
        return MetricRow(model, probe, condition, subset, metric, value, count, judge)

    yield row("all", "acc", 100.0 * correct.mean(), n)
    per_code = g.groupby("type_code", sort=True)["correct"].agg(["mean", "size"])
    for code, r in per_code.iterrows():
        yield row(str(code), "acc", 100.0 * float(r["mean"]), int(r["size"]))
    parts = g["type_code"].str.split("-", expand=True)
    for pos, perspective in enumerate(PERSPECTIVES):
        per_value = g.groupby(parts[pos], sort=True)["correct"].agg(["mean", "size"])
        for value, r in per_value.iterrows():
            yield row(f"{perspective}={value}", "acc", 100.0 * float(r["mean"]), int(r["size"]))
    persp = perspective_scores({str(c): 100.0 * float(m) for c, m in per_code["mean"].items()})
    for perspective in PERSPECTIVES:
        yield row(perspective, "persp", persp[perspective], n)
    letters = g["letter"].to_numpy() if "letter" in g else None
    is_z = (letters == "Z") if letters is not None else np.isin(steps, ["refusal", "none"])
    shares = {
        "by_letter": (steps == "letter") & ~is_z,
        "by_text": (steps == "text") & ~is_z,
        "by_extractor": (steps == "extractor") & ~is_z,
        "z": is_z,
    }
    for metric, mask in shares.items():
        yield row("all", metric, 100.0 * float(mask.mean()), n)


def metric_rows(frame: pd.DataFrame) -> list[MetricRow]:
    """All metric rows of the answers in ``frame`` (columns :data:`SCORE_COLUMNS`, plus
    ``letter`` when available)."""
    missing = [c for c in SCORE_COLUMNS if c not in frame]
    if missing:
        raise ValueError(f"score frame lacks column(s) {missing}")
    out: list[MetricRow] = []
    for key, g in frame.groupby(GROUP, sort=True):
        out.extend(_group_rows((str(key[0]), str(key[1]), str(key[2])), g))
    return out
