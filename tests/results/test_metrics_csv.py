"""metrics.csv: every writer replaces only the rows it owns and keeps the rest byte for byte."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pandas as pd
import pytest

from forgebench.results.metrics_csv import (
    COLUMNS,
    MetricsFileError,
    Scope,
    read_metrics,
    read_rows,
    write_metrics,
)


def _row(
    benchmark: str, model: str, metric: str, value: object, judge: str = ""
) -> dict[str, object]:
    return {"benchmark": benchmark, "model": model, "probe": "L0", "condition": "full",
            "subset": "all", "metric": metric, "value": value, "n": 10, "judge": judge}  # fmt: skip


def test_a_writer_keeps_other_benchmarks_models_and_judges(tmp_path: Path) -> None:
    write_metrics(tmp_path, [_row("pixar", "a", "giou", 3.25)], Scope.of("pixar"))
    write_metrics(tmp_path, [_row("forensics", "a", "acc", 50.0)], Scope.of("forensics"))
    write_metrics(
        tmp_path,
        [_row("mandela", "a", "det", 1 / 3), _row("mandela", "a", "kgr", 20.0, "j1")],
        Scope.of("mandela", judges=["j1", ""]),
    )
    # another judge: its graded rows join, j1's graded rows stay, unjudged rows are replaced
    write_metrics(
        tmp_path,
        [_row("mandela", "a", "det", 0.5), _row("mandela", "a", "kgr", 40.0, "j2")],
        Scope.of("mandela", judges=["j2", ""]),
    )
    rows = read_rows(tmp_path / "metrics.csv")
    got = {(r["benchmark"], r["metric"], r["judge"]): r["value"] for r in rows}
    assert got == {
        ("pixar", "giou", ""): "3.25",
        ("forensics", "acc", ""): "50.0",
        ("mandela", "kgr", "j1"): "20.0",
        ("mandela", "det", ""): "0.5",
        ("mandela", "kgr", "j2"): "40.0",
    }
    # a models-scoped writer replaces only its models
    write_metrics(tmp_path, [_row("pixar", "b", "giou", 7)], Scope.of("pixar", models=["b"]))
    pix = read_metrics(tmp_path / "metrics.csv", benchmark="pixar")
    assert sorted(pix["model"]) == ["a", "b"]


def test_scoring_a_benchmark_again_keeps_the_files_order(tmp_path: Path) -> None:
    """Rows replaced take the place of those they replace: the same scores give the same bytes
    whichever benchmark is scored again, and a new scope's rows go to the end."""
    write_metrics(tmp_path, [_row("mandela", "a", "det", 1.0)], Scope.of("mandela"))
    write_metrics(tmp_path, [_row("pixar", "a", "giou", 2.0)], Scope.of("pixar"))
    write_metrics(tmp_path, [_row("forensics", "a", "acc", 3.0)], Scope.of("forensics"))
    first = (tmp_path / "metrics.csv").read_bytes()
    for name, row in (("pixar", _row("pixar", "a", "giou", 2.0)),
                      ("mandela", _row("mandela", "a", "det", 1.0))):  # fmt: skip
        write_metrics(tmp_path, [row], Scope.of(name))
        assert (tmp_path / "metrics.csv").read_bytes() == first
    # a scope's rows spread through the file come together where the first of them was
    write_metrics(tmp_path, [_row("mandela", "b", "det", 4.0)], Scope.of("mandela", models=["b"]))
    write_metrics(
        tmp_path,
        [_row("mandela", "a", "det", 5.0), _row("mandela", "b", "det", 6.0)],
        Scope.of("mandela"),
    )
    order = [(r["benchmark"], r["value"]) for r in read_rows(tmp_path / "metrics.csv")]
    assert order == [("mandela", "5.0"), ("mandela", "6.0"), ("pixar", "2.0"), ("forensics", "3.0")]


def test_floats_are_written_as_shortest_repr_and_missing_as_empty(tmp_path: Path) -> None:
    write_metrics(
        tmp_path,
        pd.DataFrame(
            [_row("mandela", "m", "det", 100 / 3), _row("mandela", "m", "bal", float("nan"))]
        ),
        Scope.of("mandela"),
    )
    with (tmp_path / "metrics.csv").open() as fh:
        lines = fh.read().splitlines()
    assert lines[0] == ",".join(COLUMNS)
    assert lines[1] == "mandela,m,L0,full,all,det,33.333333333333336,10,"
    assert lines[2] == "mandela,m,L0,full,all,bal,,10,"


def test_a_row_outside_the_scope_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="outside the writer's scope"):
        write_metrics(tmp_path, [_row("pixar", "a", "giou", 1.0)], Scope.of("mandela"))
    assert not (tmp_path / "metrics.csv").exists()


def test_readers_filter_by_judge_keeping_unjudged_rows(tmp_path: Path) -> None:
    write_metrics(
        tmp_path,
        [_row("mandela", "a", "det", 1.0), _row("mandela", "a", "kgr", 2.0, "j1"),
         _row("mandela", "a", "kgr", 3.0, "j2")],
        Scope.of("mandela"),
    )  # fmt: skip
    df = read_metrics(tmp_path / "metrics.csv", judge="j2")
    assert sorted(zip(df["metric"], df["judge"], strict=True)) == [("det", ""), ("kgr", "j2")]


def test_a_file_that_is_not_metrics_names_itself(tmp_path: Path) -> None:
    p = tmp_path / "metrics.csv"
    p.write_text("a,b\n1,2\n")
    with pytest.raises(MetricsFileError, match=r"metrics\.csv: not a metrics file"):
        read_metrics(p)
    with pytest.raises(MetricsFileError, match="missing column"):
        write_metrics(tmp_path, [_row("pixar", "a", "giou", 1.0)], Scope.of("pixar"))


def test_a_killed_writers_temp_file_is_cleaned_and_a_live_ones_kept(tmp_path: Path) -> None:
    dead = tmp_path / ".metrics.csv.999999999.1.tmp"
    dead.write_text("half")
    mine = tmp_path / f".metrics.csv.{os.getppid()}.1.tmp"
    mine.write_text("parent's")
    write_metrics(tmp_path, [_row("pixar", "a", "giou", 1.0)], Scope.of("pixar"))
    assert not dead.exists()
    assert mine.exists()
    with (tmp_path / "metrics.csv").open(newline="") as fh:
        assert len(list(csv.DictReader(fh))) == 1


def test_metric_prefixes_split_one_benchmark_between_two_writers(tmp_path: Path) -> None:
    """``include`` / ``exclude``: PIXAR's own rows and its ``imdl_*`` rows are rescored apart."""
    own = Scope.of("pixar", models=["a"], exclude="imdl_")
    imdl = Scope.of("pixar", models=["a"], include="imdl_")
    write_metrics(tmp_path, [_row("pixar", "a", "giou", 1.0)], own)
    write_metrics(tmp_path, [_row("pixar", "a", "imdl_pixel_f1", 0.5)], imdl)
    write_metrics(tmp_path, [_row("pixar", "a", "giou", 2.0)], own)
    got = [(r["metric"], r["value"]) for r in read_rows(tmp_path / "metrics.csv")]
    assert got == [("giou", "2.0"), ("imdl_pixel_f1", "0.5")]
    with pytest.raises(ValueError, match="outside the writer's scope"):
        write_metrics(tmp_path, [_row("pixar", "a", "giou", 3.0)], imdl)
    write_metrics(tmp_path, [], imdl)
    assert [r["metric"] for r in read_rows(tmp_path / "metrics.csv")] == ["giou"]
