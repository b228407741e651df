"""How the report holds up on paper-sized runs (measured, not asserted).

Two runs:

- ``--suite mandela`` (default): the synthetic store of ``analysis_speed.py`` (36 models x 1,981
  items, ~250,000 answers); the page is written with ``build_site`` alone (no dataset folder: the
  cost measured is the data, not the thumbnails).
- ``--suite forensics``: a Forensics run as a user makes one. A release-format TSV of ``--items``
  rows over 112 type codes (``prepare_throughput.py``'s: default 112 x 565 = 63,280 questions,
  a distinct small PNG each, four frames for video rows) is imported, prepared for ``--models``
  models (default 25; ``run --prepare``'s engine path), every task answered through the Store API
  (a letter, "The answer is C.", the option's text or a refusal, a model-specific share right),
  scored by the real ``metrics`` stage (extraction, metrics.csv); then ``forgebench report``
  (``api.report``: every section, the front page with its bootstrap intervals, the item viewer
  with its pictures) is timed. The built run is kept under ``--keep`` and reused.

Printed beside the targets: the report's wall and CPU seconds, the size of ``index.html``, of
the index's first chunk (``index.js``, read with the page) and of all its chunks, the largest data
chunk, and with ``--browser`` (Debian's chromium)
when the page's first table became visible after opening ``index.html`` from disk (the
``first-contentful-paint`` and a ``requestAnimationFrame`` poll for the first ``<table>``), when
the item list's first row was drawn and when the last chunk of the index was read (both taken in
the page by a ``MutationObserver``), and a filter change and an item opening. ``--json`` writes them.

Targets (Forensics, 25 x 63k): report < 60 s; first table visible < 1 s.

    python benchmarks/report_scale.py [--suite mandela|forensics] [--models N] [--items N]
        [--keep DIR] [--browser] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))

from support.browser import CHROMIUM, FLAGS

TARGET_REPORT_S = 60.0
TARGET_FIRST_TABLE_MS = 1000.0

FIRST_TABLE = """() => new Promise(done => {
  function poll() {
    const t = document.querySelector('table');
    if (t && t.getBoundingClientRect().height > 0) { done(performance.now()); return; }
    requestAnimationFrame(poll);
  }
  poll();
})"""


_MARKS = """window.__marks = {};
new MutationObserver(function () {
  var m = window.__marks, now = performance.now();
  if (m.list === undefined && document.querySelector('#list li')) m.list = now;
  if (m.ready === undefined && document.documentElement.getAttribute('data-viewer') === 'ready') m.ready = now;
}).observe(document, {subtree: true, childList: true, attributes: true});"""
"""In-page times (ms from navigation): the item list's first row drawn (``list``) and the whole
index read (``ready``), taken when the page changes, not when a poll from outside notices."""


def _mandela_site(run: Path, models: int) -> tuple[float, float, Any]:
    from analysis_speed import build_store
    from forgebench.report.site import build_site
    from forgebench.suites.mandela.facets.judge import JUDGE
    from forgebench.suites.mandela.facets.viewer import VIEWER as MANDELA

    t0 = time.perf_counter()
    n = build_store(run, models)
    print(f"synthetic store: {n:,} answers in {time.perf_counter() - t0:.1f} s")
    hooks: dict[str, Any] = {
        "variant_views": MANDELA.views,
        "rubric": JUDGE.rubric(),
        "verdicts": MANDELA.verdict_codes,
        "levels": MANDELA.level_codes,
        "item_tags": MANDELA.tags,
        "group_labels": {"mandela": MANDELA.group_labels},
    }
    t0, c0 = time.perf_counter(), time.process_time()
    res = build_site(run, **hooks)
    return time.perf_counter() - t0, time.process_time() - c0, res.index


def _answer(rng: Any, options: dict[str, str], truth: str, p_right: float) -> str:
    """What a model writes: mostly a letter, sometimes a sentence, the option's text, a refusal."""
    letters = sorted(options)
    letter = truth if rng.random() < p_right else letters[int(rng.integers(len(letters)))]
    kind = int(rng.integers(10))
    if kind < 5:
        return letter
    if kind < 7:
        return f"The answer is {letter}."
    if kind < 9:
        return f"{letter}. {options.get(letter, '')}"
    return "I'm sorry, but I can't determine that from this image."


def forensics_run(keep: Path, items: int, models: int) -> Path:
    """The scored Forensics run of ``models`` x ``items`` questions, built once under ``keep``."""
    import numpy as np

    from forgebench import api
    from forgebench.models.base import Response, Usage
    from forgebench.models.spec import ModelConfig
    from forgebench.run.generate import GenerationSettings, run_generation
    from forgebench.run.store import Store
    from forgebench.suites import get as get_suite
    from prepare_throughput import dataset

    run = keep / f"run-forensics-{models}x{items}"
    if (run / "metrics.csv").is_file():
        return run
    shutil.rmtree(run, ignore_errors=True)
    data = dataset(keep, items)
    configs = [ModelConfig(spec=f"m{k:02d}=builtin/artefact", max_tokens=64) for k in range(models)]
    t0 = time.perf_counter()
    settings = GenerationSettings(cache_dir=keep / "cache", prepare_only=True)
    run_generation(get_suite("forensics"), data, run, configs, settings)
    print(f"  prepared in {time.perf_counter() - t0:.0f} s", flush=True)
    t0 = time.perf_counter()
    rng = np.random.default_rng(0)
    skill = {f"m{k:02d}": float(rng.uniform(0.3, 0.9)) for k in range(models)}
    n = 0
    with Store.open(run, create=False) as store:
        store.connection.execute("BEGIN IMMEDIATE")  # put_answer joins it: one commit, not 1.6 M
        for rec in store.records("forensics"):
            extra = rec.extra
            options = {str(k): str(v) for k, v in dict(extra.get("options") or {}).items()}
            text = _answer(rng, options, str(extra.get("answer", "")), skill[rec.model])
            store.put_answer(rec.key, Response(text=text, usage=Usage(900, 4)), 1, 0.8, {})
            n += 1
        store.connection.execute("COMMIT")
    print(f"  {n:,} answers stored in {time.perf_counter() - t0:.0f} s", flush=True)
    t0 = time.perf_counter()
    api.metrics(run)
    print(f"  metrics in {time.perf_counter() - t0:.0f} s", flush=True)
    return run


def _forensics_report(run: Path) -> tuple[float, float, Path]:
    from forgebench import api

    shutil.rmtree(run / "report", ignore_errors=True)
    t0, c0 = time.perf_counter(), time.process_time()
    res = api.report(run)
    return time.perf_counter() - t0, time.process_time() - c0, res.index


def _browser(index: Path) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    if CHROMIUM is None:
        return {}
    out: dict[str, float] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.add_init_script(_MARKS)
        page.goto(index.as_uri(), wait_until="commit")
        out["first_table_ms"] = float(page.evaluate(FIRST_TABLE))
        page.wait_for_load_state("load")
        fcp = page.evaluate(
            "() => (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime"
        )
        if fcp is not None:
            out["first_contentful_paint_ms"] = float(fcp)
        page.wait_for_selector("#list li", timeout=120_000)
        out["item_list_ms"] = float(page.evaluate("() => window.__marks.list"))
        page.wait_for_selector("html[data-viewer=ready]", state="attached", timeout=120_000)
        out["whole_index_ms"] = float(page.evaluate("() => window.__marks.ready"))
        models = page.eval_on_selector_all("#f-model option", "os => os.map(o => o.value)")
        t0 = time.perf_counter()
        page.select_option("#f-model", models[-1])
        page.wait_for_selector("#list li")
        out["filter_model_ms"] = (time.perf_counter() - t0) * 1000
        t0 = time.perf_counter()
        page.locator("#list li").nth(0).click()
        page.wait_for_selector("#detail-title")
        out["open_item_ms"] = (time.perf_counter() - t0) * 1000
        browser.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", choices=("mandela", "forensics"), default="mandela")
    parser.add_argument("--models", type=int, help="Models (mandela: 36, forensics: 25).")
    parser.add_argument("--items", type=int, default=63_280, help="Forensics questions.")
    parser.add_argument("--keep", type=Path, help="Keep the built run here (reused next time).")
    parser.add_argument("--browser", action="store_true", help="Also time the page in chromium.")
    parser.add_argument("--json", type=Path, help="Also write the figures here.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        result: dict[str, Any] = {"suite": args.suite, "load_avg_before": os.getloadavg()[0]}
        if args.suite == "mandela":
            run = Path(tmp) / "RUN"
            run.mkdir()
            models = args.models or 36
            seconds, cpu, index = _mandela_site(run, models)
            result.update(
                models=models, build_site_s=round(seconds, 2), build_site_cpu_s=round(cpu, 2)
            )
        else:
            keep = args.keep or Path(tmp)
            keep.mkdir(parents=True, exist_ok=True)
            models = args.models or 25
            run = forensics_run(keep, args.items, models)
            seconds, cpu, index = _forensics_report(run)
            result.update(models=models, items=args.items, report_s=round(seconds, 2),
                          report_cpu_s=round(cpu, 2), target_report_s=TARGET_REPORT_S,
                          peak_rss_mb=round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                                            / 1024))  # fmt: skip
        data = index.parent / "data"
        chunks = sorted(data.glob("page-*.js"), key=lambda p: p.stat().st_size)
        rows = sorted(data.glob("rows-*.js"))  # the index's other chunks
        result.update(
            index_html_mb=round(index.stat().st_size / 1e6, 2),
            index_js_mb=round((data / "index.js").stat().st_size / 1e6, 2),
            index_chunks=1 + len(rows),
            index_all_mb=round(sum(p.stat().st_size for p in [data / "index.js", *rows]) / 1e6, 2),
            chunks=len(chunks),
            largest_chunk_mb=round(chunks[-1].stat().st_size / 1e6, 3) if chunks else 0.0,
        )
        if args.browser:
            result.update({k: round(v, 1) for k, v in _browser(index).items()})
            result["target_first_table_ms"] = TARGET_FIRST_TABLE_MS
        result["load_avg_after"] = os.getloadavg()[0]
    for key, value in result.items():
        target = {"report_s": f"(target < {TARGET_REPORT_S:.0f})",
                  "first_table_ms": f"(target < {TARGET_FIRST_TABLE_MS:.0f})"}.get(key, "")  # fmt: skip
        print(f"{key:>28}: {value} {target}")
    print(json.dumps(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
