"""``forgebench leaderboard``: two real Forensics runs of the same model that disagree are two
rows (never averaged) in the CSV, the JSON and the page; intervals come from the run's report
where it computed them; secrets never reach the site; reports are linked or copied in."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from forgebench import api
from forgebench.cli import app
from forgebench.run.store import Store

SECRET = "sk-live-0123456789abcdefSECRET"


def _with_report_and_secret(run: Path, root: Path) -> Path:
    """A copy of ``run`` with a report (its front page's overview.csv giving acc an interval)
    and a stored model config holding a credential in its spec and a key field."""
    copy = root / "elsewhere" / "run_a"
    shutil.copytree(run, copy)
    (copy / "report").mkdir()
    (copy / "report" / "index.html").write_text("<!doctype html><title>report of run_a</title>")
    (copy / "report" / "overview.csv").write_text(
        "benchmark,model,probe,condition,subset,metric,value,lo,hi,n,judge\n"
        "forensics,vlm,MCQ,full,all,acc,50.0,12.5,87.5,4,\n"
    )
    with Store.open(copy, create=False) as store:
        store.meta_set(
            "model:vlm",
            {
                "identity": {"provider": "openai", "model": "vlm", "params": {}},
                "config": {
                    "spec": f"vlm=openai/vlm@https://user:{SECRET}@host.example/v1?key={SECRET}",
                    "api_key": SECRET,
                    "temperature": 0.7,
                    "max_tokens": 256,
                },
            },
        )
    return copy


def test_two_runs_of_one_model_are_two_rows_with_their_settings_and_no_secret(
    two_runs: tuple[Path, Path, Path],
) -> None:
    root, run_a, run_b = two_runs
    copy = _with_report_and_secret(run_a, root)
    site = root / "site"
    res = CliRunner().invoke(app, ["leaderboard", str(copy), str(run_b), "--out", str(site)])
    assert res.exit_code == 0, res.output
    with (site / "leaderboard.csv").open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["run"], r["model"], r["benchmark"], r["acc"]) for r in rows] == [
        ("run_a", "vlm", "forensics", "50.0"),
        ("run_b", "vlm", "forensics", "75.0"),
    ]
    a, b = rows
    assert (a["items"], b["items"], a["n"]) == ("4", "4", "4") and a["item_set"] == b["item_set"]
    assert (a["acc lo"], a["acc hi"]) == ("12.5", "87.5")  # the report's own interval
    lo, hi = float(b["acc lo"]), float(b["acc hi"])  # bootstrapped as the front page does
    assert 0.0 <= lo <= 75.0 <= hi <= 100.0 and lo < hi
    assert (a["temperature"], a["max_tokens"]) == ("0.7", "256")
    assert a["report"] == "../elsewhere/run_a/report/index.html" and b["report"] == ""
    assert (site / a["report"]).resolve() == (copy / "report" / "index.html").resolve()
    data = json.loads((site / "leaderboard.json").read_text())
    assert [(r["run"], r["acc"]) for r in data["rows"]] == [("run_a", 50.0), ("run_b", 75.0)]
    assert data["columns"] == list(rows[0])
    for path in site.rglob("*"):
        if path.is_file():
            assert SECRET not in path.read_text(errors="replace"), path
    page = (site / "index.html").read_text()
    assert page.count('<tr><td class="t" data-v="vlm">') == 2
    assert "host.example" in a["spec"] and "***" in a["spec"]


def test_copied_reports_make_a_site_that_stands_alone(two_runs: tuple[Path, Path, Path]) -> None:
    root, run_a, run_b = two_runs
    copy = root / "alone" / "run_a"
    shutil.copytree(run_a, copy)
    (copy / "report").mkdir(exist_ok=True)
    (copy / "report" / "index.html").write_text("<!doctype html><title>report</title>")
    site = root / "site_alone"
    done = api.leaderboard([copy, run_b], site, copy_reports=True, intervals=False)
    [row_a] = [r for r in done.rows if r.run == "run_a"]
    assert row_a.report == "reports/run_a/index.html" and (site / row_a.report).is_file()
    assert all(lo is None for _v, lo, _h in row_a.metrics.values())  # --no-intervals


def test_a_run_without_metrics_is_one_line(tmp_path: Path) -> None:
    from support.hand_run import build_run, make_item

    run = tmp_path / "run"
    build_run(run, [make_item("x1")], [("m", "x1", "L0", "full", "FAKE")])
    res = CliRunner().invoke(app, ["leaderboard", str(run), "--out", str(tmp_path / "site")])
    assert res.exit_code == 2
    assert "no run holds a headline number" in res.output.splitlines()[-1]
    assert not (tmp_path / "site").exists()
