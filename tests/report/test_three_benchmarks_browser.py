"""One run holding Mandela, Forensics and PIXAR, its report driven in headless Chromium: the
overview, each benchmark's section with captioned tables and loading figures, the filters, and the
variant pictures beside the answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from forgebench import api
from forgebench.run.generate import GenerationSettings
from forgebench.run.source import Selection
from support.browser import loaded_images, needs_chromium, open_page
from support.forensics_data import write_forensics_release
from support.interop_runs import ask_artefact_l0
from support.mandela_data import write_mandela_dataset
from support.pixar_loc import box_pairs, exact_or_prose, serve_loc

pytestmark = needs_chromium


@pytest.fixture
def three(fake_openai: Any, tmp_path: Path) -> Path:
    run, cache = tmp_path / "run", tmp_path / "cache"
    mandela = write_mandela_dataset(tmp_path / "mandela", seeds=3)
    ask_artefact_l0(mandela, run, cache)
    api.judge(run, "builtin/rules")
    forensics, _ = write_forensics_release(tmp_path / "forensics")
    sel = Selection(conditions=("full", "blur_5"), parts=("robustness",))
    api.run(
        forensics, run, ["builtin/artefact"], GenerationSettings(selection=sel, cache_dir=cache)
    )
    pairs = tmp_path / "pairs"
    server = serve_loc(fake_openai, box_pairs(pairs), exact_or_prose)
    api.run(pairs, run, [f"loc=openai/exact@{server.url}"], GenerationSettings(cache_dir=cache))
    api.metrics(run)
    api.report(run)
    return run


def test_the_page_of_a_three_benchmark_run(three: Path) -> None:
    with open_page() as pg:
        pg.goto((three / "report" / "index.html").as_uri())
        pg.wait_for_selector("#list li")
        # the overview: a column group per benchmark, linked to its section
        groups = pg.eval_on_selector_all(
            "#overview thead tr:first-child th", "ths => ths.map(t => t.textContent)"
        )
        assert {"mandela", "forensics", "pixar"} <= set(groups)
        for name in ("mandela", "forensics", "pixar"):
            section = pg.locator(f"#suite-{name}")
            assert section.count() == 1
            captions = section.locator("table caption").all_inner_texts()
            assert captions and all(c.strip() for c in captions), name
        # every figure of the sections loads
        pg.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        figures = pg.eval_on_selector_all(
            "section.suite figure img",
            "is => Promise.all(is.map(i => i.decode().then(() => i.naturalWidth > 0, () => false)))",
        )
        assert figures and all(figures)
        # the filters: the verdict facet lists each suite's codes; one benchmark's item opens
        verdicts = pg.eval_on_selector_all("#f-verdict option", "os => os.map(o => o.value)")
        assert {"FAKE", "REAL", "A", "Z", "LOCATED"} & set(verdicts)
        pg.select_option("#f-condition", "blur_5")
        pg.locator("#list li").first.click()
        shown = loaded_images(pg, "table.answers td.shown img")
        assert shown and all(ok for _, ok in shown)
        assert any(t.startswith("blur_5") for t, _ in shown)
        # a PIXAR pair: the answer's predicted mask loads beside what the model was shown
        pg.locator("#f-clear").click()
        pg.select_option("#f-verdict", "LOCATED")
        pg.locator("#list li").first.click()
        made = loaded_images(pg, "table.answers td.made img")
        assert made and all(ok and t == "predicted mask" for t, ok in made)
        item_pics = pg.eval_on_selector_all(
            "#detail .pics figcaption", "cs => cs.map(c => c.textContent)"
        )
        assert {"edited image", "original"} <= set(item_pics)
        assert any(c.startswith("truth mask") for c in item_pics)
        assert pg.errors == []
