"""PIXAR's columns of ``forgebench export``: one row per current LOC task, the pair it asks about
and its reading as ``forgebench metrics`` stored it (the verdict and the pair's own IoU and F1,
percentages; empty before ``metrics`` has run or for a task without an answer)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from forgebench.run.store import Store
from forgebench.suites.pixar.probe import PROBE_ID
from forgebench.suites.pixar.results import BENCHMARK

if TYPE_CHECKING:
    import pandas as pd

COLUMNS: tuple[str, ...] = (
    "task_key", "pair", "class", "verdict", "iou", "f1", "pred_classes", "regions", "original",
    "edited",
)  # fmt: skip


def export_frame(run_dir: Path) -> pd.DataFrame:
    """The rows (see the module docstring): ``class`` is the pair's truth classes from
    ``--classes`` and ``pred_classes`` the reply's, best first (both ``;``-joined); ``regions``
    counts the reply's boxes and polygons."""
    import pandas as pd

    with Store.open(run_dir, create=False) as store:
        items = store.items(BENCHMARK)
        rows = []
        for r in store.records(BENCHMARK, probes=[PROBE_ID]):
            item = items.get(r.item_id, {})
            detail = r.verdict_detail if r.verdict is not None else {}
            rows.append(
                {
                    "task_key": r.key, "pair": r.item_id,
                    "class": ";".join(item.get("classes") or []),
                    "verdict": r.verdict, "iou": detail.get("iou"), "f1": detail.get("f1"),
                    "pred_classes": ";".join(detail.get("classes") or []),
                    "regions": detail.get("regions"),
                    "original": item.get("original"), "edited": item.get("image"),
                }
            )  # fmt: skip
    return pd.DataFrame(rows, columns=list(COLUMNS))
