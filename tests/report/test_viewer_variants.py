"""The viewer shows what each task showed the model: every image variant beside its answer, with
the condition named, each variant's picture written once however many answers used it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from forgebench import api
from forgebench.run.generate import GenerationSettings
from forgebench.run.source import Selection
from support.browser import CHROMIUM, loaded_images, open_page
from support.forensics_data import write_forensics_release
from support.report_js import load_js

CONDITIONS = ("full", "blur_5", "noise_5")


def _run(tmp_path: Path) -> Path:
    dataset, _ = write_forensics_release(tmp_path / "fb")
    run = tmp_path / "run"
    sel = Selection(conditions=CONDITIONS, parts=("robustness",))
    settings = GenerationSettings(selection=sel, cache_dir=tmp_path / "cache")
    api.run(dataset, run, ["a=builtin/artefact", "b=builtin/artefact"], settings)
    api.metrics(run)
    api.report(run)
    return run


def _pages(run: Path) -> list[dict]:
    out = []
    for page in sorted((run / "report" / "data").glob("page-*.js")):
        out += load_js(page, "page")["items"]
    return out


def test_each_answer_names_the_pictures_it_was_shown(tmp_path: Path) -> None:
    run = _run(tmp_path)
    items = _pages(run)
    shown: dict[str, set[str]] = {}
    for it in items:
        for a in it["answers"]:
            assert a["c"] in CONDITIONS and a.get("i"), a
            for src in a["i"]:
                assert src and (run / "report" / src).is_file()
                shown.setdefault(a["c"], set()).add(src)
            if a["c"] == "full" and len(a["i"]) == 1:
                assert a["i"][0] == it["img"]["view"]  # the item's own picture, not a copy
    # the two models saw the same variants: one picture per variant, shared by both answers
    var_files = list((run / "report" / "img" / "var").glob("[!.]*"))
    assert len(var_files) == len(shown["blur_5"] | shown["noise_5"])
    assert not shown["blur_5"] & shown["noise_5"]


@pytest.mark.browser
def test_the_viewer_shows_the_variant_beside_its_answer(tmp_path: Path) -> None:
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    run = _run(tmp_path)
    with open_page() as pg:
        pg.goto((run / "report" / "index.html").as_uri())
        pg.locator("#list li").first.click()
        titles = loaded_images(pg, "table.answers td.shown img")
        assert {re.sub(r" \(image.*", "", t) for t, _ in titles} >= {"blur_5", "noise_5"}
        assert all(ok for _, ok in titles)
        assert pg.errors == []


def test_a_picture_asked_by_condition_is_the_tasks_own_else_its_variant(tmp_path: Path) -> None:
    from PIL import Image

    from forgebench.models.base import ImageRef
    from forgebench.report.site_items import AskedImage, Pictures
    from forgebench.run.images import VariantCache, VariantSpec

    shown_file = tmp_path / "tiled.png"
    Image.new("RGB", (8, 4), (200, 10, 10)).save(shown_file)
    source = tmp_path / "frame.png"
    Image.new("RGB", (4, 4), (10, 200, 10)).save(source)
    made: list[str] = []

    def spec() -> VariantSpec:  # only when the run recorded no such task
        made.append("spec")
        return VariantSpec(source=source, condition="full")

    pics = Pictures(tmp_path / "report", VariantCache(tmp_path / "cache"))
    tasks = {"full": (ImageRef("vid-full", shown_file, "image/png"),)}
    rel = pics.asked(AskedImage("full", spec), lambda c: tasks.get(c, ()))
    assert rel is not None and not made and pics.seen["vid-full"] == rel
    assert (tmp_path / "report" / rel).read_bytes() == shown_file.read_bytes()
    assert pics.asked(AskedImage("full", spec), lambda c: ()) != rel and made == ["spec"]
    gone = {"tiled": (ImageRef("vid-gone", tmp_path / "cleaned.png", "image/png"),)}
    again = pics.asked(AskedImage("tiled", spec), lambda c: gone.get(c, ()))
    assert made == ["spec", "spec"] and again is not None  # its bytes are gone: made again
    assert (tmp_path / "report" / again).read_bytes() == source.read_bytes()
