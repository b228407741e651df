"""Prompt-study conditions: tiling, YuNet face boxes, which items each applies to."""

from __future__ import annotations

import numpy as np
import pytest
import skimage.data
from PIL import Image

from forgebench.suites.forensics.contract import ForensicsItem
from forgebench.suites.forensics.studies import (
    applies,
    candidate_row,
    detect_faces,
    draw_face_boxes,
    shown_apart,
    tile,
)


def _item(modality: str, task: str, n_images: int, semantic: str = "HS") -> ForensicsItem:
    return ForensicsItem(
        id="1", images=[f"images/{k}.png" for k in range(n_images)], question="q?",
        options={"A": "a", "B": "b"}, answer="A", semantic=semantic, modality=modality,
        task=task, type="FSS", model="ED",
    )  # fmt: skip


def test_tile_places_frames_row_major() -> None:
    frames = [Image.new("RGB", (10, 8), (k * 40, 0, 0)) for k in range(5)]
    out = tile(frames)
    assert out.size == (30, 16)  # 3 columns, 2 rows
    arr = np.asarray(out)
    assert tuple(arr[0, 0]) == (0, 0, 0) and tuple(arr[0, 10]) == (40, 0, 0)
    assert tuple(arr[8, 10]) == (160, 0, 0) and tuple(arr[8, 25]) == (0, 0, 0)  # empty cell
    with pytest.raises(ValueError):
        tile([])


def test_face_boxes_on_a_real_photograph() -> None:
    photo = Image.fromarray(skimage.data.astronaut())
    boxes = detect_faces(photo)
    assert len(boxes) == 1
    x0, y0, x1, y1 = boxes[0]
    assert 150 < x0 < 200 and 40 < y0 < 90 and 240 < x1 < 300 and 150 < y1 < 200
    drawn = np.asarray(draw_face_boxes(photo))
    assert tuple(drawn[y0, (x0 + x1) // 2]) == (255, 0, 0)
    assert detect_faces(Image.new("RGB", (200, 200), (90, 90, 90))) == []


def test_which_items_each_condition_applies_to() -> None:
    video = _item("VID", "BC", 8)
    assert applies(video, "multi_image") and not shown_apart(video, "full")  # frames tiled
    assert not candidate_row(video) and not applies(video, "tiled")
    assert not applies(_item("VID", "BC", 1), "multi_image")
    seg = _item("RGB", "SLS", 5)  # the item and its four candidate maps
    assert applies(seg, "multi_image") and candidate_row(seg) and applies(seg, "tiled")
    assert shown_apart(seg, "full") and shown_apart(seg, "multi_image")
    assert not shown_apart(seg, "tiled") and not shown_apart(seg, "prefix")
    assert not candidate_row(_item("RGB", "BC", 1)) and not applies(_item("RGB", "SLS", 1), "tiled")
    assert applies(_item("RGB", "BC", 1), "face_boxes")
    assert not applies(_item("RGB", "BC", 1, "GS"), "face_boxes")
    assert not applies(_item("RGB", "SLD", 1), "face_boxes")
    assert applies(_item("RGB", "SLD", 1), "prefix")
