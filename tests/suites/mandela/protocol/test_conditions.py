"""Conditions turn items into reproducible image variants (seed 000 §4.2, Appendix N)."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from PIL import Image

from forgebench.suites.mandela.conditions import (
    FACE_CANVAS_FILL,
    ConditionError,
    Variant,
    render_variant,
    variant_id,
    variant_params,
)
from forgebench.suites.mandela.contract import Dataset
from forgebench.suites.mandela.ids import CONDITIONS


def _pixels(data: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(data)) as im:
        return np.asarray(im.convert("RGB"))


def _render(ds: Dataset, item_id: str, condition: str) -> Variant:
    v = render_variant(ds.root, ds.get(item_id), condition)
    assert v is not None
    return v


def test_full_sends_the_original_file_bytes_untouched(dataset: Dataset) -> None:
    item = dataset.get("s1-k1")
    v = _render(dataset, "s1-k1", "full")
    assert v.data == dataset.image_path(item).read_bytes()
    assert v.media_type == "image/jpeg"
    assert (v.width, v.height) == (80, 60)
    assert v.params == {}


def test_crop_is_the_half_open_box_at_native_pixels(dataset: Dataset) -> None:
    item = dataset.get("s2-k2")
    x0, y0, x1, y1 = item.crop or (0, 0, 0, 0)
    v = _render(dataset, "s2-k2", "crop")
    assert v.media_type == "image/png"
    assert (v.width, v.height) == (x1 - x0, y1 - y0) == (30, 20)
    src = np.asarray(Image.open(dataset.image_path(item)).convert("RGB"))
    assert np.array_equal(_pixels(v.data), src[y0:y1, x0:x1])
    assert v.params == {"box": [5, 5, 35, 25]}


def test_crop_of_a_jpeg_keeps_its_decoded_pixels(dataset: Dataset) -> None:
    item = dataset.get("s1-k1")
    x0, y0, x1, y1 = item.crop or (0, 0, 0, 0)
    src = np.asarray(Image.open(dataset.image_path(item)).convert("RGB"))
    assert np.array_equal(_pixels(_render(dataset, "s1-k1", "crop").data), src[y0:y1, x0:x1])


def test_mirror_is_a_horizontal_flip_of_the_full_image(dataset: Dataset) -> None:
    item = dataset.get("s2-auth")
    v = _render(dataset, "s2-auth", "mirror")
    src = np.asarray(Image.open(dataset.image_path(item)).convert("RGB"))
    out = _pixels(v.data)
    assert np.array_equal(out, np.fliplr(src))
    assert not np.array_equal(out, src)
    assert (v.width, v.height) == (80, 60)


@pytest.mark.parametrize(
    ("condition", "box_field", "image_field"),
    [("face_original", "original", "original_image"), ("face_replacement", "replacement", None)],
)
def test_face_is_centred_at_native_resolution_on_a_grey_canvas(
    dataset: Dataset, condition: str, box_field: str, image_field: str | None
) -> None:
    item = dataset.get("s3-erase")
    assert item.faces is not None
    x0, y0, x1, y1 = getattr(item.faces, box_field)
    src_path = dataset.root / (item.faces.original_image if image_field else item.image)
    v = _render(dataset, "s3-erase", condition)
    assert (v.width, v.height) == (512, 512)
    out = _pixels(v.data)
    w, h = x1 - x0, y1 - y0
    ox, oy = (512 - w) // 2, (512 - h) // 2
    src = np.asarray(Image.open(src_path).convert("RGB"))
    assert np.array_equal(out[oy : oy + h, ox : ox + w], src[y0:y1, x0:x1])
    mask = np.ones((512, 512), dtype=bool)
    mask[oy : oy + h, ox : ox + w] = False
    assert (out[mask] == np.array(FACE_CANVAS_FILL, dtype=np.uint8)).all()


def test_face_canvas_grows_for_large_faces(
    make_dataset: Callable[..., Dataset], base_items: list[dict[str, Any]]
) -> None:
    erase = next(it for it in base_items if it["id"] == "s3-erase")
    erase["faces"]["replacement"] = [0, 0, 80, 60]
    ds = make_dataset(base_items)
    v = _render(ds, "s3-erase", "face_replacement")
    assert (v.width, v.height) == (512, 512)
    assert variant_params(ds.get("s3-erase"), "face_replacement")["canvas"] == [512, 512]
    erase["faces"]["replacement"] = [0, 0, 300, 10]  # params alone: 2 x 300 = 600
    from forgebench.suites.mandela.contract import Item

    assert variant_params(Item.model_validate(erase), "face_replacement")["canvas"] == [600, 600]


def test_caption_conditions_reuse_the_base_variant(dataset: Dataset) -> None:
    full = _render(dataset, "s1-k1", "full")
    crop = _render(dataset, "s1-k1", "crop")
    for cond in ("full_caption", "full_wrong_caption"):
        v = _render(dataset, "s1-k1", cond)
        assert (v.id, v.data, v.condition) == (full.id, full.data, "full")
    v = _render(dataset, "s1-k1", "crop_caption")
    assert (v.id, v.data, v.condition) == (crop.id, crop.data, "crop")
    assert full.id != crop.id


def test_none_has_no_image(dataset: Dataset) -> None:
    assert render_variant(dataset.root, dataset.get("s1-k1"), "none") is None


@pytest.mark.parametrize(
    "condition", ["full", "crop", "mirror", "face_original", "face_replacement"]
)
def test_rendering_twice_gives_identical_bytes_and_ids(dataset: Dataset, condition: str) -> None:
    item_id = "s3-erase" if condition.startswith("face") else "s1-k1"
    a, b = _render(dataset, item_id, condition), _render(dataset, item_id, condition)
    assert a.data == b.data and a.id == b.id and len(a.id) == 64


def test_ids_differ_between_conditions_of_one_item(dataset: Dataset) -> None:
    ids = {
        c: _render(dataset, "s3-erase" if c.startswith("face") else "s1-k1", c).id
        for c in ("full", "crop", "mirror", "face_original", "face_replacement")
    }
    assert len(set(ids.values())) == 5


def test_variant_id_hashes_source_condition_and_params() -> None:
    base = variant_id(b"abc", "crop", {"box": [0, 0, 2, 2]})
    assert variant_id(b"abd", "crop", {"box": [0, 0, 2, 2]}) != base
    assert variant_id(b"abc", "crop", {"box": [0, 0, 2, 3]}) != base
    assert variant_id(b"abc", "mirror", {}) != variant_id(b"abc", "full", {})
    assert variant_id(b"abc", "crop_caption", {"box": [0, 0, 2, 2]}) == base


def test_changing_the_source_image_changes_the_id(
    make_dataset: Callable[..., Dataset], base_items: list[dict[str, Any]]
) -> None:
    ds = make_dataset(base_items)
    before = {c: _render(ds, "s2-k2", c).id for c in ("full", "crop", "mirror")}
    path = ds.image_path(ds.get("s2-k2"))
    im = Image.open(path).convert("RGB")
    im.putpixel((0, 0), (1, 2, 3))
    im.save(path, format="PNG")
    after = {c: _render(ds, "s2-k2", c).id for c in ("full", "crop", "mirror")}
    assert all(before[c] != after[c] for c in before)


def test_changing_the_crop_changes_only_crop_ids(
    make_dataset: Callable[..., Dataset], base_items: list[dict[str, Any]]
) -> None:
    ds1 = make_dataset(base_items, name="a")
    next(it for it in base_items if it["id"] == "s2-k2")["crop"] = [5, 5, 36, 25]
    ds2 = make_dataset(base_items, name="b")
    for cond, same in (("full", True), ("mirror", True), ("crop", False)):
        a, b = _render(ds1, "s2-k2", cond), _render(ds2, "s2-k2", cond)
        assert (a.id == b.id) is same, cond
    assert _render(ds2, "s2-k2", "crop").width == 31


@pytest.mark.parametrize(
    ("item_id", "condition", "needs"),
    [
        ("s3-auth", "crop", "crop"),
        ("s3-auth", "crop_caption", "crop"),
        ("s1-k1", "face_original", "faces"),
        ("s1-k1", "face_replacement", "faces"),
        ("s2-k2", "full_wrong_caption", "wrong_event"),
    ],
)
def test_missing_requirements_raise_a_clear_error(
    dataset: Dataset, item_id: str, condition: str, needs: str
) -> None:
    with pytest.raises(ConditionError, match=rf"{item_id}.*{condition}.*{needs}"):
        render_variant(dataset.root, dataset.get(item_id), condition)


def test_unknown_condition_is_refused(dataset: Dataset) -> None:
    with pytest.raises(ConditionError, match="unknown condition 'blur'"):
        render_variant(dataset.root, dataset.get("s1-k1"), "blur")


def test_box_outside_the_image_is_refused_not_padded(
    make_dataset: Callable[..., Dataset], base_items: list[dict[str, Any]]
) -> None:
    next(it for it in base_items if it["id"] == "s2-k2")["crop"] = [50, 10, 90, 30]
    ds = make_dataset(base_items)
    with pytest.raises(ConditionError, match=r"box \[50, 10, 90, 30\].*80x60"):
        render_variant(ds.root, ds.get("s2-k2"), "crop")


def test_unreadable_or_missing_images_raise_condition_error(dataset: Dataset) -> None:
    item = dataset.get("s2-k2")
    dataset.image_path(item).write_bytes(b"not an image")
    with pytest.raises(ConditionError, match=r"s2_k2\.png"):
        render_variant(dataset.root, item, "crop")
    with pytest.raises(ConditionError, match=r"s2_k2\.png"):
        render_variant(dataset.root, item, "full")
    dataset.image_path(item).unlink()
    with pytest.raises(ConditionError, match="cannot read image"):
        render_variant(dataset.root, item, "mirror")


def test_palette_and_rgba_sources_render(
    make_dataset: Callable[..., Dataset], base_items: list[dict[str, Any]]
) -> None:
    ds = make_dataset(base_items)
    path = ds.image_path(ds.get("s2-k2"))
    Image.open(path).convert("P").save(path)
    v = _render(ds, "s2-k2", "crop")
    assert Image.open(io.BytesIO(v.data)).mode == "RGB" and v.width == 30
    Image.open(path).convert("RGBA").save(path)
    v = _render(ds, "s2-k2", "mirror")
    assert Image.open(io.BytesIO(v.data)).mode == "RGBA"


def test_every_condition_is_known_to_the_renderer(dataset: Dataset) -> None:
    for cond in CONDITIONS:
        item_id = "s3-erase" if cond.startswith("face") else "s1-k1"
        v = render_variant(dataset.root, dataset.get(item_id), cond)
        assert (v is None) == (cond == "none")
