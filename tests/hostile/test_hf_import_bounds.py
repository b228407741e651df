"""`forgebench import` of a Hugging Face dataset folder made by someone else: JSON nested
100,000 deep (in a JSON column, in ``extra``, in ``forgebench.json``) is one ``error:`` line, not
a RecursionError traceback; a named pipe where a parquet shard should be is refused at once (it
used to block the import for ever, leaving its hidden temp folder)."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from forgebench._api.interop import export_dataset, import_hf_dataset
from forgebench.errors import UserError
from support.mandela_data import write_mandela_dataset

from .conftest import cli, error_lines

DEEP = "[" * 100_000 + "]" * 100_000


@pytest.fixture
def hf(tmp_path: Path) -> Path:
    write_mandela_dataset(tmp_path / "ds", seeds=1)
    export_dataset(tmp_path / "ds", "hf", tmp_path / "hf")
    return tmp_path / "hf"


def _shard(hf: Path) -> Path:
    return next((hf / "data").glob("test-*.parquet"))


def _set_cell(hf: Path, column: str, value: Any) -> None:
    table = pq.read_table(_shard(hf))
    rows = table.to_pylist()
    rows[0][column] = value
    pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), _shard(hf))


def _left(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in tmp_path.iterdir() if p.name not in ("ds", "hf"))


@pytest.mark.parametrize("where", ["column", "extra", "forgebench.json"])
def test_deep_json_is_one_line(hf: Path, tmp_path: Path, where: str) -> None:
    meta = json.loads((hf / "forgebench.json").read_text())
    if where == "column":
        column = next(c for c, kind in meta["columns"].items() if kind == "json")
        _set_cell(hf, column, DEEP)
    elif where == "extra":
        _set_cell(hf, "extra", '{"x": ' + DEEP + "}")
    else:
        meta["deep"] = "@"
        (hf / "forgebench.json").write_text(json.dumps(meta).replace('"@"', DEEP))
    res = cli("import", str(hf), "--out", str(tmp_path / "back"))
    assert res.exit_code == 2, (res.output, res.exception)
    lines = error_lines(res.output)
    assert len(lines) == 1 and "nested deeper than 100 levels" in lines[0], res.output
    assert "Traceback" not in res.output
    assert _left(tmp_path) == []  # no DATASET, no hidden temp folder


def test_json_within_the_depth_limit_still_imports(hf: Path, tmp_path: Path) -> None:
    nested = "[" * 50 + "]" * 50
    _set_cell(hf, "extra", '{"x": ' + nested + "}")
    assert import_hf_dataset(hf, tmp_path / "back") == ("mandela", 2)
    first = json.loads((tmp_path / "back" / "items.jsonl").read_text().splitlines()[0])
    assert json.dumps(first["x"]).count("[") == 50


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_fifo_shard_is_refused_without_blocking(hf: Path, tmp_path: Path) -> None:
    shard = _shard(hf)
    shard.unlink()
    os.mkfifo(shard)
    outcome: list[BaseException | object] = []

    def run() -> None:
        try:
            outcome.append(import_hf_dataset(hf, tmp_path / "back"))
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(10)
    if worker.is_alive():  # blocked on the pipe: open its other end so the reader sees EOF
        os.close(os.open(shard, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(10)
        pytest.fail("the import blocked on a named pipe")
    (exc,) = outcome
    assert isinstance(exc, UserError), exc
    assert "named pipe" in str(exc) and shard.name in str(exc) and "\n" not in str(exc)
    assert _left(tmp_path) == []  # no DATASET, no hidden temp folder
