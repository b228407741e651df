"""Table 11: single-image vs multi-image input on the same multi-image items (seed 002, Appendix 10).

The paper feeds its video subset to multi-image models twice: the sampled frames pieced into one
image ("Single-Image Prompt", our ``full`` for a video) and the frames as separate images
("Multi-Images Prompt", our ``multi_image``), and reports accuracy per model, models as columns.
We compare the two on exactly the same items: for each model, the items it was asked both ways
(probe ``MCQ``). Rows released with several images that are not videos (a segmentation or
detection question: the item and its candidates) are a block of their own after the video block,
since the paper's table is over videos only; their single-image prompt is ``tiled`` (``full``
shows their images apart, as the release does).

The paired accuracies are stored in ``metrics.csv`` as ``acc`` rows of subset
``multi_image_pair=video`` (conditions ``full`` and ``multi_image``) and
``multi_image_pair=other`` (conditions ``tiled`` and ``multi_image``) (:func:`paired_rows`,
written by scoring when the run has ``multi_image`` answers); :func:`table11` lays them out. An
item without an answer counts as ``Z`` (wrong), as everywhere in the suite.
"""

from __future__ import annotations

import pandas as pd

from forgebench.report.table import Cell, Column, Skipped, Table, num, text
from forgebench.suites.forensics.scores import MetricRow

MULTI = "multi_image"
SUBSET = "multi_image_pair"
BLOCKS = (
    ("video", "Video items (the paper's Table 11)"),
    ("other", "Other multi-image items (the item and its candidates)"),
)
SINGLE = {"video": "full", "other": "tiled"}
"""Each block's single-image condition (its multi-image one is ``multi_image``)."""
LABELS = ("Single-Image Prompt", "Multi-Images Prompt")


def _rows(block: str) -> tuple[tuple[str, str], tuple[str, str]]:
    return (SINGLE[block], LABELS[0]), (MULTI, LABELS[1])


def _block(type_code: str) -> str:
    parts = type_code.split("-")
    return "video" if len(parts) > 1 and parts[1] == "VID" else "other"


def paired_rows(frame: pd.DataFrame) -> list[MetricRow]:
    """The ``multi_image_pair=...`` rows of a score frame (one row per answer, columns of
    :data:`.scores.SCORE_COLUMNS`): per model and block, accuracy under the block's single-image
    condition (``full`` for videos, ``tiled`` for the others) and under ``multi_image``, over the
    items asked both ways."""
    if frame.empty:
        return []
    m = frame[frame["probe"] == "MCQ"]
    out: list[MetricRow] = []
    for model, g in m.groupby("model", sort=True):
        blocks_of = g["type_code"].map(_block)
        for block, _ in BLOCKS:
            pair = [c for c, _label in _rows(block)]
            part = g[(blocks_of == block) & g["condition"].isin(pair)]
            conds = part.groupby("item_id")["condition"].nunique()
            both = set(conds[conds == 2].index)
            if not both:
                continue
            part = part[part["item_id"].isin(both)]
            for cond, _label in _rows(block):
                rows = part[part["condition"] == cond]
                if rows.empty:
                    continue
                judges = sorted({str(j) for j in rows["judge"] if j})
                out.append(
                    MetricRow(
                        str(model), "MCQ", cond, f"{SUBSET}={block}", "acc",
                        100.0 * float(rows["correct"].sum()) / len(rows), len(rows),
                        ",".join(judges),
                    )
                )  # fmt: skip
    return out


def table11(metrics: pd.DataFrame) -> Table | Skipped:
    """Table 11 in the paper's layout: one column per model, a Single-Image and a Multi-Images
    row per block (video items, then other multi-image items), accuracy (%) on the same items."""
    m = metrics[
        (metrics["benchmark"] == "forensics")
        & (metrics["probe"] == "MCQ")
        & (metrics["metric"] == "acc")
        & metrics["subset"].str.startswith(f"{SUBSET}=")
    ]
    if m.empty:
        return Skipped(11, "no multi_image answers (--protocol studies)")
    models = sorted(set(m["model"]))
    value = {
        (str(x), str(c), str(s)): (float(v), int(n))
        for x, c, s, v, n in zip(
            m["model"], m["condition"], m["subset"], m["value"], m["n"], strict=True
        )
    }
    sections: list[tuple[str | None, list[list[Cell]]]] = []
    for block, heading in BLOCKS:
        subset = f"{SUBSET}={block}"
        if not any(k[2] == subset for k in value):
            continue
        rows = []
        for cond, label in _rows(block):
            got = [value.get((x, cond, subset)) for x in models]
            rows.append([text(label), *(num(v[0] if v else None) for v in got)])
        n = sorted({v[1] for k, v in value.items() if k[2] == subset and k[1] == MULTI})
        items = "/".join(str(x) for x in n)
        sections.append((f"{heading}, {items} items", rows))
    return Table(
        11,
        "Accuracy (%) with the frames (or images) of each multi-image item pieced into one image "
        "(Single-Image Prompt: condition full for videos, tiled for the others) and as separate "
        "images (Multi-Images Prompt, condition multi_image), on the items each model was asked "
        "both ways.",
        [Column("Model"), *(Column(x) for x in models)],
        sections,
    )
