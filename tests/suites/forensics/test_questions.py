"""Expanding an imported dataset into questions (probes x conditions)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from forgebench.suites.forensics.contract import load_items
from forgebench.suites.forensics.questions import QuestionError, expand
from forgebench.suites.forensics.tsv_import import import_release_tsv


@pytest.fixture
def dataset(release_tsv: Path, tmp_path: Path) -> Path:
    out = tmp_path / "ds"
    import_release_tsv(release_tsv, out)
    return out


def test_full_mcq_questions(dataset: Path) -> None:
    qs = {q.item_id: q for q in expand(load_items(dataset), dataset)}
    assert set(qs) == {"0", "1", "2", "3", "4", "5"}
    q0 = qs["0"]
    assert q0.probe == "MCQ" and q0.condition == "full" and q0.version == "MCQ/v1"
    assert q0.text.startswith(
        "Question: What is the authenticity of the image?\nOptions:\nA. AI-generated\n"
    )
    assert len(q0.images) == 1 and q0.images[0].op == "file"
    assert q0.images[0].render() == (dataset / load_items(dataset)[0].images[0]).read_bytes()
    video = qs["2"]  # two frames, tiled in full
    assert video.text.startswith("Hint: The frames are sampled uniformly.\n")
    assert [s.op for s in video.images] == ["tile"]
    tiled = Image.open(io.BytesIO(video.images[0].render()))
    assert tiled.size == (80, 30)  # two 40x30 frames side by side


def test_conditions_and_probes(dataset: Path) -> None:
    items = load_items(dataset)
    qs = list(
        expand(items, dataset, probes=["MCQ", "ATTR"], conditions=["full", "blur_2", "multi_image"])
    )
    keys = {(q.item_id, q.probe, q.condition) for q in qs}
    assert ("2", "MCQ", "multi_image") in keys and ("0", "MCQ", "multi_image") not in keys
    assert ("0", "ATTR", "full") in keys and ("1", "ATTR", "full") not in keys  # real item
    assert ("3", "ATTR", "full") not in keys  # segmentation
    blur = next(q for q in qs if q.item_id == "0" and q.condition == "blur_2")
    full = next(q for q in qs if q.item_id == "0" and q.condition == "full")
    assert blur.images[0].variant_id() != full.images[0].variant_id()
    assert blur.images[0].variant_id() == blur.images[0].variant_id()
    assert Image.open(io.BytesIO(blur.images[0].render())).size == (40, 30)
    multi = next(q for q in qs if q.item_id == "2" and q.condition == "multi_image")
    assert len(multi.images) == 2
    attr = next(q for q in qs if q.probe == "ATTR")
    assert "What is the forgery model that is applied to this RGB image?" in attr.text
    assert attr.version == "ATTR/v1"


def test_unknown_probe_or_condition(dataset: Path) -> None:
    with pytest.raises(QuestionError, match="unknown Forensics condition 'blur_9'"):
        list(expand(load_items(dataset), dataset, conditions=["blur_9"]))
    with pytest.raises(QuestionError, match="unknown Forensics probe 'L0'"):
        list(expand(load_items(dataset), dataset, probes=["L0"]))
