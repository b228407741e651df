"""PIXAR pairs from COCO-style annotations: propose, verify, build with the local editor."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import skimage.data
from PIL import Image

from forgebench.construct.build import build
from forgebench.construct.edit_api import make_editor
from forgebench.construct.facts import Knowledge
from forgebench.construct.pixels import label_reference
from forgebench.construct.scenes import SceneError
from forgebench.construct.verify import verify_specs
from forgebench.suites.pixar.construct.coco import propose_pixar, scenes_from_coco
from forgebench.suites.pixar.pairs import load_pairs

COCO = {
    "images": [{"id": 1, "file_name": "chelsea.png", "width": 451, "height": 300},
               {"id": 2, "file_name": "coffee.png", "width": 600, "height": 400}],
    "categories": [{"id": 17, "name": "cat"}, {"id": 47, "name": "cup"}],
    "annotations": [
        {"id": 10, "image_id": 1, "category_id": 17, "bbox": [140, 20, 170, 150], "area": 18000,
         "segmentation": [[150, 40, 220, 20, 300, 40, 310, 150, 230, 170, 140, 150]]},
        {"id": 11, "image_id": 1, "category_id": 17, "bbox": [0, 0, 451, 300], "area": 135300,
         "iscrowd": 1, "segmentation": {"counts": "x", "size": [300, 451]}},
        {"id": 20, "image_id": 2, "category_id": 47, "bbox": [200, 90, 190, 180], "area": 30000,
         "segmentation": [[200, 100, 380, 90, 390, 260, 210, 270]]},
    ],
}  # fmt: skip


@pytest.fixture
def coco_dir(tmp_path: Path) -> Path:
    root = tmp_path / "coco"
    (root / "images").mkdir(parents=True)
    Image.fromarray(skimage.data.chelsea()).save(root / "images" / "chelsea.png")
    Image.fromarray(skimage.data.coffee()).save(root / "images" / "coffee.png")
    (root / "instances.json").write_text(json.dumps(COCO))
    return root


def test_coco_annotations_become_scene_records(coco_dir: Path) -> None:
    scenes = scenes_from_coco(coco_dir / "instances.json", "images/")
    assert [s.id for s in scenes] == ["coco-1", "coco-2"]
    cat = scenes[0].objects
    assert (
        len(cat) == 1 and cat[0].name == "cat" and cat[0].box == [140, 20, 310, 170]
    )  # crowd skipped
    (coco_dir / "bad.json").write_text('{"images": []}')
    with pytest.raises(SceneError, match=r"bad\.json: not a COCO instances file"):
        scenes_from_coco(coco_dir / "bad.json")


def test_pixar_pairs_built_with_labels_and_table14_descriptions(
    coco_dir: Path, tmp_path: Path
) -> None:
    scenes = scenes_from_coco(coco_dir / "instances.json", "images/")
    specs = propose_pixar(scenes, coco_dir)
    assert [s.id for s in specs] == [
        "coco-1-10-removal",
        "coco-1-10-colour",
        "coco-2-20-removal",
        "coco-2-20-colour",
    ]
    know = Knowledge.of(scenes, [])
    acc, rej = verify_specs(specs, know, coco_dir)
    assert rej == [] and all(a.verification.rule == "pixar_consistent" for a in acc)
    out = tmp_path / "b"
    rep = build(coco_dir, [a.spec for a in acc], know, make_editor("local/auto"), out)
    assert rep.written["pixar"].count == 4, rep.dropped
    pairs = load_pairs(out / "pixar")
    assert len(pairs) == rep.written["pixar"].count
    for p in pairs:
        o = np.asarray(Image.open(p.original).convert("RGB"))
        e = np.asarray(Image.open(p.edited).convert("RGB"))
        lab = np.asarray(Image.open(out / "pixar" / "labels" / f"{p.stem}.png")) > 0
        assert np.array_equal(lab, label_reference(o, e, 0.05))
        mask = np.asarray(Image.open(coco_dir / "masks" / f"{p.stem.rsplit('-', 1)[0]}.png")) > 0
        assert not lab[~mask].any()  # the local editors change nothing outside the mask
    rows = {
        r["id"]: r
        for r in map(json.loads, (out / "pixar" / "pairs.jsonl").read_text().splitlines())
    }
    assert rows["coco-1-10-removal"]["description"] == "The cat was removed from the image."
    assert rows["coco-2-20-colour"]["description"] == "The color of the cup was changed."
    gates = {g["gate"]: g for g in rows["coco-2-20-colour"]["provenance"]["gates"]}
    assert gates["pixar_effectiveness"]["passed"] and gates["fidelity"]["passed"] is None


def test_propose_and_build_pixar_from_the_command_line(coco_dir: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from forgebench.cli import app

    run = CliRunner().invoke
    propose = [
        "propose",
        str(coco_dir),
        "--coco",
        str(coco_dir / "instances.json"),
        "--rules",
        "--out",
        str(tmp_path / "p"),
    ]
    r = run(app, propose)
    assert r.exit_code == 0, r.output
    assert "kept 4 specification(s): pixar 4" in r.output
    assert (coco_dir / "scenes.jsonl").is_file()
    again = run(app, propose)  # the same command again
    assert again.exit_code == 2 and "scenes.jsonl: exists" in again.output
    r = run(
        app,
        ["build", str(coco_dir), str(tmp_path / "p" / "specs.jsonl"), "--out", str(tmp_path / "b")],
    )
    assert r.exit_code == 0, r.output
    assert "kept 4: 4 PIXAR pair(s); dropped 0" in r.output
    assert len(load_pairs(tmp_path / "b" / "pixar")) == 4
