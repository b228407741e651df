"""Hostile files and folders that ended in a traceback now end in one ``error:`` line and a
non-zero exit (or, for a long but valid reference chain, in a clean import)."""

from __future__ import annotations

import base64
import io
import json
import os
import sqlite3
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from support.mandela_data import write_mandela_dataset
from support.modules import not_installed

from .conftest import TSV_HEADER, cli, error_lines, run_args, write_tsv

CAT = "human_entiresynthesis_diffusion_visibleimage_category"


def _one_line(res: Any) -> str:
    """The command failed with one ``error:`` line, last, and no traceback."""
    assert res.exit_code != 0, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    lines = error_lines(res.stderr)
    assert len(lines) == 1 and res.stderr.strip().splitlines()[-1] == lines[0], res.stderr
    return lines[0]


def _png(rgb: tuple[int, int, int] = (9, 9, 9)) -> str:
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), rgb).save(buf, "PNG")
    return base64.b64encode(buf.getvalue()).decode()


def _png_header_only(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64))


# -- the release TSV ---------------------------------------------------------------------------


def test_a_tsv_image_over_twice_the_bomb_limit_is_one_line(tmp_path: Path) -> None:
    bomb = base64.b64encode(_png_header_only(20_000, 20_000)).decode()
    tsv = write_tsv(tmp_path / "t.tsv", [["0", bomb, "q", "AI-generated", "real", "A", CAT]])
    res = cli("import", str(tsv), "--out", str(tmp_path / "ds"))
    assert "t.tsv:2: image:" in res.stderr and "pixels" in res.stderr
    _one_line(res)


@pytest.mark.parametrize("cell", ["[1, 2]", "['a.png'", "[" * 5000])
def test_a_malformed_image_path_list_is_one_line(cell: str, tmp_path: Path) -> None:
    header = [*TSV_HEADER, "image_path"]
    tsv = write_tsv(tmp_path / "t.tsv", [["0", "", "q", "AI", "real", "A", CAT, cell]], header)
    res = cli("import", str(tsv), "--out", str(tmp_path / "ds"))
    assert "image_path" in res.stderr
    _one_line(res)


def test_a_chain_of_3000_references_imports(tmp_path: Path) -> None:
    rows = [[str(i), str(i + 1), "q", "AI", "real", "A", CAT] for i in range(2999)]
    rows.append(["2999", _png(), "q", "AI", "real", "A", CAT])
    tsv = write_tsv(tmp_path / "t.tsv", rows)
    res = cli("import", str(tsv), "--out", str(tmp_path / "ds"))
    assert res.exit_code == 0, res.output
    assert len((tmp_path / "ds" / "items.jsonl").read_text().splitlines()) == 3000


# -- import-batch, ray-batch -------------------------------------------------------------------


@pytest.fixture
def prepared(tmp_path: Path, fake_openai: Any) -> tuple[Path, str]:
    server = fake_openai()
    run_dir = tmp_path / "run"
    ds = write_mandela_dataset(tmp_path / "ds")
    assert cli(*run_args(ds, run_dir, f"m=openai/fake@{server.url}"), "--prepare").exit_code == 0
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        key = con.execute("SELECT key FROM tasks LIMIT 1").fetchone()[0]
    return run_dir, key


@pytest.mark.parametrize("kind", ["string_error", "deep", "not_utf8"])
def test_import_batch_hostile_results_are_one_line_or_stored(
    kind: str, prepared: tuple[Path, str], tmp_path: Path
) -> None:
    run_dir, key = prepared
    out = tmp_path / "out.jsonl"
    if kind == "string_error":
        line = {"custom_id": key, "response": {"status_code": 500, "body": {"error": "boom"}}}
        out.write_text(json.dumps(line) + "\n")
        res = cli("import-batch", str(run_dir), str(out))
        assert res.exit_code == 0, res.output  # stored as an error of that task
        with sqlite3.connect(run_dir / "run.sqlite") as con:
            (reason,) = con.execute("SELECT reason FROM errors").fetchone()
        assert reason == "batch: HTTP 500: boom"
        return
    if kind == "deep":
        out.write_text('{"custom_id": "x", "response": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    else:
        out.write_bytes(b'{"custom_id": "\xff\xfe"}\n')
    res = cli("import-batch", str(run_dir), str(out))
    assert str(out) in _one_line(res)


@pytest.mark.parametrize("line", ["this is not json", '{"custom_id": "a", "method": "POST"}'])
def test_ray_batch_with_a_bad_shard_line_is_one_line(line: str, tmp_path: Path) -> None:
    shard = tmp_path / "b.jsonl"
    shard.write_text(line + "\n")
    res = cli("ray-batch", str(shard), "--url", "http://127.0.0.1:9/v1/chat/completions",
              "--out", str(tmp_path / "o.jsonl"))  # fmt: skip
    assert "b.jsonl:1" in _one_line(res)


# -- merge, report -----------------------------------------------------------------------------


@pytest.fixture
def two_runs(tmp_path: Path, fake_openai: Any) -> tuple[Path, Path]:
    server = fake_openai()
    ds = write_mandela_dataset(tmp_path / "ds")
    runs = []
    for name in ("a", "b"):
        run_dir = tmp_path / name
        res = cli(*run_args(ds, run_dir, f"m=openai/fake@{server.url}"))
        assert res.exit_code == 0, res.output
        runs.append(run_dir)
    return runs[0], runs[1]


@pytest.mark.parametrize("kind", ["file", "link_to_empty", "dangling"])
def test_merge_out_that_is_a_file_or_a_link_is_one_line(
    kind: str, two_runs: tuple[Path, Path], tmp_path: Path
) -> None:
    out = tmp_path / "merged"
    if kind == "file":
        out.write_text("x")
    elif kind == "link_to_empty":
        (tmp_path / "empty").mkdir()
        os.symlink(tmp_path / "empty", out)
    else:
        os.symlink(tmp_path / "nowhere", out)
    res = cli("merge", str(two_runs[0]), str(two_runs[1]), "--out", str(out))
    assert "merged" in _one_line(res)
    assert not any((tmp_path / "empty").iterdir()) if kind == "link_to_empty" else True


@pytest.mark.parametrize("verb", ["merge", "report"])
def test_a_store_whose_model_meta_is_not_json_is_one_line(
    verb: str, two_runs: tuple[Path, Path], tmp_path: Path
) -> None:
    a, b = two_runs
    for run_dir in (a, b):
        with sqlite3.connect(run_dir / "run.sqlite") as con:
            con.execute("UPDATE meta SET value = '{not json' WHERE key LIKE 'model:%'")
    if verb == "merge":
        res = cli("merge", str(a), str(b), "--out", str(tmp_path / "m"))
    else:
        res = cli("report", str(a))
    assert "not JSON" in _one_line(res)


# -- review, audit, the verifier's knowledge base ----------------------------------------------


def test_review_import_of_a_non_utf8_file_is_one_line(tmp_path: Path) -> None:
    decisions = tmp_path / "decisions.json"
    decisions.write_bytes(b'{"reviewer": "\xff"}')
    (tmp_path / "build").mkdir()
    res = cli("review", "import", str(tmp_path / "build"), str(decisions))
    assert "UTF-8" in _one_line(res)


def test_audit_with_an_npr_detector_but_no_torch_is_one_line(
    tmp_path: Path, monkeypatch: Any
) -> None:
    ds = write_mandela_dataset(tmp_path / "ds", seeds=3)
    ckpt = tmp_path / "npr.pth"
    ckpt.write_bytes(b"x")
    not_installed(monkeypatch, "torch")  # as without the extra: import fails
    res = cli("audit", str(ds), "--detector", f"npr/{ckpt}")
    assert "torch" in _one_line(res)


def test_a_checkpoint_whose_pickle_would_run_code_is_one_line(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    ds = write_mandela_dataset(tmp_path / "ds", seeds=3)
    ckpt = tmp_path / "npr.pth"
    flag = tmp_path / "ran"

    class Sneaky:
        def __reduce__(self) -> Any:
            return (open, (str(flag), "w"))

    torch.save({"model": Sneaky()}, ckpt)
    res = cli("audit", str(ds), "--detector", f"npr/{ckpt}")
    assert "npr.pth" in _one_line(res)
    assert not flag.exists()


def test_a_verifier_kb_with_a_bomb_portrait_is_one_line(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    (kb / "portraits").mkdir(parents=True)
    (kb / "portraits" / "p.png").write_bytes(_png_header_only(20_000, 20_000))
    (kb / "kb.jsonl").write_text(
        json.dumps({"id": "Q1", "name": "A Person", "portraits": ["portraits/p.png"]}) + "\n"
    )
    ds = write_mandela_dataset(tmp_path / "ds")
    res = cli(*run_args(ds, tmp_path / "run", f"builtin/verifier@{kb}"), "--prepare")
    assert "p.png" in _one_line(res) and res.exit_code == 2


def test_validate_of_a_forensics_image_bomb_is_one_line(tmp_path: Path) -> None:
    from support.forensics_data import write_forensics_release

    ds, _ = write_forensics_release(tmp_path / "fb")
    first = json.loads((ds / "items.jsonl").read_text().splitlines()[0])["images"][0]
    (ds / first).write_bytes(_png_header_only(20_000, 20_000))
    res = cli("validate", str(ds))
    assert "items.jsonl:1: images.0:" in res.stderr and "pixels" in res.stderr
    _one_line(res)
