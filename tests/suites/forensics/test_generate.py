"""Question generators: the right answer is always among the options, at the stated letter."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from forgebench.suites.forensics.generate import (
    NOTHING,
    binary,
    box_iou,
    detection,
    frame_list,
    sample_frames,
    segmentation,
    temporal,
)

P = {"semantic": "HS", "modality": "RGB", "task": "BC", "type": "FE", "model": "ED"}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    rng = np.random.default_rng(0)
    (tmp_path / "images").mkdir()
    Image.fromarray(rng.integers(0, 256, (120, 160, 3), dtype=np.uint8)).save(
        tmp_path / "images/x.png"
    )
    return tmp_path


def _candidate_image(root: Path, item, letter: str) -> np.ndarray:  # type: ignore[no-untyped-def]
    n = int(item.options[letter].split()[-1])
    return np.asarray(Image.open(root / item.images[n]).convert("RGB"), dtype=np.int16)


def test_binary_wordings_and_seeded_order() -> None:
    letters = set()
    for i in range(40):
        es = binary(str(i), "images/x.png", {**P, "type": "ES", "model": "DF"}, seed=1)
        assert set(es.options.values()) == {"AI-generated", "non AI-generated"}
        assert es.options[es.answer] == "AI-generated"
        letters.add(es.answer)
        fe = binary(str(i), "images/x.png", P, seed=1)
        assert fe.options[fe.answer] == "AI-manipulated"
        real = binary(str(i), "images/x.png", {**P, "type": "REAL", "model": "REAL"}, seed=1)
        assert real.options[real.answer] == "non AI-generated"
    assert letters == {"A", "B"}
    assert binary("7", "images/x.png", P, seed=3) == binary("7", "images/x.png", P, seed=3)
    assert binary("1", "images/v.png", {**P, "modality": "VID"}).question == (
        "What is the authenticity of the video?"
    )


def test_segmentation_true_mask_at_the_answer(root: Path) -> None:
    mask = np.zeros((120, 160), dtype=bool)
    mask[30:70, 50:100] = True
    sls = {**P, "task": "SLS"}
    for i in range(12):
        item = segmentation(str(i), root, "images/x.png", mask, sls, seed=2)
        assert len(item.options) == 4 and len(item.images) == 5
        base = np.asarray(Image.open(root / "images/x.png"), dtype=np.int16)
        red = {}
        for letter in item.options:
            changed = (_candidate_image(root, item, letter) != base).any(axis=2)
            red[letter] = changed
        assert (red[item.answer] == mask).mean() > 0.99
        for letter, m in red.items():
            if letter != item.answer:
                inter = np.logical_and(m, mask).sum()
                assert inter / np.logical_or(m, mask).sum() < 0.5
    again = segmentation("3", root, "images/x.png", mask, sls, seed=2)
    assert again == segmentation("3", root, "images/x.png", mask, sls, seed=2)


def test_real_localization_items_answer_nothing(root: Path) -> None:
    real = {**P, "task": "SLS", "type": "REAL", "model": "REAL"}
    item = segmentation("r", root, "images/x.png", None, real, seed=0)
    assert item.options[item.answer] == "No area was manipulated." == NOTHING["area"]
    assert len(item.images) == 4
    det = detection("r", root, "images/x.png", None, {**real, "task": "SLD"}, seed=0)
    assert det.options[det.answer] == NOTHING["area"]
    tl = temporal(
        "t",
        [f"f{i}.png" for i in range(16)],
        [False] * 16,
        {**real, "task": "TL", "modality": "VID"},
    )
    assert tl.options[tl.answer] == "No frame was manipulated."


def test_detection_true_box_at_the_answer(root: Path) -> None:
    box = (40, 20, 90, 70)
    for i in range(10):
        item = detection(str(i), root, "images/x.png", box, {**P, "task": "SLD"}, seed=4)
        got = _candidate_image(root, item, item.answer)
        assert (got[20, 40:90] == [255, 0, 0]).all()  # the top edge of the true box
        for letter in item.options:
            if letter != item.answer:
                img = _candidate_image(root, item, letter)
                assert not (img[20, 40:90] == [255, 0, 0]).all()
    with pytest.raises(ValueError, match="outside"):
        detection("x", root, "images/x.png", (100, 10, 200, 50), {**P, "task": "SLD"})


def test_temporal_options_and_truth() -> None:
    assert sample_frames(32, 8) == [2, 6, 10, 14, 18, 22, 26, 30]
    assert frame_list([0, 1, 5]) == "[ 0, 1, 5 ]" and frame_list([]) == "[]"
    forged = [10 <= i < 20 for i in range(32)]
    for i in range(10):
        item = temporal(
            str(i),
            [f"f{j}.png" for j in range(32)],
            forged,
            {**P, "task": "TL", "modality": "VID"},
            seed=i,
        )
        assert item.options[item.answer] == "[ 2, 3, 4 ]"  # frames 10, 14, 18
        assert len(set(item.options.values())) == 4
        assert item.frames == [2, 6, 10, 14, 18, 22, 26, 30] and len(item.images) == 8
    with pytest.raises(ValueError, match="at least 3"):
        temporal("x", ["a.png", "b.png"], [True, False], {**P, "task": "TL", "modality": "VID"})


def test_box_iou() -> None:
    assert box_iou((0, 0, 10, 10), (0, 0, 10, 10)) == 1.0
    assert box_iou((0, 0, 10, 10), (5, 0, 15, 10)) == pytest.approx(50 / 150)
