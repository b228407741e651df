"""How the report page holds up on a 36-model run of ~2,000 items.

Builds the synthetic run store of ``analysis_speed.py`` (36 models x 1,981 items, ~250,000
answers), writes the page with ``build_site`` (no dataset folder: the cost measured is the data,
not the thumbnails), and prints the build time, the size of the always-loaded index and of the
largest data chunk. With ``--browser`` it opens the page in Debian's chromium and times the first
render, a filter change (model + verdict) and opening an item (one chunk load).

    python benchmarks/report_scale.py [--models 36] [--browser]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from analysis_speed import build_store
from forgebench.report.site import build_site
from forgebench.suites.mandela.suite import SUITE as _MANDELA

MANDELA_HOOKS: dict[str, Any] = {
    "variant_views": _MANDELA.variant_views,
    "rubric": _MANDELA.rubric(),
    "verdicts": _MANDELA.verdict_codes,
    "levels": _MANDELA.level_codes,
    "item_tags": _MANDELA.viewer_tags,
    "group_labels": {"mandela": _MANDELA.group_labels},
}


def _browser(index: Path) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    exe = shutil.which("chromium")
    if exe is None:
        return {}
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
    out: dict[str, float] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=flags)
        page = browser.new_page()
        t0 = time.perf_counter()
        page.goto(index.as_uri())
        page.wait_for_selector("#list li")
        out["first render (s)"] = time.perf_counter() - t0
        models = page.eval_on_selector_all("#f-model option", "os => os.map(o => o.value)")
        t0 = time.perf_counter()
        page.select_option("#f-model", models[-1])
        page.select_option("#f-verdict", "FAKE")
        page.wait_for_selector("#list li")
        out["filter model+verdict (s)"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        page.locator("#list li").nth(0).click()
        page.wait_for_selector("#detail-title")
        out["open an item (s)"] = time.perf_counter() - t0
        out["items after filter"] = float(
            page.locator("#count").inner_text().strip("()").split()[0]
        )
        browser.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=36)
    parser.add_argument("--browser", action="store_true", help="Also time the page in chromium.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "RUN"
        run.mkdir()
        t0 = time.perf_counter()
        n = build_store(run, args.models)
        print(f"synthetic store: {n:,} answers in {time.perf_counter() - t0:.1f} s")
        t0 = time.perf_counter()
        res = build_site(run, **MANDELA_HOOKS)
        build_s = time.perf_counter() - t0
        data = run / "report" / "data"
        index_mb = (data / "index.js").stat().st_size / 1e6
        chunks = sorted(data.glob("page-*.js"), key=lambda p: p.stat().st_size)
        print(
            f"build_site: {res.n_items:,} items, {res.n_answers:,} answers, {res.n_pages} chunks "
            f"in {build_s:.1f} s"
        )
        print(
            f"index.js (always loaded): {index_mb:.1f} MB; largest chunk: "
            f"{chunks[-1].stat().st_size / 1e6:.2f} MB"
        )
        if args.browser:
            for k, v in _browser(res.index).items():
                print(f"{k}: {v:.2f}")


if __name__ == "__main__":
    main()
