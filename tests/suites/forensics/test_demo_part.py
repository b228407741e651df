"""The demo's Forensics part, from a Mandela-style folder of forgeries and originals."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from forgebench.suites.forensics.demo import build_forensics_demo
from forgebench.suites.forensics.problems import ForensicsDataError
from forgebench.suites.forensics.validate import validate_forensics


@pytest.fixture
def mandela(tmp_path: Path) -> Path:
    root = tmp_path / "mandela"
    (root / "images").mkdir(parents=True)
    rng = np.random.default_rng(1)
    base = rng.integers(0, 256, (90, 120, 3), dtype=np.uint8)
    forged = base.copy()
    forged[20:50, 30:70] = (200, 30, 30)
    Image.fromarray(base).save(root / "images/orig.png")
    Image.fromarray(forged).save(root / "images/k1.png")
    rows = [
        {"id": "s-original", "seed_id": "s", "image": "images/orig.png", "label": "authentic"},
        {"id": "s-k1", "seed_id": "s", "image": "images/k1.png", "label": "forged", "family": "K1",
         "edit": {"operation": "insert", "region": [30, 20, 70, 50], "instruction": "x"}},
    ]  # fmt: skip
    (root / "items.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return root


def test_three_questions_per_item_with_true_answers(mandela: Path, tmp_path: Path) -> None:
    out = tmp_path / "fx"
    items = {it.id: it for it in build_forensics_demo(mandela, out)}
    assert set(items) == {f"s-{k}-{t}" for k in ("original", "k1") for t in ("bc", "sls", "sld")}
    assert items["s-k1-bc"].type_code == "HS-RGB-BC-SPL-GR"
    assert items["s-k1-bc"].options[items["s-k1-bc"].answer] == "AI-manipulated"
    assert items["s-original-bc"].options[items["s-original-bc"].answer] == "non AI-manipulated"
    assert (
        items["s-original-sls"].options[items["s-original-sls"].answer]
        == "No area was manipulated."
    )
    sls = items["s-k1-sls"]
    n = int(sls.options[sls.answer].split()[-1])
    shown = np.asarray(Image.open(out / sls.images[n]).convert("RGB"), dtype=np.int16)
    first = np.asarray(Image.open(out / sls.images[0]).convert("RGB"), dtype=np.int16)
    changed = (shown != first).any(axis=2)
    assert changed[20:50, 30:70].mean() > 0.95 and changed.sum() <= 40 * 30
    report = validate_forensics(out)
    assert report.ok and report.items == 6


def test_refuses_a_folder_that_is_not_one(tmp_path: Path, mandela: Path) -> None:
    with pytest.raises(ForensicsDataError, match="not a demo dataset folder"):
        build_forensics_demo(tmp_path / "nothing", tmp_path / "fx")
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "precious.txt").write_text("x")
    with pytest.raises(ForensicsDataError, match="not a Forensics dataset folder"):
        build_forensics_demo(mandela, taken)
    assert (taken / "precious.txt").exists()


def test_an_unchanged_set_is_kept_and_a_changed_one_or_input_built_again(
    mandela: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from forgebench.suites.forensics import demo

    out = tmp_path / "fx"
    first = build_forensics_demo(mandela, out)
    made = out.stat().st_ino
    assert build_forensics_demo(mandela, out) == first  # read back, not built
    assert out.stat().st_ino == made

    image = out / first[0].images[0]
    image.write_bytes(image.read_bytes() + b"\0")
    assert build_forensics_demo(mandela, out) == first  # built again, the same
    assert out.stat().st_ino != made and validate_forensics(out).ok
    made = out.stat().st_ino

    with Image.open(mandela / "images/k1.png") as im:
        forged = np.asarray(im).copy()
    forged[60:80, 80:110] = (0, 0, 255)  # the Mandela forgery changed: its mask changes
    Image.fromarray(forged).save(mandela / "images/k1.png")
    again = {it.id: it for it in build_forensics_demo(mandela, out)}
    assert out.stat().st_ino != made
    assert again["s-k1-sls"] != {it.id: it for it in first}["s-k1-sls"]

    calls: list[int] = []
    monkeypatch.setattr(demo, "_build", lambda *a: calls.append(1) or [])
    assert build_forensics_demo(mandela, out, seed=1) == [] and calls  # another seed: built
