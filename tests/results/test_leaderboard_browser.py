"""The leaderboard site in real headless Chromium (Debian's package, through Playwright): a
heading click sorts its column both ways (numbers as numbers, missing values last) and each
report link opens the run's report."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from forgebench import api
from support.browser import needs_chromium, open_page

pytestmark = needs_chromium


@pytest.fixture
def page() -> Any:
    with open_page() as pg:
        yield pg


def test_sorting_and_report_links(two_runs: tuple[Path, Path, Path], page: Any) -> None:
    root, run_a, run_b = two_runs
    copy = root / "browser" / "run_a"
    shutil.copytree(run_a, copy)
    (copy / "report").mkdir(exist_ok=True)
    (copy / "report" / "index.html").write_text("<!doctype html><title>report of run_a</title>")
    site = api.leaderboard([copy, run_b], root / "browser_site", intervals=False)
    page.goto(site.index.as_uri())
    table = "#board-forensics"
    page.wait_for_selector(table)

    def runs() -> list[str]:
        return page.eval_on_selector_all(
            f"{table} tbody tr", "rs => rs.map(r => r.cells[1].textContent)"
        )

    assert runs() == ["run_a", "run_b"]
    acc = page.locator(f"{table} thead th", has_text="acc").first
    acc.locator("button").click()  # descending first: 75 before 50
    assert runs() == ["run_b", "run_a"] and acc.get_attribute("aria-sort") == "descending"
    acc.locator("button").click()
    assert runs() == ["run_a", "run_b"] and acc.get_attribute("aria-sort") == "ascending"
    link = page.locator(f"{table} a", has_text="report")
    assert link.count() == 1
    link.click()
    page.wait_for_load_state()
    assert page.title() == "report of run_a"
    assert page.errors == []
