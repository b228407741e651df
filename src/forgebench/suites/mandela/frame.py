"""The row-level frame: one row per task of a run, with its answer, verdict, grade and item attributes.

:func:`load_frame` is what metrics, statistics, the report and ``forgebench export`` read. It holds
**every task** of the run, answered or not, because strict scoring (seed 000, Table 2: "strict
scoring") divides by every item of a population: a task without an answer (an error, or not yet
run) has ``verdict = "MISS"`` and ``status`` ``error`` / ``pending``, so it counts as not detected /
not correct under strict scoring and is left out under parsed-only scoring (Table 18), like any miss.

Columns:

- task: ``task_key, model, item_id, probe, condition, status`` (``answered`` / ``error`` /
  ``pending``), ``text, finish_reason, input_tokens, output_tokens, latency_s``;
- verdict: ``verdict`` (REAL/FAKE/YES/NO/RECOGNISED/NOT_RECOGNISED/NAMES/CANNOT/KNOWN/UNKNOWN/MISS),
  ``miss_why``, ``correct`` (nullable bool, REAL/FAKE probes only: FAKE on forged, REAL on authentic),
  ``names_erased`` / ``names_principal`` / ``names_entity`` (the answer asserts that person; read on
  every probe, so L0's "Named" of Table 3 comes from the L0 answer itself), ``l2_cannot`` (the answer
  says someone cannot be identified), ``recog_year``;
- grade (of ``judge``): ``level`` (nullable Int64 0-4), ``grade_status`` (``graded`` / ``auto`` /
  ``unscored`` / NA), ``judge``, ``judge_reason``; ``uptake`` / ``dispute`` (1 / 0 / NA: the same
  judge's Table 11 judgement of a wrong-caption answer, ``uptake.py``);
- item: ``seed_id, label, family, analysis_family, control_for, k1_type, variant, domain, saliency,
  noun`` and the populations ``peripheral`` (forged with saliency C2/C3, DESIGN.md),
  ``peripheral_k1`` (peripheral and family K1), ``seed_peripheral_k1`` (the item's seed has a
  peripheral K1 forgery: true for the authentic originals of Table 3's sweep), ``named_insertion``
  (forged K1 with a named entity that is not an absent-celebrity erasure: the TEXT probe's items),
  ``has_principal`` (the scene has named principal figures), ``has_faces``; the optional audit
  fields ``footprint``, ``footprint_measured``, ``npr_score``, ``ufd_score`` (NaN when absent;
  Table 20) and ``face_sim_border`` (the face similarity lies within 0.05 of its threshold; None
  without a face similarity; Table 15).

Answers whose stored verdict is missing or of an older parser version are parsed in memory with
the current parser (the same result ``forgebench judge`` / ``metrics`` store). The detail flags are
read from the stored JSON (written by ``json.dumps`` with its default separators) with vectorised
string matching.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from forgebench.errors import UserError
from forgebench.run.rundir import RunDir
from forgebench.run.store import Store
from forgebench.run.store.columns import JudgedColumns
from forgebench.suites.mandela.contract import FaceSimilarity
from forgebench.suites.mandela.parse_run import BENCHMARK, GRADE_KIND
from forgebench.suites.mandela.verdict import (
    PARSER_VERSION,
    REAL_FAKE_PROBES,
    NameTargets,
    parse_answer,
)

ITEM_COLUMNS = (
    "seed_id",
    "label",
    "family",
    "analysis_family",
    "control_for",
    "k1_type",
    "variant",
    "domain",
    "saliency",
    "noun",
    "peripheral",
    "peripheral_k1",
    "seed_peripheral_k1",
    "named_insertion",
    "has_principal",
    "has_faces",
    "footprint",
    "footprint_measured",
    "npr_score",
    "ufd_score",
    "face_sim_border",
)

_TASK_COLUMNS = (
    "task_key", "model", "item_id", "probe", "condition", "name_source", "text", "finish_reason",
    "input_tokens", "output_tokens", "latency_s", "answered", "errored", "verdict", "detail",
    "parser_version", "level", "grade_status", "judge_reason", "uptake", "dispute",
)  # fmt: skip


_FROM_STORE = (
    ("task_key", "key"), ("model", "model"), ("item_id", "item_id"), ("probe", "probe"),
    ("condition", "condition"), ("name_source", "extra.name_source"), ("text", "text"),
    ("finish_reason", "finish_reason"), ("input_tokens", "input_tokens"),
    ("output_tokens", "output_tokens"), ("latency_s", "latency_s"), ("answered", "answered"),
    ("errored", "errored"), ("verdict", "verdict"), ("detail", "verdict_json"),
    ("parser_version", "parser_version"), ("level", "j0.level"), ("grade_status", "j0.status"),
    ("judge_reason", "j0.reason"), ("uptake", "j1.uptake"), ("dispute", "j1.dispute"),
)  # fmt: skip
"""The task table's columns and the store's columns they come from (``Store.task_columns``)."""


def _column(values: pa.ChunkedArray) -> Any:
    """An Arrow column as pandas infers the same values from Python objects: all missing ->
    object (None); text -> ``str``; integers -> int64, float64 when some are missing."""
    n = len(values)
    if values.null_count == n:
        return np.full(n, None, dtype=object)
    if pa.types.is_large_string(values.type) or pa.types.is_string(values.type):
        return pd.Series(values.combine_chunks(), dtype="str", copy=False)
    if values.null_count or pa.types.is_floating(values.type):
        return values.to_numpy().astype("float64", copy=False)
    return values.to_numpy()


def _task_table(store: Store, judge: str | None) -> pd.DataFrame:
    """Every current Mandela task with its answer, error, verdict, ``judge``'s grade and uptake
    judgement (other benchmarks' tasks share the store), read column-wise."""
    table = store.task_columns(
        BENCHMARK,
        extra=["name_source"],
        judged=[
            JudgedColumns(judge or "", GRADE_KIND, ("level", "status", "reason")),
            JudgedColumns(judge or "", "uptake", (), ("uptake", "dispute")),
        ],
    )
    return pd.DataFrame(
        {name: _column(table.column(source)) for name, source in _FROM_STORE},
        columns=list(_TASK_COLUMNS),
    )


class FrameError(UserError, ValueError):
    """A run that cannot be read as asked (no store, unknown judge); one clear line."""


def connect(run_dir: Path) -> Store:
    """The run's store (:class:`FrameError` when there is none); close it when done."""
    if not RunDir(run_dir).is_run():
        raise FrameError(RunDir(run_dir).not_a_run())
    return Store.open(run_dir, create=False)


def judges(store: Store) -> list[str]:
    """Judge names with grades in the run, sorted."""
    return store.judges(GRADE_KIND)


def resolve_judge(store: Store, judge: str | None) -> str | None:
    """The judge to use: ``judge`` if it graded this run; else the only judge; None if none.

    Several judges and no choice, or a judge that graded nothing here, is a :class:`FrameError`.
    """
    have = judges(store)
    if judge is not None:
        if judge not in have:
            known = ", ".join(have) if have else "none"
            raise FrameError(f"judge {judge!r} has no grades in this run (judges: {known})")
        return judge
    if len(have) > 1:
        raise FrameError(
            f"several judges graded this run ({', '.join(have)}); choose one with --judge"
        )
    return have[0] if have else None


def _audit_columns(it: dict[str, Any]) -> dict[str, Any]:
    """The optional audit fields (footprints, detector scores) and Table 15's border flag
    (None when the item has no face similarity)."""
    out: dict[str, Any] = {
        k: it.get(k) for k in ("footprint", "footprint_measured", "npr_score", "ufd_score")
    }
    sim = it.get("face_similarity")
    out["face_sim_border"] = (
        FaceSimilarity.model_validate(sim).borderline if isinstance(sim, dict) else None
    )
    return out


def _item_table(store: Store) -> tuple[pd.DataFrame, dict[str, NameTargets]]:
    rows: list[dict[str, Any]] = []
    targets: dict[str, NameTargets] = {}
    raw = store.items(BENCHMARK)
    k1_seeds = {
        it.get("seed_id")
        for it in raw.values()
        if it.get("label") == "forged"
        and it.get("saliency") in ("C2", "C3")
        and it.get("family") == "K1"
    }
    for iid, it in raw.items():
        forged = it.get("label") == "forged"
        family = it.get("family")
        entity = it.get("entity") or {}
        peripheral = forged and it.get("saliency") in ("C2", "C3")
        rows.append(
            {
                "item_id": iid,
                "seed_id": it.get("seed_id"),
                "label": it.get("label"),
                "family": family,
                "analysis_family": it.get("control_for")
                if family == "K0" and it.get("control_for")
                else family,
                "control_for": it.get("control_for"),
                "k1_type": it.get("k1_type"),
                "variant": it.get("variant"),
                "domain": it.get("domain"),
                "saliency": it.get("saliency"),
                "noun": it.get("noun"),
                "peripheral": peripheral,
                "peripheral_k1": peripheral and family == "K1",
                "seed_peripheral_k1": it.get("seed_id") in k1_seeds,
                "named_insertion": bool(
                    forged
                    and family == "K1"
                    and entity.get("name")
                    and it.get("variant") != "erase"
                    and it.get("k1_type") != "absent_celebrity"
                ),
                "has_principal": bool(it.get("principal_figures")),
                "has_faces": bool(it.get("faces")),
                **_audit_columns(it),
            }
        )
        targets[iid] = NameTargets.from_item(it)
    table = pd.DataFrame(rows, columns=["item_id", *ITEM_COLUMNS])
    return table, targets


def _extract(detail: pd.Series, key: str, pattern: str) -> pd.Series:
    """``detail.str.extract(pattern)``, the regular expression run only on the details that name
    ``key`` at all (a plain substring scan; most details are ``{}``)."""
    has = detail.str.contains(key, regex=False).to_numpy(dtype=bool)
    out = pd.Series(np.nan, index=detail.index, dtype=detail.dtype)
    if has.any():
        out[has] = detail[has].str.extract(pattern, expand=False)
    return out


def _details(df: pd.DataFrame, targets: dict[str, NameTargets]) -> pd.DataFrame:
    stale = df["answered"].astype(bool) & (df["parser_version"] != PARSER_VERSION)
    if stale.any():
        sub = df.loc[stale, ["item_id", "probe", "text", "finish_reason"]]
        parsed = [
            parse_answer(p, t, targets.get(i, NameTargets()), fr)
            for i, p, t, fr in sub.itertuples(index=False, name=None)
        ]
        df.loc[stale, "verdict"] = [v.verdict for v in parsed]
        df.loc[stale, "detail"] = [json.dumps(v.detail) for v in parsed]
    df.loc[~df["answered"].astype(bool), "verdict"] = "MISS"
    detail = df["detail"].fillna("{}").astype(str)
    df["miss_why"] = _extract(detail, '"why"', r'"why":\s*"([^"]*)"')
    df.loc[df["errored"].astype(bool) & ~df["answered"].astype(bool), "miss_why"] = "error"
    df.loc[~df["errored"].astype(bool) & ~df["answered"].astype(bool), "miss_why"] = "pending"
    # details are written by json.dumps with its default separators (parse_run, above)
    for col in ("names_erased", "names_principal", "names_entity"):
        df[col] = detail.str.contains(f'"{col}": true', regex=False)
    df["l2_cannot"] = detail.str.contains('"cannot": true', regex=False)
    year = _extract(detail, '"year"', r'"year":\s*(\d+)')
    df["recog_year"] = pd.to_numeric(year, errors="coerce").astype("Int64")
    return df.drop(columns=["detail", "parser_version"])


def load_frame(run_dir: Path, judge: str | None = None) -> pd.DataFrame:
    """The run's row-level frame (see the module docstring), with the grades of ``judge``
    (resolved by :func:`resolve_judge`: the only judge when None)."""
    store = connect(Path(run_dir))
    try:
        judge = resolve_judge(store, judge)
        df = _task_table(store, judge)
        items, targets = _item_table(store)
    finally:
        store.close()
    df = _details(df, targets)
    df["status"] = "pending"
    df.loc[df["errored"].astype(bool), "status"] = "error"
    df.loc[df["answered"].astype(bool), "status"] = "answered"
    df = df.drop(columns=["answered", "errored"])
    df = df.merge(items, on="item_id", how="left")
    rf = df["probe"].isin(REAL_FAKE_PROBES)
    forged, authentic = df["label"] == "forged", df["label"] == "authentic"
    correct = ((df["verdict"] == "FAKE") & forged) | ((df["verdict"] == "REAL") & authentic)
    df["correct"] = correct.astype("boolean")
    df.loc[~rf, "correct"] = pd.NA
    df["level"] = df["level"].astype("Int64")
    df["judge"] = pd.Series(pd.NA, index=df.index, dtype="object")
    if judge is not None:
        df.loc[df["grade_status"].notna(), "judge"] = judge
    for col in (
        "peripheral",
        "peripheral_k1",
        "seed_peripheral_k1",
        "named_insertion",
        "has_principal",
        "has_faces",
    ):
        df[col] = df[col].fillna(False).astype(bool)
    for col in ("input_tokens", "output_tokens"):
        df[col] = df[col].astype("Int64")
    return df
