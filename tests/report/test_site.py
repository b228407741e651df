"""The static report: data chunks, pictures, and what the page is given to show."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from forgebench import api
from forgebench.cli import app
from forgebench.report.site import build_site
from forgebench.suites.mandela.facets.judge import JUDGE as _JUDGE
from forgebench.suites.mandela.facets.viewer import VIEWER as _MANDELA
from support.report_js import load_js

MANDELA_HOOKS = {
    "variant_views": _MANDELA.views,
    "rubric": _JUDGE.rubric(),
    "item_tags": _MANDELA.tags,
    "group_labels": {"mandela": _MANDELA.group_labels},
    "item_card": _MANDELA.card,
}


def test_site_writes_index_pages_and_pictures(site_run: tuple[Path, Path]) -> None:
    _ds, run = site_run
    res = build_site(run, page_size=4, **MANDELA_HOOKS)
    out = run / "report"
    assert res.index == out / "index.html" and res.index.is_file()
    assert res.n_items == 6 and res.n_pages == 2
    assert res.n_answers == 24  # 6 items x 2 models x 2 probe/conditions (errors included)
    index = load_js(out / "data" / "index.js", "index")
    assert index["meta"]["models"] == ["alpha", "beta"]
    assert index["meta"]["judge"] == "builtin/rules"
    rows = {r[0]: r for r in index["rows"]}
    assert rows["s0-k1"][2] == "K1" and rows["s0-k1"][8] == 0 and rows["s2-k1"][8] == 1
    assert rows["s0-k1"][1] == "forged · K1 · A1 · C3" and rows["s0-orig"][1] == "authentic · A1"
    assert [g["label"] for g in index["meta"]["groups"]] == ["Family", "Domain"]
    search = dict(zip(rows, load_js(out / "data" / "search.js", "search"), strict=True))
    assert "george orwell died in 1950" in search["s0-k1"]  # found by its contradiction
    assert "summit number 0" in search["s0-k1"]  # and its event
    assert rows["s0-k1"][7] == ""  # the index stays small: the text loads at the first search
    # the thumbnail is a copied file, never inlined
    thumb = out / rows["s0-k1"][5]
    assert thumb.is_file() and thumb.suffix in (".jpg", ".png")
    assert "base64" not in res.index.read_text()
    page = load_js(out / "data" / "page-0000.js", "page")
    k1 = next(i for i in page["items"] if i["id"] == "s0-k1")
    assert k1["outline"] == [100, 20, 130, 50] and k1["size"] == [160, 120]
    rows = dict(k1["rows"])  # the card's details, from the suite (empty ones left out)
    assert rows["entity"] == "George Orwell (photographer)" and "erased" not in rows
    assert rows["edit"] == "insert: add a photographer [100, 20, 130, 50]"
    assert k1["caption"] == "forgery (edit region outlined)"
    orig = next(i for i in page["items"] if i["id"] == "s0-orig")
    assert "original" not in orig["img"] and orig["outline"] is None  # an original is not paired
    assert k1["tags"] == ["forged", "K1", "date_impossible", "A1", "C3"]
    for key in ("view", "original", "diff"):
        assert (out / k1["img"][key]).is_file(), key
    assert set(k1["img"]["variants"]) == {"crop", "mirror"}
    answers = {(a["m"], a["p"]): a for a in k1["answers"]}
    assert answers[("alpha", "L0")]["v"] == "FAKE" and answers[("alpha", "L0")]["l"] == "E4"
    assert answers[("alpha", "L0")]["r"] == "names Orwell and his death year"
    assert answers[("beta", "L1")]["v"] == "ERROR" and "HTTP 500" in answers[("beta", "L1")]["e"]
    assert answers[("beta", "L0")]["l"] == "E0"


def test_diff_heatmap_is_bright_where_the_edit_is(site_run: tuple[Path, Path]) -> None:
    import numpy as np
    from PIL import Image

    _, run = site_run
    build_site(run, **MANDELA_HOOKS)
    page = load_js(run / "report" / "data" / "page-0000.js", "page")
    k1 = next(i for i in page["items"] if i["id"] == "s0-k1")
    heat = np.asarray(Image.open(run / "report" / k1["img"]["diff"]).convert("L"), dtype=float)
    inside = heat[20:50, 100:130].mean()
    outside = np.concatenate([heat[:, :90].ravel(), heat[60:, :].ravel()]).mean()
    assert inside > 5 * max(outside, 1.0)


def test_site_without_dataset_still_lists_answers(
    site_run: tuple[Path, Path], tmp_path: Path
) -> None:
    _ds, run = site_run
    import sqlite3

    con = sqlite3.connect(run / "run.sqlite")
    con.execute("DELETE FROM meta WHERE key = 'dataset'")
    con.commit()
    con.close()
    res = build_site(run, **MANDELA_HOOKS)
    assert any("dataset folder unknown" in w for w in res.warnings)
    page = load_js(run / "report" / "data" / "page-0000.js", "page")
    assert page["items"][0]["img"] == {} and page["items"][0]["answers"]


def test_report_command_refuses_a_folder_that_is_not_a_run(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["report", str(tmp_path)])
    assert res.exit_code == 2
    assert "not a run directory" in res.output
    assert not (tmp_path / "report").exists()


def test_calibration_sample_becomes_a_grading_view(site_run: tuple[Path, Path]) -> None:
    _, run = site_run
    (run / "calibration_sample.csv").write_text(
        "sample_id,task_key,model,probe,item_id,answer,human_level\n"
        'c1,k0,alpha,L0,s0-k1,"FAKE. Orwell, died 1950",\n'
    )
    build_site(run, **MANDELA_HOOKS)
    cal = load_js(run / "report" / "data" / "calibration.js", "calibration")
    assert cal["file"] == "calibration_sample.csv"
    assert cal["rows"][0]["answer"] == "FAKE. Orwell, died 1950"
    assert cal["rows"][0]["_view"].endswith((".jpg", ".png"))
    assert (run / "report" / cal["rows"][0]["_view"]).is_file()
    assert "human_level" in cal["columns"]


@pytest.mark.parametrize("bad", ["nope.csv"])
def test_report_rejects_missing_calibration_file(site_run: tuple[Path, Path], bad: str) -> None:
    _, run = site_run
    res = CliRunner().invoke(app, ["report", str(run), "--calibration", str(run / bad)])
    assert res.exit_code == 2 and "not found" in res.output


def test_each_benchmark_shows_its_numbers_in_its_own_section(
    site_run: tuple[Path, Path],
) -> None:
    _, run = site_run
    (run / "metrics.csv").write_text(
        "benchmark,model,probe,condition,subset,metric,value,n,judge\n"
        "mandela,alpha,L0,full,all,kgr,33.33333,3,builtin/rules\n"
        "mandela,alpha,L0,full,all,det,66.66667,3,\n"
        "mandela,alpha,L0,full,K1,kgr,50,2,builtin/rules\n"
        "pixar,alpha,LOC,full,all,giou,12.5,4,\n"
        "pixar,alpha,LOC,full,small,giou,99,1,\n"
    )
    page = api.report(run).index.read_text(encoding="utf-8")
    assert "<td>alpha</td><td>L0</td><td>33.3</td><td>66.7</td>" in page
    assert "L0 KGR by knowledge family" in page and "<td>50.0</td>" in page
    mandela = page[page.index('id="suite-mandela"') : page.index('id="suite-pixar"')]
    assert "12.5" not in mandela  # PIXAR's numbers are PIXAR's section's, not Mandela's
    pixar = page[page.index('id="suite-pixar"') :]
    assert "12.5" in pixar and "99.0" in pixar  # all images, and the small-mask size class


def test_view_serves_the_report_on_localhost(site_run: tuple[Path, Path]) -> None:
    import subprocess
    import sys
    import urllib.request

    _, run = site_run
    proc = subprocess.Popen(
        [sys.executable, "-m", "forgebench.cli", "view", str(run), "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = ""
        while "serving" not in line:  # builds the report first, then prints where it serves
            line = proc.stdout.readline()
            assert line, "view exited without serving"
        url = line.split(" at ")[1].split()[0]
        assert url.startswith("http://127.0.0.1:") and url.endswith("/index.html")
        with urllib.request.urlopen(url, timeout=10) as resp:
            page = resp.read().decode("utf-8")
        assert "forgebench report" in page and "data/index.js" in page
        with urllib.request.urlopen(url.replace("index.html", "data/index.js"), timeout=10) as resp:
            assert b"FB.index" in resp.read()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_pictures_made_ahead_on_threads_are_those_made_in_order(
    site_run: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The items' pictures and difference heatmaps are written on several threads before the
    page goes through the items: every picture file is byte for byte the one a report made on
    one thread writes, and a picture a thread fails to write is made again in the page's pass."""
    import os
    import threading

    from PIL import Image

    from forgebench.report import site_images, site_items

    ds, run = site_run
    for path in (ds / "images").glob("*.png"):  # larger than a view: decoded, scaled, encoded
        with Image.open(path) as im:
            im.convert("RGB").resize((1600, 1200), Image.Resampling.NEAREST).save(path)
    monkeypatch.setattr(os, "cpu_count", lambda: 4)  # threads on a one-core machine too
    threads: set[str] = set()
    failed: list[Path] = []
    real = site_images._save_scaled

    def save(im: Image.Image, dst: Path, side: int) -> tuple[int, int]:
        name = threading.current_thread().name
        threads.add(name.split("_")[0])
        if name.startswith("forgebench-pictures") and not failed:
            failed.append(dst)  # the first one a thread writes fails there
            raise OSError("No space left on device")
        return real(im, dst, side)

    monkeypatch.setattr(site_images, "_save_scaled", save)
    build_site(run, out_dir=tmp_path / "threads", **MANDELA_HOOKS)
    monkeypatch.setattr(site_items, "PREFETCH_THREADS", 1)
    build_site(run, out_dir=tmp_path / "one", **MANDELA_HOOKS)

    def pictures(root: Path) -> dict[str, bytes]:
        return {
            p.relative_to(root).as_posix(): p.read_bytes()
            for p in (root / "img").rglob("*")
            if p.is_file()
        }

    made = pictures(tmp_path / "threads")
    assert threads == {"forgebench-pictures", "MainThread"} and failed
    assert failed[0].is_file() and not list((tmp_path / "threads").rglob("*.tmp"))
    assert len(made) >= 12 and made == pictures(tmp_path / "one")
    assert any(k.startswith("img/diff/") for k in made)


def test_small_pictures_are_left_to_the_ordered_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Threads make only what has decoding in it: a difference heatmap, or a picture large
    enough to be scaled again. A small picture is placed (a link) by the ordered pass alone."""
    import os

    import numpy as np
    from PIL import Image

    from forgebench.report import site_items

    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    rng = np.random.default_rng(0)
    small, large, orig = tmp_path / "small.png", tmp_path / "large.png", tmp_path / "orig.png"
    Image.new("RGB", (40, 30), (9, 9, 9)).save(small)
    noise = rng.integers(0, 255, (1200, 1600, 3), dtype=np.uint8)  # incompressible: > 64 KiB
    Image.fromarray(noise).save(large)
    Image.fromarray(noise[::-1].copy()).save(orig)
    out = tmp_path / "report"
    site_items.prefetch_pictures([(small, "a", None), (large, "b", None), (small, "c", orig)], out)
    made = sorted(p.relative_to(out).as_posix().split("/")[1] for p in out.rglob("*.*"))
    assert made == ["diff", "thumb", "view", "view"]  # b: thumb and view; c: its own view, heatmap
    assert not (out / "img" / "view" / f"{site_items.safe_name('a')}.png").exists()
