"""The shared verbs on PIXAR: validate, prompts, tables and the metrics summary (a loopback
server answers the LOC probe); figures and calibration skip PIXAR with a line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.suites.pixar.probe import PROMPT_VERSION
from support.pixar_loc import box_pairs, exact_or_prose, serve_loc

runner = CliRunner()


def test_validate_and_prompts_on_a_pairs_folder(tmp_path: Path) -> None:
    pairs = tmp_path / "pairs"
    box_pairs(pairs)
    res = runner.invoke(app, ["validate", str(pairs)])
    assert res.exit_code == 0 and "pixar pairs: 3 pairs (tau 0.05)" in res.output
    res = runner.invoke(app, ["prompts", "--dataset", str(pairs), "--item", "b"])
    assert res.exit_code == 0, res.output
    assert res.output.startswith(f"LOC / full\nversion: {PROMPT_VERSION}\n")
    assert "This image (96 x 64 pixels)" in res.output
    res = runner.invoke(app, ["prompts", "--benchmark", "pixar"])
    assert res.exit_code == 0 and "This image ({width} x {height} pixels)" in res.output
    assert '{"tampered": true or false' in res.output  # verbatim: no doubled braces
    res = runner.invoke(app, ["prompts", "--dataset", str(pairs), "--item", "zz"])
    assert res.exit_code == 2 and res.output.strip().endswith("no pair 'zz'")
    (pairs / "edited" / "c.png").write_bytes(b"not a png")
    res = runner.invoke(app, ["validate", str(pairs)])
    assert res.exit_code == 2 and "c.png" in res.output


def test_tables_summary_and_the_stages_pixar_lacks(fake_openai: Any, tmp_path: Path) -> None:
    pairs = tmp_path / "pairs"
    server = serve_loc(fake_openai, box_pairs(pairs), exact_or_prose)
    run = tmp_path / "run"
    res = runner.invoke(
        app, ["run", str(pairs), "--out", str(run), "--model", f"m=openai/exact@{server.url}"]
    )
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["metrics", str(run)])
    assert res.exit_code == 0 and "| m |" in res.output  # Table 2's layout in the summary
    res = runner.invoke(app, ["tables", str(run)])
    assert res.exit_code == 0, res.output
    for name in ("pixar_table2", "pixar_table3", "pixar_sizes"):
        for ext in ("md", "tex", "csv"):
            assert (run / "report" / f"{name}.{ext}").stat().st_size > 0
    assert (
        "| m | — | — | 100.0 | 100.0 | — | 100.0 | 100.0 |"
        in (run / "report" / "pixar_table2.md").read_text()
    )
    for verb in (["figures", str(run)], ["calibrate", "sample", str(run)]):
        res = runner.invoke(app, verb)
        assert res.exit_code == 2 and "pixar" in res.output and "Traceback" not in res.output
