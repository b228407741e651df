"""The offline demo dataset: complete, honest about its edits, reproducible and valid."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from forgebench.construct.editors import changed_box
from forgebench.demo.build import DemoError, build_demo
from forgebench.suites.mandela.contract import Dataset, Item, load_dataset
from support.shared_builds import tree_digest


@pytest.fixture(scope="module")
def demo_root(demo_dataset: Path) -> Path:
    return demo_dataset  # built once per session (tests/conftest.py)


@pytest.fixture(scope="module")
def demo(demo_root: Path) -> Dataset:
    return load_dataset(demo_root)


def _pixels(ds: Dataset, item: Item) -> np.ndarray:
    with Image.open(ds.image_path(item)) as im:
        return np.asarray(im.convert("RGB"))


def test_builds_offline_without_leftovers(demo_root: Path) -> None:
    # speed is measured in benchmarks/, not asserted here
    assert demo_root.name == "dataset"
    assert (demo_root / "items.jsonl").is_file() and (demo_root / "kb.jsonl").is_file()
    assert not [p for p in demo_root.parent.iterdir() if p.name.startswith(".dataset.tmp")]


def test_every_family_domain_and_k1_type_is_present(demo: Dataset) -> None:
    items = list(demo)
    assert len(items) >= 40
    forged = [it for it in items if it.is_forged]
    assert {it.family for it in forged} == {"K0", "K1", "K2", "K3", "K4", "K5", "K6"}
    assert all(it.control_for for it in forged if it.family == "K0")
    assert {it.control_for for it in forged if it.family == "K0"} >= {"K1", "K2", "K4", "K5", "K6"}
    assert {it.k1_type for it in forged if it.family == "K1"} == {
        "date_impossible",
        "cross_domain",
        "absent_celebrity",
    }
    assert {it.domain for it in items} == {"A1", "A2", "A3", "A4", "A5", "A6"}
    assert all(it.family is None and it.edit is None for it in items if not it.is_forged)
    # one untouched original per seed
    seeds = demo.by_seed()
    assert all(sum(not it.is_forged for it in group) == 1 for group in seeds.values())
    assert any(it.principal_figures for it in items)
    for it in items:
        assert it.source and it.source.url and it.source.license, it.id
        assert it.event.label and it.event.date and it.event.place, it.id
    for it in forged:
        assert it.edit and it.edit.operation and it.edit.instruction, it.id
        assert it.entity and it.entity.name, it.id
        assert (it.contradiction is None) == (it.family == "K0"), it.id


def test_absent_celebrity_triple_shares_a_seed(demo: Dataset) -> None:
    members = [it for it in demo if it.variant]
    by_variant = {it.variant: it for it in members}
    assert set(by_variant) == {"erase", "swap", "k0"}
    assert len({it.seed_id for it in members}) == 1
    erase, swap, k0 = by_variant["erase"], by_variant["swap"], by_variant["k0"]
    assert (erase.family, erase.k1_type) == ("K1", "absent_celebrity")
    assert swap.family == "K1" and swap.k1_type in ("date_impossible", "cross_domain")
    assert k0.family == "K0"
    assert erase.erased and erase.erased.name == "Eileen Collins"
    assert erase.faces is not None
    original = demo.root / erase.faces.original_image
    assert original.is_file()
    fx0, fy0, fx1, fy1 = erase.faces.replacement
    rx0, ry0, rx1, ry1 = erase.edit.region  # type: ignore[union-attr]
    # the replacement face box covers the area where pixels changed
    assert fx0 <= rx0 + 8 and fy0 <= ry0 + 8 and fx1 >= rx1 - 8 and fy1 >= ry1 - 8


def test_peripheral_items_and_their_originals_carry_crops(demo: Dataset) -> None:
    peripheral = [it for it in demo if it.is_peripheral]
    assert len(peripheral) >= 15
    for it in peripheral:
        assert it.crop is not None, it.id
        cx0, cy0, cx1, cy1 = it.crop
        x0, y0, x1, y1 = it.edit.region  # type: ignore[union-attr]
        assert cx0 <= x0 and cy0 <= y0 and cx1 >= x1 and cy1 >= y1, it.id
    originals = {it.seed_id: it for it in demo if not it.is_forged}
    for seed in {it.seed_id for it in peripheral}:
        assert originals[seed].crop is not None, seed
    people = [it for it in peripheral if it.family == "K1"]
    assert people and all(it.wrong_event for it in people)
    assert all(originals[it.seed_id].wrong_event for it in people)
    assert all(originals[it.seed_id].crop == it.crop for it in people)


def test_edit_regions_are_the_true_pixel_differences(demo: Dataset) -> None:
    originals = {it.seed_id: it for it in demo if not it.is_forged}
    for it in demo:
        if not it.is_forged:
            continue
        before, after = _pixels(demo, originals[it.seed_id]), _pixels(demo, it)
        assert before.shape == after.shape, it.id
        assert changed_box(before, after) == tuple(it.edit.region), it.id  # type: ignore[union-attr]
        x0, y0, x1, y1 = it.edit.region  # type: ignore[union-attr]
        area = (x1 - x0) * (y1 - y0)
        assert area < 0.5 * before.shape[0] * before.shape[1], f"{it.id}: edit is not local"


def test_all_images_decode_as_png_without_exif_rotation(demo: Dataset) -> None:
    for it in demo:
        with Image.open(demo.image_path(it)) as im:
            im.load()
            assert im.format == "PNG" and im.mode == "RGB", it.id
            assert im.getexif().get(0x0112, 1) == 1


def test_a_rebuild_over_an_old_demo_gives_identical_bytes(demo_root: Path, tmp_path: Path) -> None:
    stale = tmp_path / "dataset"
    (stale / "images").mkdir(parents=True)
    (stale / "items.jsonl").write_text("")
    (stale / "images" / "leftover.png").write_bytes(b"x")  # an older build's files only
    again = build_demo(tmp_path)
    assert not (again / "images" / "leftover.png").exists()

    first, second = tree_digest(demo_root), tree_digest(again)
    assert first == second
    assert len(first) >= 42


def test_a_complete_unchanged_demo_is_kept_and_an_altered_one_built_again(
    demo_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    from forgebench.demo import build as demo_build
    from support.shared_builds import copy_of

    copy = copy_of(demo_root, tmp_path)
    record = demo_root.parent / ".dataset.built.json"  # the session build's record
    shutil.copy(record, tmp_path / record.name)
    built_again: list[Path] = []

    def pipeline(out: Path) -> Path:
        built_again.append(out)
        raise DemoError("built again")

    monkeypatch.setattr(demo_build, "_pipeline", pipeline)
    assert build_demo(tmp_path) == copy  # kept: nothing built
    assert not built_again and tree_digest(copy) == tree_digest(demo_root)

    image = next(p for p in sorted((copy / "images").rglob("*.png")))
    image.write_bytes(image.read_bytes()[:-1] + b"\0")  # one byte of one image
    with pytest.raises(DemoError, match="built again"):
        build_demo(tmp_path)
    assert built_again == [tmp_path]
    assert not (tmp_path / record.name).exists()  # a build that stops leaves no record


def test_the_demo_validates_without_errors(demo_root: Path) -> None:
    from forgebench.suites.mandela.validate import validate_dataset

    report = validate_dataset(demo_root)
    assert report.ok, report.errors
    assert not report.errors


def test_kb_rows_back_the_contradictions(demo: Dataset) -> None:
    kb = {e.name: e for e in demo.kb}
    assert kb["Grace Hopper"].died == "1992-01-01"
    assert kb["smartphone"].introduced and kb["jet airliner"].introduced
    counts = Counter(it.family for it in demo if it.is_forged)
    assert counts["K1"] >= 4


def test_build_refuses_to_clobber_a_folder_that_is_not_a_dataset(tmp_path: Path) -> None:
    target = tmp_path / "dataset"
    target.mkdir()
    (target / "thesis.tex").write_text("precious")
    with pytest.raises(DemoError, match="not a dataset folder"):
        build_demo(tmp_path)
    assert (target / "thesis.tex").read_text() == "precious"


def test_a_resumed_demo_keeps_its_dataset_and_kb_without_a_build_process(tmp_path: Path) -> None:
    """``Demo.build`` starts its build process only when the dataset or the KB must be built:
    both kept as their last complete builds wrote them is found in the demo's own process
    (``pipeline._kept``, under ``OUT/work``'s lock); a changed file, a missing record or another
    process holding the lock leaves it to the build process."""
    import os
    import subprocess
    import sys

    from forgebench.demo.pipeline import _kept
    from forgebench.util import built

    out = tmp_path / "out"
    for name in ("dataset", "kb"):
        (out / name).mkdir(parents=True)
        (out / name / "items.jsonl").write_text(f"{name}\n")
    assert _kept(out) is None  # no record: never completely built
    built.remember(out / "dataset")
    assert _kept(out) is None  # the KB has none
    built.remember(out / "kb")
    assert _kept(out) == (out / "dataset", out / "kb")
    (out / "kb" / "items.jsonl").write_text("changed\n")
    assert _kept(out) is None
    built.remember(out / "kb")
    hold = "import sys, time\nfrom forgebench.run.lock import run_lock\nwith run_lock(sys.argv[1], 'demo'):\n    print('held', flush=True)\n    time.sleep(30)\n"  # fmt: skip
    src = str(Path(__file__).parents[2] / "src")
    holder = subprocess.Popen(
        [sys.executable, "-c", hold, str(out / "work")],
        env={**os.environ, "PYTHONPATH": src}, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert _kept(out) is None  # the build process says who holds it
    finally:
        holder.kill()
        holder.wait()
    assert _kept(out) == (out / "dataset", out / "kb")
