"""Fuzzing `forgebench import` of a Hugging Face dataset folder: whatever the parquet cells hold,
the import either writes a folder that validates or exits 2 with one line, writing nothing and
never outside its --out."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.suites.mandela.facets.dataset import DATASET
from support.mandela_data import write_mandela_dataset

PATHS = ["../x.png", "/etc/passwd", "images/../../x.png", "C:\\\\x.png", "", "images/s0_auth.png",
         "images/new.png", "images//s0_k2.png", "./images/s0_k2.png", "images/\x00.png"]  # fmt: skip
TEXT = ["", "null", "{", "[]", '{"a": 1}', "1e999", "\x00", "K9", "forged", "é" * 300, '"x"']


def _mutate(rng: random.Random, rows: list[dict[str, Any]], schema: pa.Schema) -> str:
    row = rng.choice(rows)
    column = rng.choice(sorted(row))
    cell = row[column]
    if pa.types.is_struct(schema.field(column).type) and cell is None:
        return f"{column}:none"  # an image cell already dropped
    if isinstance(cell, dict) and "bytes" in cell:  # an image cell
        how = rng.choice(["path", "truncate", "flip", "empty", "drop"])
        if how == "path":
            cell["path"] = rng.choice(PATHS)
        elif how == "truncate":
            cell["bytes"] = cell["bytes"][: rng.randrange(len(cell["bytes"]))]
        elif how == "flip":
            data = bytearray(cell["bytes"])
            for _ in range(8):
                data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
            cell["bytes"] = bytes(data)
        elif how == "empty":
            cell["bytes"] = b""
        else:
            row[column] = None
        return f"{column}:{how}"
    kind = schema.field(column).type
    if pa.types.is_string(kind):
        row[column] = rng.choice([*TEXT, None])
        return f"{column}={str(row[column])[:10]!r}"
    if pa.types.is_floating(kind):
        row[column] = rng.choice([None, -1.0, float("nan"), 1e308])
        return f"{column}={row[column]}"
    row[column] = None
    return f"{column}=None"


def _export_small(tmp_path: Path) -> Path:
    dataset = write_mandela_dataset(tmp_path / "ds", seeds=2)
    hf = tmp_path / "hf"
    res = CliRunner().invoke(
        app, ["export-dataset", str(dataset), "--format", "hf", "--out", str(hf)]
    )
    assert res.exit_code == 0, res.output
    return hf


@pytest.mark.slow
def test_fuzzed_exports_import_cleanly_or_not_at_all(tmp_path: Path) -> None:
    hf = _export_small(tmp_path)
    shard = next((hf / "data").glob("*.parquet"))
    table = pq.read_table(shard)
    rng = random.Random(20261201)
    outcomes = {0: 0, 2: 0}
    for case in range(40):
        work = tmp_path / f"case{case}"
        shutil.copytree(hf, work / "hf")
        rows = table.to_pylist()
        what = [_mutate(rng, rows, table.schema) for _ in range(rng.randint(1, 3))]
        pq.write_table(
            pa.Table.from_pylist(rows, schema=table.schema),
            next((work / "hf" / "data").glob("*.parquet")),
        )
        out = work / "sub" / "back"
        res = CliRunner().invoke(app, ["import", str(work / "hf"), "--out", str(out)])
        assert res.exit_code in (0, 2), (what, res.output, res.exception)
        assert "Traceback" not in res.output, what
        outcomes[res.exit_code] += 1
        if res.exit_code == 2:
            assert res.output.startswith("error: ") and res.output.count("\n") == 1, (
                what,
                res.output,
            )
            assert not out.exists(), what
        else:
            assert DATASET.validate(out).errors == [], what
        written = {p.relative_to(work) for p in work.rglob("*") if p.is_file()}
        assert all(p.parts[0] == "hf" or p.parts[:2] == ("sub", "back") for p in written), what
        assert not (tmp_path / "x.png").exists()
        shutil.rmtree(work)
    assert outcomes[2] > 0  # the mutations do reach the rules
    print(json.dumps(outcomes))


def test_fuzz_hf_meta(tmp_path: Path) -> None:
    """``forgebench.json`` (the layout the import trusts least) mutated, through the CLI."""
    from support.fuzz import Target, fuzz, json_document_mutator

    hf = _export_small(tmp_path)
    meta = hf / "forgebench.json"

    def args(case: Path, k: int) -> list[str]:
        shutil.copyfile(case, meta)
        return ["import", str(hf), "--out", str(tmp_path / "back" / str(k))]

    target = Target("hf forgebench.json", [meta.read_bytes()], args, [json_document_mutator])
    report = fuzz(target, tmp_path / "cases", n=80, seed=3)
    assert report.cases == 80 and report.refused > 10
    assert not (tmp_path / "x.png").exists()


def test_fuzz_hf_shard_bytes(tmp_path: Path) -> None:
    """The parquet shard's bytes mutated (truncated, flipped, replaced), through the CLI."""
    from support.fuzz import Target, fuzz

    hf = _export_small(tmp_path)
    shard = next((hf / "data").glob("*.parquet"))

    def args(case: Path, k: int) -> list[str]:
        shutil.copyfile(case, shard)
        return ["import", str(hf), "--out", str(tmp_path / "back" / str(k))]

    target = Target("hf parquet shard", [shard.read_bytes()], args)
    report = fuzz(target, tmp_path / "cases", n=60, seed=4)
    assert report.cases == 60 and report.refused > 30
