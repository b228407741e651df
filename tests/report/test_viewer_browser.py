"""The report page driven in real headless Chromium (Debian's package, through Playwright)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from forgebench.report.site import build_site
from forgebench.suites.mandela.facets.judge import JUDGE as _JUDGE
from forgebench.suites.mandela.facets.viewer import VIEWER as _MANDELA
from support.browser import needs_chromium, open_page

MANDELA_HOOKS = {
    "variant_views": _MANDELA.views,
    "rubric": _JUDGE.rubric(),
    "item_card": _MANDELA.card,
}

ARTIFACTS = Path(
    os.environ.get("FORGEBENCH_TEST_ARTIFACTS", Path(__file__).parents[2] / "test-artifacts")
)

pytestmark = needs_chromium


@pytest.fixture
def page(tmp_path: Path):
    with open_page() as pg:
        yield pg


def test_filter_open_item_and_keyboard(site_run: tuple[Path, Path], page) -> None:  # type: ignore[no-untyped-def]
    _, run = site_run
    index = build_site(run, page_size=4, **MANDELA_HOOKS).index
    page.goto(index.as_uri())
    page.wait_for_selector("html[data-viewer=ready]", state="attached")
    assert page.locator("#count").inner_text() == "(6 of 6)"
    assert "George Orwell" not in page.locator("#detail").inner_text()

    page.select_option("#f-model", "alpha")
    page.select_option("#f-verdict", "FAKE")
    assert page.locator("#count").inner_text() == "(3 of 6)"
    assert sorted(page.locator("#list li").evaluate_all("ls => ls.map(l => l.dataset.id)")) == [
        "s0-k1",
        "s1-k1",
        "s2-k1",
    ]

    page.locator("#list li[data-id='s2-k1']").click()  # on the second data page: loaded on demand
    page.wait_for_selector("#detail-title")
    detail = page.locator("#detail")
    assert page.locator("#detail-title").inner_text() == "s2-k1"
    text = detail.inner_text()
    assert "George Orwell (photographer)" in text
    assert "George Orwell died in 1950" in text
    assert "Answers (2 of 4" in text  # only alpha's two FAKE answers match the filters
    assert page.locator(".edit-box").count() == 1
    assert page.locator("#detail img").count() >= 4  # forgery, original, heatmap, variants
    assert page.evaluate("location.hash") == "#item=s2-k1"

    page.locator("#f-clear").click()  # the open item stays under the cursor
    assert page.locator("#list li.cursor").get_attribute("data-id") == "s2-k1"
    page.keyboard.press("k")
    page.wait_for_function("document.getElementById('detail-title').textContent === 's2-orig'")
    assert page.evaluate("location.hash") == "#item=s2-orig"
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "f-text"
    page.keyboard.type("s1-orig")
    assert page.locator("#count").inner_text() == "(1 of 6)"

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report-viewer.png"), full_page=True)
    assert not page.errors  # type: ignore[attr-defined]


def test_direct_link_opens_one_item(site_run: tuple[Path, Path], page) -> None:  # type: ignore[no-untyped-def]
    _, run = site_run
    index = build_site(run, page_size=4, **MANDELA_HOOKS).index
    page.goto(index.as_uri() + "#item=s1-orig")
    page.wait_for_selector("html[data-viewer=ready]", state="attached")
    page.wait_for_selector("#detail-title")
    assert page.locator("#detail-title").inner_text() == "s1-orig"
    assert "REAL. Nothing looks wrong." in page.locator("#detail").inner_text()


def test_calibration_grading_saves_the_csv(
    site_run: tuple[Path, Path], page, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    _, run = site_run
    (run / "calibration_sample.csv").write_text(
        "sample_id,task_key,model,probe,item_id,answer,human_level\n"
        'c1,k0,alpha,L0,s0-k1,"FAKE. Orwell, died 1950",\n'
        "c2,k1,alpha,L1,s0-k1,FAKE. The right side looks pasted,\n"
    )
    index = build_site(run, **MANDELA_HOOKS).index
    page.goto(index.as_uri() + "#calibrate")
    page.wait_for_selector("html[data-viewer=ready]", state="attached")
    assert "Answer 1 of 2" in page.locator("#calib-progress").inner_text()
    assert page.locator("#calib-answer").inner_text() == "FAKE. Orwell, died 1950"
    page.keyboard.press("4")
    assert "Answer 2 of 2" in page.locator("#calib-progress").inner_text()
    page.locator(".grade-bar button[data-level='1']").click()
    with page.expect_download() as dl:
        page.locator("#calib-save").click()
    saved = tmp_path / "graded.csv"
    dl.value.save_as(saved)
    import csv

    rows = list(csv.DictReader(saved.open()))
    assert [(r["sample_id"], r["human_level"]) for r in rows] == [("c1", "4"), ("c2", "1")]
    assert rows[0]["answer"] == "FAKE. Orwell, died 1950"


def test_mixed_run_filters_by_a_forensics_letter_and_shows_the_step(mixed_run: Path, page) -> None:  # type: ignore[no-untyped-def]
    from forgebench import api

    index = api.report(mixed_run).index
    page.goto(index.as_uri())
    page.wait_for_selector("html[data-viewer=ready]", state="attached")
    assert page.locator("#count").inner_text() == "(10 of 10)"  # 6 Mandela + 4 Forensics items
    options = page.locator("#f-verdict option").evaluate_all("os => os.map(o => o.value)")
    assert options[:3] == ["", "FAKE", "REAL"]  # Mandela's order first, then the letters
    assert options[-7:] == ["A", "B", "C", "D", "Z", "ERROR", "PENDING"]

    page.select_option("#f-verdict", "A")
    assert page.locator("#count").inner_text() == "(2 of 10)"
    ids = page.locator("#list li").evaluate_all("ls => ls.map(l => l.dataset.id)")
    assert sorted(ids) == ["0", "1"]
    page.locator("#list li[data-id='1']").click()
    page.wait_for_selector("#detail-title")
    row = page.locator("table.answers tr").nth(1)
    assert row.locator("td.verdict").inner_text() == "A"
    assert row.locator("td.found-by").inner_text() == "option text (binary)"
    assert "A. non AI-generated; B. AI-generated" in page.locator("#facts").inner_text()
    assert "found by" in page.locator("table.answers tr").first.inner_text()

    page.select_option("#f-verdict", "Z")
    assert sorted(page.locator("#list li").evaluate_all("ls => ls.map(l => l.dataset.id)")) == [
        "2",
        "3",
    ]
    page.locator("#list li[data-id='3']").click()
    page.wait_for_function("document.getElementById('detail-title').textContent === '3'")
    assert page.locator("td.found-by").inner_text() == "no option chosen → Z (hedge)"

    page.select_option("#f-verdict", "FAKE")  # a Mandela item: its table has no "found by"
    page.locator("#list li[data-id='s0-k1']").click()
    page.wait_for_function("document.getElementById('detail-title').textContent === 's0-k1'")
    assert page.locator("td.found-by").count() == 0
    assert "found by" not in page.locator("table.answers").inner_text()

    # the grouping facets: Mandela's family and Forensics' forgery type share one dropdown
    page.locator("#f-clear").click()
    assert page.locator("#f-group1-name").inner_text() == "Family / type"
    groups = page.locator("#f-group1 optgroup").evaluate_all("gs => gs.map(g => g.label)")
    assert groups == ["mandela: family", "forensics: type"]
    page.select_option("#f-group1", "forensics/ES")  # entire synthesis: items 0 and 3
    assert page.locator("#count").inner_text() == "(2 of 10)"
    ids = page.locator("#list li").evaluate_all("ls => ls.map(l => l.dataset.id)")
    assert sorted(ids) == ["0", "3"]
    assert page.locator("#list li[data-id='0'] small").inner_text() == "HS-RGB-BC-ES-DF"
    page.select_option("#f-verdict", "A")  # and answered A: item 0 only
    assert page.locator("#list li").evaluate_all("ls => ls.map(l => l.dataset.id)") == ["0"]
    page.locator("#list li[data-id='0']").click()
    page.wait_for_function("document.getElementById('detail-title').textContent === '0'")
    assert (
        page.locator("#detail .tags").inner_text().startswith("HS-RGB-BC-ES-DF · Entire Synthesis")
    )
    page.select_option("#f-verdict", "")
    page.select_option("#f-group1", "mandela/K1")
    assert page.locator("#count").inner_text() == "(3 of 10)"
    page.select_option("#f-group1", "")
    page.fill("#f-text", "diffusion")  # the full terms are searchable (loaded at the first search)
    page.wait_for_selector("html[data-search=ready]", state="attached")
    assert page.locator("#list li").evaluate_all("ls => ls.map(l => l.dataset.id)") == ["0"]
    assert not page.errors  # type: ignore[attr-defined]


def test_mandela_report_groups_by_family_and_domain(site_run: tuple[Path, Path], page) -> None:  # type: ignore[no-untyped-def]
    from forgebench import api

    _, run = site_run
    page.goto(api.report(run).index.as_uri())  # the suite's tags, as `forgebench report` gives
    page.wait_for_selector("html[data-viewer=ready]", state="attached")
    assert page.locator("#f-group1-name").inner_text() == "Family"
    assert page.locator("#f-group2-name").inner_text() == "Domain"
    assert page.locator("#f-group1 option").evaluate_all("os => os.map(o => o.value)") == ["", "K1"]
    assert page.locator("#f-group1 optgroup").count() == 0  # one benchmark: no headings
    assert page.locator("#list li[data-id='s0-k1'] small").inner_text() == "forged · K1 · A1 · C3"
    page.select_option("#f-group1", "K1")
    assert page.locator("#count").inner_text() == "(3 of 6)"
    page.select_option("#f-group1", "")
    page.fill("#f-text", "summit number 2")  # the event label is searchable
    page.wait_for_selector("html[data-search=ready]", state="attached")
    assert sorted(page.locator("#list li").evaluate_all("ls => ls.map(l => l.dataset.id)")) == [
        "s2-k1",
        "s2-orig",
    ]
    assert not page.errors  # type: ignore[attr-defined]


def test_mandela_card_details_overlay_and_original(site_run: tuple[Path, Path], page) -> None:  # type: ignore[no-untyped-def]
    """A Mandela forgery's card, every detail row filled, through ``forgebench report``: the
    rows, captions and edit box the viewer showed when the engine read Mandela's fields itself
    (this test passed unchanged on the engine before the move to ``Suite.viewer_card``)."""
    import json
    import sqlite3

    from forgebench import api

    _, run = site_run
    con = sqlite3.connect(run / "run.sqlite")
    (data,) = con.execute("SELECT data FROM items WHERE item_id = 's0-k1'").fetchone()
    item = json.loads(data) | {
        "erased": {"name": "Leon Trotsky"},
        "principal_figures": ["Lenin", "Kamenev"],
        "source": {"url": "https://example.org/p.jpg", "license": "CC BY 4.0"},
    }
    con.execute("UPDATE items SET data = ? WHERE item_id = 's0-k1'", (json.dumps(item),))
    con.commit()
    con.close()
    page.goto(api.report(run).index.as_uri() + "#item=s0-k1")
    page.wait_for_selector("html[data-viewer=ready]", state="attached")
    page.wait_for_selector("#detail-title")
    pairs = page.locator("#detail dl.truth").first.evaluate(
        "d => Array.from(d.children).map(e => e.tagName + ':' + e.textContent)"
    )
    assert pairs == [
        "DT:family", "DD:K1",
        "DT:entity", "DD:George Orwell (photographer)",
        "DT:aliases", "DD:Orwell, Eric Blair",
        "DT:erased", "DD:Leon Trotsky",
        "DT:contradiction", "DD:George Orwell died in 1950, before this event",
        "DT:event", "DD:Summit number 0 (1960-05-01)",
        "DT:edit", "DD:insert: add a photographer [100, 20, 130, 50]",
        "DT:crop", "DD:[80, 0, 160, 80]",
        "DT:principal figures", "DD:Lenin, Kamenev",
        "DT:source", "DD:https://example.org/p.jpg — CC BY 4.0",
    ]  # fmt: skip
    assert page.locator("#detail figcaption").all_inner_texts()[:3] == [
        "forgery (edit region outlined)", "original", "difference heatmap",
    ]  # fmt: skip
    box = page.locator(".edit-box").evaluate(
        "b => [b.style.left, b.style.top, b.style.width, b.style.height]"
    )  # the 160x120 picture's edit region [100, 20, 130, 50]
    assert [round(float(v.rstrip("%")), 3) for v in box] == [62.5, 16.667, 18.75, 25.0]
    page.goto(page.url.replace("#item=s0-k1", "#item=s0-orig"))
    page.wait_for_selector("html[data-viewer=ready]", state="attached")
    page.wait_for_function("document.getElementById('detail-title').textContent === 's0-orig'")
    pairs = page.locator("#detail dl.truth").first.inner_text()
    assert "family" not in pairs and "event" in pairs and "crop" in pairs
    captions = page.locator("#detail figcaption").all_inner_texts()
    assert captions[0] == "image" and "original" not in captions  # an original is not paired
    assert page.locator(".edit-box").count() == 0
    assert not page.errors  # type: ignore[attr-defined]


@pytest.fixture
def forensics_only_run(tmp_path: Path) -> Path:
    """A run of the Forensics release fixture alone (built before the browser starts)."""
    from forgebench import api
    from support.forensics_data import write_forensics_release

    forensics, replay = write_forensics_release(tmp_path / "fb")
    api.run(forensics, tmp_path / "fb_run", [f"vlm=replay/{replay}"])
    return tmp_path / "fb_run"


def test_a_forensics_only_report_has_no_level_filter_or_calibration_view(
    forensics_only_run: Path, mixed_run: Path, page
) -> None:  # type: ignore[no-untyped-def]
    """Forensics answers are letters, not E0-E4 levels, and it has no judge rubric: its report
    shows neither the Level filter nor the judge-calibration view; a run with Mandela keeps both."""
    from forgebench import api

    fb_index, mixed_index = api.report(forensics_only_run).index, api.report(mixed_run).index
    page.goto(fb_index.as_uri())
    page.wait_for_selector("html[data-viewer=ready]", state="attached")
    assert page.locator("#count").inner_text() == "(4 of 4)"
    assert not page.locator("#f-level").is_visible()
    assert not page.locator("#nav-calibrate").is_visible()
    assert not page.locator("#calibrate").is_visible()
    assert page.locator("#f-verdict").is_visible()

    page.goto(mixed_index.as_uri())
    page.wait_for_selector("html[data-viewer=ready]", state="attached")
    assert page.locator("#f-level").is_visible()
    assert page.locator("#nav-calibrate").is_visible()
    assert page.errors == []


def _listed(page) -> list[str]:  # type: ignore[no-untyped-def]
    return page.locator("#list li").evaluate_all("ls => ls.map(l => l.dataset.id)")  # type: ignore[no-any-return]


def test_a_chunked_index_lists_and_filters_as_one_index_does(
    mixed_run: Path, page, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from forgebench._api.common import benchmarks_in
    from forgebench._api.outputs import viewer_hooks

    seen = []
    for row_chunk, out in ((1000, tmp_path / "whole"), (3, tmp_path / "chunked")):
        hooks = viewer_hooks(benchmarks_in(mixed_run), mixed_run, out)
        index = build_site(mixed_run, out_dir=out, page_size=4, row_chunk=row_chunk, **hooks).index
        assert len(list((out / "data").glob("rows-*.js"))) == (3 if row_chunk == 3 else 0)
        page.goto(index.as_uri() + "#item=1")  # a Forensics item: in the last chunk
        page.wait_for_selector("html[data-viewer=ready]", state="attached")
        page.wait_for_selector("#detail-title")
        assert page.locator("#detail-title").inner_text() == "1"
        state = [page.locator("#count").inner_text(), _listed(page)]
        groups = page.locator("#f-group1 option").evaluate_all("os => os.map(o => o.value)")
        page.select_option("#f-group1", groups[-1])  # a Forensics forgery type
        state += [groups, page.locator("#count").inner_text(), _listed(page)]
        page.select_option("#f-group1", "")
        page.select_option("#f-verdict", "A")
        state += [page.locator("#count").inner_text(), _listed(page)]
        page.locator("#f-text").fill("s1")
        page.wait_for_selector("html[data-search=ready]", state="attached")
        state += [page.locator("#count").inner_text(), _listed(page)]
        seen.append(state)
        assert not page.errors  # type: ignore[attr-defined]
    assert seen[0] == seen[1]
    assert seen[0][0] == "(10 of 10)" and seen[0][3] != "(10 of 10)" and seen[0][5] == "(2 of 10)"
