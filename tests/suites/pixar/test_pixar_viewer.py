"""PIXAR in the report's one item viewer (the gallery page it had before is gone): every pair
each model answered, with truth and predicted masks (a loopback server answers the LOC probe;
Chromium shows the masks), and pairs scored from a detector's score maps (``pixar score --out``,
kept in the run store's ``pair_scores``) with theirs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from forgebench.cli import app
from support.browser import CHROMIUM, open_page
from support.pixar_loc import BOXES, box_pairs, exact_or_prose, serve_loc
from support.report_links import broken_links

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


def test_the_section_links_its_pairs_in_the_viewer(fake_openai: Any, tmp_path: Path) -> None:
    from support.report_js import load_js

    run = _run_and_report(fake_openai, tmp_path)
    report = run / "report"
    index = (report / "index.html").read_text(encoding="utf-8")
    assert "pixar_gallery" not in index and not (report / "pixar_gallery.html").exists()
    assert "<a href='#items'>Every pair in the item viewer" in index and 'id="items"' in index
    assert broken_links(report) == []  # every link of the page leads somewhere
    page = load_js(report / "data" / "page-0000.js", "page")
    answers = [(it["id"], a["m"], a["v"]) for it in page["items"] for a in it["answers"]]
    assert len(answers) == 6  # 2 models x 3 pairs, each answer in the viewer
    assert ("b", "mixed", "MISS") in answers
    made = {src for it in page["items"] for a in it["answers"] for _label, src in a.get("o", [])}
    # the exact model's 3 masks; the mixed model's 2 are the same pictures: content-addressed
    assert len(made) == 3 == len(list((report / "img" / "pixar").glob("*.png")))
    assert all((report / src).is_file() for src in made)


@pytest.mark.browser
def test_the_viewer_shows_the_predicted_masks_in_chromium(fake_openai: Any, tmp_path: Path) -> None:
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from support.browser import loaded_images

    run = _run_and_report(fake_openai, tmp_path)
    with open_page() as pg:
        pg.goto((run / "report" / "index.html").as_uri() + "#item=a")
        made = loaded_images(pg, "table.answers td.made img")
        assert made == [("predicted mask", True)] * 2  # both models located pair a
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
    for stem in ("a", "b", "c"):
        answers = {a["m"]: a for a in items[stem]["answers"]}
        for model, a in answers.items():
            if (model, stem) == ("mixed", "b"):  # the miss made no mask
                assert "o" not in a
                continue
            ((label, src),) = a["o"]
            assert label == "predicted mask" and src.startswith("img/pixar/")
            with Image.open(report / src) as im:
                mask = np.asarray(im.convert("L")) > 127
            # the planted box of the pair (x0, y0, x1, y1) in the 96 x 64 image, as predicted
            x0, y0, x1, y1 = BOXES[stem]
            assert mask.shape == (64, 96) and mask.sum() == (x1 - x0) * (y1 - y0)
            assert mask[y0:y1, x0:x1].all()


def test_a_moved_run_shows_the_edited_images_from_the_dataset_given(
    fake_openai: Any, tmp_path: Path
) -> None:
    from support.report_js import load_js

    def thumbs() -> list[Any]:
        return [r[5] for r in load_js(run / "report" / "data" / "index.js", "index")["rows"]]

    run = _run_and_report(fake_openai, tmp_path)
    assert all(thumbs()) and len(thumbs()) == 3
    moved = (tmp_path / "pairs").rename(tmp_path / "moved")  # the run's recorded folder is gone
    res = runner.invoke(app, ["report", str(run)])
    assert res.exit_code == 0, res.output
    assert not any(thumbs())
    res = runner.invoke(app, ["report", str(run), "--dataset", str(moved)])
    assert res.exit_code == 0, res.output
    assert all(thumbs()) and len(thumbs()) == 3


def _score_map_run(tmp_path: Path) -> tuple[Path, np.ndarray]:
    """``pixar score --out`` of three pairs: a good score map, an empty one, and none."""
    truth, pred, run = tmp_path / "truth", tmp_path / "pred", tmp_path / "run"
    t = np.zeros((16, 24), bool)
    t[2:10, 3:15] = True
    truth.mkdir()
    pred.mkdir()
    for stem in ("a", "b", "c"):
        Image.fromarray(np.where(t, 255, 0).astype(np.uint8)).save(truth / f"{stem}.png")
    np.save(pred / "a.npy", np.where(t, 0.8, 0.1).astype(np.float32))
    np.save(pred / "b.npy", np.zeros(t.shape, np.float32))
    args = ["pixar", "score", "--truth", str(truth), "--pred", str(pred), "--out", str(run)]
    for cmd in ([*args, "--name", "det"], ["report", str(run)]):
        res = runner.invoke(app, cmd)
        assert res.exit_code == 0, res.output
    return run, t


def test_pairs_scored_from_score_maps_show_truth_and_predicted_masks(tmp_path: Path) -> None:
    from forgebench.run.store import Store
    from support.report_js import load_js

    run, t = _score_map_run(tmp_path)
    with Store.open(run, create=False) as store:
        kept = {s.pair: (s.iou, s.f1, s.pred is not None) for s in store.pair_scores("pixar")}
    assert kept == {"a": (100.0, 100.0, True), "b": (0.0, 0.0, True), "c": (0.0, 0.0, False)}
    report = run / "report"
    page = load_js(report / "data" / "page-0000.js", "page")
    items = {it["id"]: it for it in page["items"]}
    assert set(items) == {"a", "b", "c"}
    got = {
        k: [(a["m"], a["p"], a["v"], a.get("s")) for a in it["answers"]] for k, it in items.items()
    }
    assert got == {
        "a": [("det", "LOC", "LOCATED", "IoU 100.0, F1 100.0")],
        "b": [("det", "LOC", "LOCATED", "IoU 0.0, F1 0.0")],
        "c": [("det", "LOC", "MISS", "IoU 0.0, F1 0.0")],  # no score map: scored as empty
    }

    def mask(src: str) -> np.ndarray:
        with Image.open(report / src) as im:
            return np.asarray(im.convert("L")) > 127

    for stem, want in (("a", t), ("b", np.zeros_like(t))):
        pics = dict(items[stem]["answers"][0]["o"])
        assert set(pics) == {"truth mask", "predicted mask (score >= 0.5)"}
        assert (mask(pics["truth mask"]) == t).all()
        assert (mask(pics["predicted mask (score >= 0.5)"]) == want).all()
    assert [label for label, _src in items["c"]["answers"][0]["o"]] == ["truth mask"]
    # the section links the viewer, where they are
    assert "<a href='#items'>Every pair in the item viewer" in (report / "index.html").read_text()
    assert broken_links(report) == []


def test_scoring_again_replaces_the_stored_pairs(tmp_path: Path) -> None:
    from forgebench.run.store import Store

    run, _t = _score_map_run(tmp_path)
    (tmp_path / "pred" / "a.npy").unlink()  # a's score map gone: a MISS now
    args = ["pixar", "score", "--truth", str(tmp_path / "truth"), "--pred"]
    res = runner.invoke(app, [*args, str(tmp_path / "pred"), "--out", str(run), "--name", "det"])
    assert res.exit_code == 0, res.output
    with Store.open(run, create=False) as store:
        kept = [(s.pair, s.iou, s.pred is not None) for s in store.pair_scores("pixar")]
    assert kept == [("a", 0.0, False), ("b", 0.0, True), ("c", 0.0, False)]
