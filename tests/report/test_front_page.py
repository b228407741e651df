"""The report's front page: every model on every benchmark of the run, with intervals."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from forgebench import api
from forgebench.run.generate import GenerationSettings
from support.forensics_data import write_forensics_release
from support.interop_runs import ask_artefact_l0
from support.mandela_data import write_mandela_dataset


def _two_benchmark_run(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    mandela = write_mandela_dataset(tmp_path / "mandela", seeds=3)
    ask_artefact_l0(mandela, run, tmp_path / "c")
    api.judge(run, "builtin/rules")
    forensics, replay = write_forensics_release(tmp_path / "forensics")
    api.run(
        forensics,
        run,
        ["builtin/artefact", f"vlm=replay/{replay}"],
        GenerationSettings(cache_dir=tmp_path / "c"),
    )
    api.metrics(run)
    return run


def test_front_page_lists_each_benchmarks_headline_with_intervals(tmp_path: Path) -> None:
    run = _two_benchmark_run(tmp_path)
    api.report(run)
    page = (run / "report" / "index.html").read_text(encoding="utf-8")
    front = page[
        page.index("<section id='overview'>") : page.index(
            "</section>", page.index("<section id='overview'>")
        )
    ]
    # one column group per benchmark, its headline metrics as columns, linked to its section
    assert '<th colspan="3">mandela</th>' in front and '<th colspan="6">forensics</th>' in front
    assert "href='#suite-mandela'" in front and "href='#suite-forensics'" in front
    assert 'id="suite-mandela"' in page and 'id="suite-forensics"' in page
    # the caption says how each benchmark of the run resamples, and names no other benchmark
    assert "(mandela: seeds resampled; forensics: items resampled)" in front
    assert "pixar" not in front.lower()
    # the numbers are metrics.csv's; intervals in brackets
    overview = pd.read_csv(run / "report" / "overview.csv")
    metrics = pd.read_csv(run / "metrics.csv", keep_default_na=False, na_values={"value": [""]})
    for _, r in overview.iterrows():
        m = metrics[
            (metrics["benchmark"] == r["benchmark"]) & (metrics["model"] == r["model"])
            & (metrics["probe"] == r["probe"]) & (metrics["condition"] == r["condition"])
            & (metrics["subset"] == r["subset"]) & (metrics["metric"] == r["metric"])
        ]  # fmt: skip
        assert float(m["value"].iloc[0]) == r["value"]
        assert r["lo"] <= r["value"] <= r["hi"]
    assert set(overview["benchmark"]) == {"mandela", "forensics"}
    acc = overview[(overview["benchmark"] == "forensics") & (overview["metric"] == "acc")].iloc[0]
    assert f"{acc['value']:.1f} [{acc['lo']:.1f}, {acc['hi']:.1f}]" in front
    # one line per model: the model asked on both benchmarks has numbers in both groups, the
    # replayed one only on Forensics (dashes under Mandela)
    rows = re.findall(r"<tr><td class=\"t\">([^<]+)</td>(.*?)</tr>", front)
    cells = {name: re.findall(r"<td[^>]*>(.*?)</td>", rest) for name, rest in rows}
    assert set(cells) == {"builtin/artefact", "vlm"}
    assert all(c != "—" for c in cells["builtin/artefact"])
    assert cells["vlm"][:3] == ["—", "—", "—"] and "—" not in cells["vlm"][3]


def test_no_front_page_without_metrics(tmp_path: Path) -> None:
    run = tmp_path / "run"
    mandela = write_mandela_dataset(tmp_path / "mandela", seeds=1)
    ask_artefact_l0(mandela, run, tmp_path / "c")
    api.report(run)
    assert "id='overview'" not in (run / "report" / "index.html").read_text(encoding="utf-8")
    assert not (run / "report" / "overview.csv").exists()
