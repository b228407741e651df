"""The viewer's answers, column-wise: read, ordered and turned into facets and page columns
without one Python object per answer.

A 25-model run of the Forensics release holds 1.6 million answers. They are read with the
store's column-wise read (:meth:`forgebench.run.store.Store.task_columns`), placed by item (the
viewer's item order) and, within an item, by model, probe and condition (ties in stored order);
an answer's verdict facet, level facet and note are computed once per distinct combination of
what decides them (a suite's viewer facet's ``answer`` sees each combination once), and each data
page takes its answers as one slice of every column (:class:`.site_pages.PageAnswers`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from forgebench.models.base import ImageRef
from forgebench.report.facets import ERROR, NOT_GRADED, PENDING, UNSCORED, AnswerView
from forgebench.run.store import GRADE_KIND, Store
from forgebench.run.store.columns import JudgedColumns
from forgebench.run.store.rows import json_object, shown_refs

if TYPE_CHECKING:
    import pyarrow as pa

_IMAGES = ("variant_id", "image_path", "media_type", "images_json")
_ASKED = ("benchmark", "error", *_IMAGES)
_SHOWN = (
    "benchmark", "item_id", "model", "probe", "condition", "text", "answered", "verdict",
    "verdict_json", "error", "j0.level", "j0.status", "j0.reason", *_IMAGES,
)  # fmt: skip


def _codes(values: pa.Array) -> tuple[np.ndarray, list[Any]]:
    """Each value's position among the distinct values (None is one of them) and those values."""
    import pyarrow.compute as pc

    if hasattr(values, "combine_chunks"):
        values = values.combine_chunks()
    encoded = pc.dictionary_encode(values, null_encoding="encode")
    return encoded.indices.to_numpy(zero_copy_only=False).astype(
        np.int64
    ), encoded.dictionary.to_pylist()


def _combined(parts: Sequence[tuple[np.ndarray, int]]) -> np.ndarray:
    """One integer per row for several per-row codes (``(codes, how many distinct)``)."""
    key = np.zeros(len(parts[0][0]) if parts else 0, dtype=np.int64)
    for codes, size in parts:
        key = key * max(size, 1) + codes
    return key


def shown_facets(
    benchmark: str,
    verdict: str | None,
    detail: str | None,
    answered: bool,
    errored: bool,
    level: int | None,
    grade_status: str | None,
    views: Mapping[str, AnswerView],
) -> tuple[str, str, str]:
    """An answer's verdict facet, level facet and note (how its verdict was found): the
    suite's view of its verdict, ``ERROR`` / ``PENDING`` without an answer, ``E<level>`` /
    ``unscored`` / ``none`` for its grade."""
    view = views.get(benchmark)
    shown, note = (verdict, "") if view is None else view(verdict, json_object(detail))
    if not shown or not answered:
        shown = ERROR if errored else PENDING
    if level is not None:
        grade = f"E{level}"
    else:
        grade = UNSCORED if grade_status == "unscored" else NOT_GRADED
    return shown, grade, note


@dataclass
class ViewerAnswers:
    """Every answer of the viewer's items in its order, column-wise: item ``k``'s answers are
    rows ``starts[k]:starts[k + 1]``."""

    table: pa.Table
    """``benchmark, item_id, model, probe, condition, text, verdict, verdict_json, error,
    level, status, reason, answered`` and the images' columns, one row per answer."""
    starts: np.ndarray
    models: list[str]
    probes: list[str]
    conditions: list[str]
    model_pos: np.ndarray
    probe_pos: np.ndarray
    condition_pos: np.ndarray

    def __len__(self) -> int:
        return self.table.num_rows

    def column(self, name: str) -> list[Any]:
        return self.table.column(name).to_pylist()

    def facets(
        self, views: Mapping[str, AnswerView]
    ) -> tuple[list[tuple[str, str, str]], np.ndarray]:
        """The distinct (verdict facet, level facet, note) of the answers and each answer's
        position among them; ``views`` (by benchmark) sees each distinct case once."""
        import pyarrow.compute as pc

        t = self.table
        answered = t.column("answered").to_numpy(zero_copy_only=False).astype(bool)
        error = t.column("error")
        errored = ~answered & pc.fill_null(pc.greater(pc.binary_length(error), 0), False).to_numpy(
            zero_copy_only=False
        )
        columns = [_codes(t.column(n)) for n in ("benchmark", "verdict", "verdict_json", "status")]
        level, levels = _codes(t.column("level"))
        parts = [(c, len(v)) for c, v in columns] + [(level, len(levels))]
        parts += [(answered.astype(np.int64), 2), (errored.astype(np.int64), 2)]
        _keys, first, inverse = np.unique(_combined(parts), return_index=True, return_inverse=True)
        out = []
        for row in first.tolist():
            bm, verdict, detail, status = (vals[c[row]] for c, vals in columns)
            yes = bool(answered[row])
            out.append(
                shown_facets(
                    bm or "",
                    verdict if yes else None,
                    detail if yes else None,
                    yes,
                    bool(errored[row]),
                    levels[level[row]],
                    status,
                    views,
                )
            )
        return out, inverse.reshape(-1)

    def image_groups(self) -> tuple[list[tuple[ImageRef, ...]], np.ndarray]:
        """The distinct image lists the answers' tasks showed and each answer's position among
        them."""
        columns = [_codes(self.table.column(n)) for n in _IMAGES]
        key = _combined([(c, len(v)) for c, v in columns])
        _keys, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        groups = [shown_refs(*(vals[c[row]] for c, vals in columns)) for row in first.tolist()]
        return groups, inverse.reshape(-1)


def read_answers(
    store: Store,
    judge: str | None,
    items: Sequence[tuple[str, str]],
    extra: Sequence[Mapping[str, Any]] = (),
) -> ViewerAnswers:
    """The answers of ``items`` (``(benchmark, item id)`` in the viewer's order) with ``judge``'s
    grades, column-wise; tasks of items the run does not hold are left out. ``extra``: answers
    that are no task (pairs scored from files, :func:`.site_data.scored_pairs`), as rows of the
    same columns (those not given are empty)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    table = store.task_columns(
        judged=[JudgedColumns(judge or "", GRADE_KIND, ("level", "status", "reason"))],
        columns=_ASKED,
    )
    if extra:
        more = pa.Table.from_pylist([dict(r) for r in extra], schema=table.schema)
        table = pa.concat_tables([table, more])
    sep = "\x1f"
    keys = pc.binary_join_element_wise(
        table.column("benchmark"), table.column("item_id"), pa.scalar(sep, pa.large_string())
    )
    wanted = pa.array([f"{bm}{sep}{item}" for bm, item in items], type=pa.large_string())
    pos = pc.index_in(keys, value_set=wanted)
    table = table.select(_SHOWN)  # what the viewer shows: the rest is never held twice
    if pos.null_count:
        kept = pc.is_valid(pos)
        table, pos = table.filter(kept), pc.filter(pos, kept)
    pos_np = pos.to_numpy(zero_copy_only=False).astype(np.int64)

    def vocabulary(name: str) -> tuple[list[str], np.ndarray]:
        values = sorted(str(v) for v in pc.unique(table.column(name)).to_pylist())
        at = pc.index_in(table.column(name), value_set=pa.array(values, type=pa.large_string()))
        return values, at.to_numpy(zero_copy_only=False).astype(np.int64)

    models, m_pos = vocabulary("model")
    probes, p_pos = vocabulary("probe")
    conditions, c_pos = vocabulary("condition")
    order = np.lexsort((c_pos, p_pos, m_pos, pos_np))  # stable: ties keep the stored order
    table = table.take(pa.array(order)).rename_columns(
        [
            {"j0.level": "level", "j0.status": "status", "j0.reason": "reason"}.get(n, n)
            for n in table.column_names
        ]
    )
    starts = np.searchsorted(pos_np[order], np.arange(len(items) + 1), side="left")
    return ViewerAnswers(
        table=table,
        starts=starts.astype(np.int64),
        models=models,
        probes=probes,
        conditions=conditions,
        model_pos=m_pos[order],
        probe_pos=p_pos[order],
        condition_pos=c_pos[order],
    )


def pack_codes(digits: Sequence[np.ndarray], radix: Sequence[int]) -> np.ndarray:
    """Each answer's facets (model, probe, condition, verdict, level positions) as one integer,
    mixed radix, the model most significant: one number per answer keeps the index small."""
    code = np.zeros(len(digits[0]) if digits else 0, dtype=np.int64)
    for d, r in zip(digits, radix, strict=True):
        code = code * r + d
    return code
