"""The suite behind the seam: protocol parts, narrowing, sampling and rendered variants."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from PIL import Image

from forgebench import api
from forgebench.run.generate import GenerationSettings
from forgebench.suites import SuiteError
from forgebench.suites.base import ItemTags, Selection
from forgebench.suites.forensics.contract import load_items
from forgebench.suites.forensics.protocol import protocol, stratified
from forgebench.suites.forensics.tsv_import import import_release_tsv


def test_protocol_parts_and_narrowing() -> None:
    probes, conds = protocol(Selection())
    assert probes == ["MCQ"] and conds == ["full"]
    probes, conds = protocol(Selection(parts=("robustness", "attribution")))
    assert probes == ["MCQ", "ATTR", "ATTR_DESC"] and len(conds) == 31 and "pixelate_5" in conds
    assert "jpeg_1" not in conds
    _, conds = protocol(Selection(parts=("robustness",), conditions=("full", "blur_3")))
    assert conds == ["full", "blur_3"]
    with pytest.raises(SuiteError, match="part of --protocol jpeg"):
        protocol(Selection(conditions=("jpeg_2",)))
    _, conds = protocol(Selection(parts=("studies",)))
    assert conds == ["full", "tiled", "multi_image", "prefix", "face_boxes"]
    with pytest.raises(SuiteError, match="multi_image is part of --protocol studies"):
        protocol(Selection(conditions=("full", "multi_image")))


def test_stratified_sample_keeps_every_type_code(release_tsv: Path, tmp_path: Path) -> None:
    ds = tmp_path / "ds"
    import_release_tsv(release_tsv, ds)
    items = load_items(ds)
    one = stratified(items, 1)
    assert {i.type_code for i in one} == {i.type_code for i in items}
    assert stratified(items, 1) == one and stratified(items, None) == items


def test_robustness_run_renders_cached_variants(release_tsv: Path, tmp_path: Path) -> None:
    ds = tmp_path / "ds"
    import_release_tsv(release_tsv, ds)
    run, cache = tmp_path / "run", tmp_path / "cache"
    sel = Selection(parts=("robustness",), conditions=("full", "blur_5", "block_1"))
    result = api.run(
        ds, run, ["builtin/artefact"], GenerationSettings(selection=sel, cache_dir=cache)
    )
    assert [(m.tasks, m.errors) for m in result.models] == [(18, 0)]
    con = sqlite3.connect(run / "run.sqlite")
    paths = dict(
        con.execute(
            "SELECT condition || ':' || item_id, image_path FROM tasks WHERE item_id = '0'"
        ).fetchall()
    )
    assert paths["full:0"].startswith(str(ds))  # the dataset's own file, never copied
    blurred = Path(paths["blur_5:0"])
    assert blurred.is_file() and str(blurred).startswith(str(cache))
    original = Image.open(ds / load_items(ds)[0].images[0]).convert("RGB")
    assert (
        Image.open(blurred).size == original.size
        and Image.open(blurred).tobytes() != original.tobytes()
    )
    again = api.run(
        ds, run, ["builtin/artefact"], GenerationSettings(selection=sel, cache_dir=cache)
    )
    assert [m.sent for m in again.models] == [0]  # resumed: nothing asked twice
    api.metrics(run)
    conds = {
        r[0]
        for r in sqlite3.connect(run / "run.sqlite").execute("SELECT DISTINCT condition FROM tasks")
    }
    assert conds == {"full", "blur_5", "block_1"}


def test_studies_part_prefix_and_face_boxes(release_tsv: Path, tmp_path: Path) -> None:
    from forgebench.suites.forensics.prompt import PAPER_PREFIX
    from forgebench.suites.forensics.studies import FACE_BOX_NOTE

    ds = tmp_path / "ds"
    import_release_tsv(release_tsv, ds)
    run = tmp_path / "run"
    sel = Selection(parts=("studies",))
    result = api.run(
        ds, run, ["builtin/artefact"], GenerationSettings(selection=sel, cache_dir=tmp_path / "c")
    )
    # 6 full, 6 prefix, 3 face_boxes, 1 multi_image (the video row with two frames)
    assert [(m.tasks, m.errors) for m in result.models] == [(16, 0)]
    con = sqlite3.connect(run / "run.sqlite")
    rows = con.execute("SELECT item_id, condition, prompt, prompt_version FROM tasks").fetchall()
    faces = sorted(i for i, c, _p, _v in rows if c == "face_boxes")
    assert faces == ["0", "4", "5"]  # human-subject binary questions with one image
    pre = next(p for i, c, p, _v in rows if c == "prefix" and i == "0")
    assert pre.startswith(PAPER_PREFIX + "\nQuestion: ")
    fb = next((p, v) for i, c, p, v in rows if c == "face_boxes" and i == "0")
    assert fb[0].startswith(FACE_BOX_NOTE + "\n") and fb[1] == "MCQ/v1+faces-v1"


def test_viewer_tags_group_by_forgery_type_and_modality() -> None:
    from forgebench.suites.base import Viewer
    from forgebench.suites.forensics.suite import SUITE

    item = {
        "id": "7", "images": ["images/a.png"], "question": "Which region is forged?",
        "options": {"A": "left", "B": "right"}, "answer": "B", "category":
        "human_faceswaponeface_gan_nirimage_det", "semantic": "HS", "modality": "NIR",
        "task": "SLD", "type": "FSS", "model": "GAN", "source": "DFFD_faceswap",
        "benchmark": "forensics",
    }  # fmt: skip
    viewer = SUITE.facet(Viewer)
    assert viewer is not None
    tags = viewer.tags(item)
    assert viewer.group_labels == ("type", "modality")
    assert tags.groups == ("FSS", "NIR") and tags.line == ("HS-NIR-SLD-FSS-GAN",)
    assert tags.tags == (
        "HS-NIR-SLD-FSS-GAN", "Face Swap (Single Face)", "Generative Adversarial Networks",
        "Near-infrared Images", "Forgery Spatial Localization (Detection)", "DFFD_faceswap",
    )  # fmt: skip
    assert "Human Subject" in tags.search and "DFFD_faceswap" in tags.search
    # a stored row that is not a Forensics item (or no longer validates) gets no tags
    assert viewer.tags({**item, "modality": "XRAY"}) == ItemTags()
