"""PIXAR's gallery: every pair each model answered, with truth and predicted masks, sortable by
IoU (a loopback server answers the LOC probe; Chromium sorts and filters the page)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forgebench.cli import app
from support.browser import CHROMIUM, open_page
from support.pixar_loc import BOXES, box_pairs, exact_or_prose, serve_loc

runner = CliRunner()


def _run_and_report(fake_openai: Any, tmp_path: Path) -> Path:
    pairs = tmp_path / "pairs"
    server = serve_loc(fake_openai, box_pairs(pairs), exact_or_prose)
    run = tmp_path / "run"
    args = ["run", str(pairs), "--out", str(run)]
    args += [
        "--model",
        f"exact=openai/exact@{server.url}",
        "--model",
        f"mixed=openai/mixed@{server.url}",
    ]
    for cmd in (args, ["metrics", str(run)], ["report", str(run)]):
        res = runner.invoke(app, cmd)
        assert res.exit_code == 0, res.output
    return run


def test_gallery_lists_every_answer_with_its_masks(fake_openai: Any, tmp_path: Path) -> None:
    run = _run_and_report(fake_openai, tmp_path)
    report = run / "report"
    page = (report / "pixar_gallery.html").read_text(encoding="utf-8")
    assert "pixar_gallery.html" in (report / "index.html").read_text(encoding="utf-8")
    assert page.count("<tr data-model=") == 6  # 2 models x 3 pairs
    assert "data-model='mixed' data-iou='0.0'" in page  # the miss, IoU 0
    thumbs = sorted((report / "pixar_gallery").glob("*.png"))
    # 3 edited images + 3 truths; the exact model's masks equal the truths (stored once), the
    # mixed model's 2 masks likewise: pictures are content-addressed
    assert len(thumbs) == 6
    for src in {s.split("'")[0] for s in page.split("<img src='")[1:]}:
        assert (report / src).is_file()


@pytest.mark.browser
def test_gallery_sorts_by_iou_and_filters_by_model_in_chromium(
    fake_openai: Any, tmp_path: Path
) -> None:
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    run = _run_and_report(fake_openai, tmp_path)
    with open_page() as pg:
        pg.goto((run / "report" / "pixar_gallery.html").as_uri())
        ious = pg.eval_on_selector_all("#gallery tbody tr", "rs => rs.map(r => r.dataset.iou)")
        assert ious[0] == "0.0" and ious[-1] == "100.0"  # lowest first
        pg.select_option("#sort", "desc")
        ious = pg.eval_on_selector_all("#gallery tbody tr", "rs => rs.map(r => r.dataset.iou)")
        assert ious[0] == "100.0" and ious[-1] == "0.0"
        pg.select_option("#model", "mixed")
        shown = pg.eval_on_selector_all(
            "#gallery tbody tr:not([hidden])", "rs => rs.map(r => r.dataset.model)"
        )
        assert shown == ["mixed"] * 3
        loaded = pg.eval_on_selector_all(
            "#gallery tbody tr:not([hidden]) img",
            "is => is.map(i => i.complete && i.naturalWidth > 0)",
        )
        assert loaded and all(loaded)
        assert pg.errors == []


def test_the_viewer_shows_a_pairs_original_and_truth_mask(fake_openai: Any, tmp_path: Path) -> None:
    from support.report_js import load_js

    run = _run_and_report(fake_openai, tmp_path)
    items = load_js(run / "report" / "data" / "page-0000.js", "page")["items"]
    a = next(it for it in items if it["id"] == "a")
    variants = a["img"]["variants"]
    assert set(variants) == {"original", "truth mask (tau 0.05)"}
    from PIL import Image

    with Image.open(run / "report" / variants["truth mask (tau 0.05)"]) as im:
        mask = __import__("numpy").asarray(im.convert("L")) > 127
    # the planted 30 x 25 box of pair a, at the view's scale (the views keep the aspect ratio)
    assert 0.1 < mask.mean() < 0.2


def test_the_viewer_shows_each_answers_predicted_mask(fake_openai: Any, tmp_path: Path) -> None:
    import numpy as np
    from PIL import Image

    from support.report_js import load_js

    run = _run_and_report(fake_openai, tmp_path)
    report = run / "report"
    items = {it["id"]: it for it in load_js(report / "data" / "page-0000.js", "page")["items"]}
    gallery = (report / "pixar_gallery.html").read_text(encoding="utf-8")
    for stem in ("a", "b", "c"):
        answers = {a["m"]: a for a in items[stem]["answers"]}
        for model, a in answers.items():
            if (model, stem) == ("mixed", "b"):  # the miss made no mask
                assert "o" not in a
                continue
            ((label, src),) = a["o"]
            assert label == "predicted mask" and src.startswith("pixar_gallery/")
            assert f"<img src='{src}' alt='predicted'" in gallery  # the gallery's own picture
            with Image.open(report / src) as im:
                mask = np.asarray(im.convert("L")) > 127
            # the planted box of the pair (x0, y0, x1, y1) in the 96 x 64 image, as predicted
            x0, y0, x1, y1 = BOXES[stem]
            assert mask.shape == (64, 96) and mask.sum() == (x1 - x0) * (y1 - y0)
            assert mask[y0:y1, x0:x1].all()


def test_a_moved_run_shows_the_edited_images_from_the_dataset_given(
    fake_openai: Any, tmp_path: Path
) -> None:
    run = _run_and_report(fake_openai, tmp_path)
    page = run / "report" / "pixar_gallery.html"
    assert page.read_text(encoding="utf-8").count("alt='edited'") == 6
    moved = (tmp_path / "pairs").rename(tmp_path / "moved")  # the run's recorded folder is gone
    res = runner.invoke(app, ["report", str(run)])
    assert res.exit_code == 0, res.output
    assert "alt='edited'" not in page.read_text(encoding="utf-8")  # a dash in each row
    res = runner.invoke(app, ["report", str(run), "--dataset", str(moved)])
    assert res.exit_code == 0, res.output
    assert page.read_text(encoding="utf-8").count("alt='edited'") == 6


def test_gallery_thumbnails_made_on_threads_are_those_made_in_order(
    fake_openai: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The gallery's thumbnails are made on threads before its rows: the page and every
    thumbnail are byte for byte those made on one thread."""
    from forgebench.suites.pixar import gallery
    from support.picture_threads import files, threads_then_one

    run = _run_and_report(fake_openai, tmp_path)
    made, threads, one = threads_then_one(
        monkeypatch, gallery, lambda out: gallery.write_gallery(run, out),
        tmp_path / "threads", tmp_path / "one",
    )  # fmt: skip
    assert threads is not None and one is not None
    assert "forgebench-pictures" in made and "MainThread" in made
    assert files(tmp_path / "threads") == files(tmp_path / "one")
    assert len(files(tmp_path / "one")) == 7  # the page and its 6 thumbnails
