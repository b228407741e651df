"""Fuzzing the import of Hugging Face dataset folders (``forgebench import HF_FOLDER``), in
process, fixed seed: 1,000 folders mutated from one small valid export (cells of the wrong type,
columns dropped or renamed, deep or broken JSON in JSON columns, ``extra`` and
``forgebench.json``, huge declared sizes, image bytes truncated or flipped, parquet bytes cut or
flipped, a folder where a shard should be). Every one imports a folder (validated by the suite
before it moves into place), or raises a
:class:`~forgebench.errors.UserError` of one line and leaves nothing beside ``--out``: never
another exception, never a hang."""

from __future__ import annotations

import json
import random
import shutil
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from forgebench._api.interop import export_dataset, import_hf_dataset
from forgebench.errors import UserError
from support.fuzz import BYTE_MUTATORS, HOSTILE_TEXT, json_document_mutator
from support.mandela_data import write_mandela_dataset

DEEP = ["[" * 5000, "[" * 200 + "]" * 200, '{"a":' * 300 + "1" + "}" * 300, "[" * 99 + "]" * 99]
CELLS: list[Any] = [*HOSTILE_TEXT, *DEEP, None, 0, -1, 2**62, 1.5, float("nan"), True, b"\x00"]


def _cell_value(rng: random.Random, kind: pa.DataType) -> Any:
    if pa.types.is_string(kind):
        return rng.choice([*HOSTILE_TEXT, *DEEP, None])
    if pa.types.is_integer(kind):
        return rng.choice([None, 0, -1, 2**62])
    if pa.types.is_floating(kind):
        return rng.choice([None, -1.0, float("nan"), 1e308])
    if pa.types.is_boolean(kind):
        return rng.choice([None, True, False])
    return None


def _image_cell(rng: random.Random, cell: dict[str, Any]) -> None:
    data = bytearray(cell.get("bytes") or b"")
    how = rng.randrange(5)
    if how == 0 and data:
        del data[rng.randrange(len(data)) :]
    elif how == 1 and data:
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif how == 2 and len(data) > 24:  # a PNG whose header declares a huge size
        data[16:24] = (0x7FFFFFFF).to_bytes(4, "big") * 2
    elif how == 3:
        data = bytearray(rng.choice([b"", b"GIF89a", b"\x89PNG\r\n\x1a\n"]))
    else:
        cell["path"] = rng.choice(["../x.png", "/etc/passwd", "", "images/other.png"])
    cell["bytes"] = bytes(data)


def _mutate_rows(rng: random.Random, table: pa.Table) -> pa.Table:
    rows = table.to_pylist()
    schema = table.schema
    for _ in range(rng.randint(1, 3)):
        row = rng.choice(rows)
        column = rng.choice(sorted(row))
        cell = row[column]
        roll = rng.random()
        if isinstance(cell, dict) and "bytes" in cell:
            _image_cell(rng, cell)
        elif roll < 0.15:  # a column missing or renamed
            schema = schema.remove(schema.get_field_index(column))
            for r in rows:
                r.pop(column, None)
        elif roll < 0.3:  # a column of another type
            i = schema.get_field_index(column)
            schema = schema.set(i, pa.field(column, pa.string()))
            for r in rows:
                r[column] = None if r[column] is None else json.dumps(r[column], default=str)
            row[column] = rng.choice([*DEEP, "x"])
        else:
            row[column] = _cell_value(rng, schema.field(column).type)
    return pa.Table.from_pylist(rows, schema=schema)


def _mutate(rng: random.Random, case: Path, table: pa.Table, meta: bytes) -> None:
    shard = next((case / "data").glob("test-*.parquet"))
    roll = rng.random()
    if roll < 0.6:
        pq.write_table(_mutate_rows(rng, table), shard)
    elif roll < 0.75:
        shard.write_bytes(rng.choice(BYTE_MUTATORS)(shard.read_bytes(), rng))
    elif roll < 0.95:
        text = json_document_mutator(meta, rng) if rng.random() < 0.7 else None
        if text is None:
            text = json.dumps({**json.loads(meta), "x": rng.choice(DEEP)}).encode()
        (case / "forgebench.json").write_bytes(text)
    else:
        shard.unlink()
        shard.mkdir()


def test_fuzz_hf_folders(tmp_path: Path) -> None:
    write_mandela_dataset(tmp_path / "ds", seeds=1)
    export_dataset(tmp_path / "ds", "hf", tmp_path / "hf")
    shard = next((tmp_path / "hf" / "data").glob("test-*.parquet"))
    table = pq.read_table(shard)
    meta = (tmp_path / "hf" / "forgebench.json").read_bytes()
    rng = random.Random(37_1)
    seen: Counter[str] = Counter()
    # CPU seconds: no input may make the reader spin (wall time is the machine's load)
    start = time.process_time()
    case = tmp_path / "case"
    shutil.copytree(tmp_path / "hf", case)
    original = shard.read_bytes()
    for k in range(1000):
        case_shard = case / "data" / shard.name
        if case_shard.is_dir():
            case_shard.rmdir()
        case_shard.write_bytes(original)  # the valid folder again, then one mutation
        (case / "forgebench.json").write_bytes(meta)
        _mutate(rng, case, table, meta)
        out = tmp_path / "outs" / "back"
        out.parent.mkdir()
        try:
            done = import_hf_dataset(case, out)
        except UserError as exc:
            assert "\n" not in str(exc), (k, str(exc))
            assert not out.exists(), k
            seen["refused"] += 1
        else:
            if done is None:  # forgebench.json no longer says it is an export: not one
                assert not out.exists(), k
                seen["not an export"] += 1
            else:
                assert done[1] == len((out / "items.jsonl").read_text().splitlines()), k
                seen["imported"] += 1  # the import validated the folder before moving it
        left = sorted(p.name for p in (tmp_path / "outs").iterdir())
        assert left in ([], ["back"]), (k, left)  # no hidden temp folder beside --out
        shutil.rmtree(tmp_path / "outs")
    assert seen["imported"] > 50 and seen["refused"] > 500, seen
    assert not (tmp_path / "x.png").exists()
    assert time.process_time() - start < 20, seen  # about 5 CPU-s
    print(dict(seen), f"{time.process_time() - start:.2f} s")
