"""``forgebench redact RUN`` reaches every format forgebench writes into a run (Inspect ``.eval``
zips, VLMEvalKit ``.xlsx``, Parquet, text, the store) and every encoding of a key the README
lists (exact, upper/lower case, URL-encoded, base64 of the key and of ``Bearer KEY``, inside a
``Basic`` credential); each file still opens with its own library afterwards. A symbolic link or
a file it cannot rewrite is refused by name, before anything changes. A key under 8 characters
is not scrubbed from answers (ordinary words stay), and the user is told which variable."""

from __future__ import annotations

import base64
import io
import json
import re
import sqlite3
import urllib.parse
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from forgebench.models.spec import ModelConfig
from forgebench.run.settings import scrub, secret_values
from forgebench.run.store import Store
from forgebench.util import redact as redact_module
from forgebench.util.redact import redact_known, redact_text

from .conftest import cli, error_lines

KEY = "gw-7f3a9c2e/ECHO+5511?q=z"
"""A long key holding URL-reserved characters (so URL-encoding changes it)."""
LONG_ENV = "H37_GATEWAY_KEY"
SHORT_ENV = "H37_SHORT_GW"
ORDINARY = "a test image, tested twice: the test passes"


def _b64(data: str, *, url: bool = False) -> str:
    raw = data.encode()
    return (base64.urlsafe_b64encode if url else base64.b64encode)(raw).decode()


ENCODINGS = {
    "exact": KEY,
    "upper": KEY.upper(),
    "lower": KEY.lower(),
    "url": urllib.parse.quote(KEY, safe=""),
    "url-lower-hex": re.sub("%..", lambda m: m.group(0).lower(), urllib.parse.quote(KEY, safe="")),
    "b64": _b64(KEY),
    "b64-unpadded": _b64(KEY).rstrip("="),
    "b64url": _b64(KEY, url=True),
    "b64-bearer": _b64(f"Bearer {KEY}"),
    "b64url-bearer-unpadded": _b64(f"Bearer {KEY}", url=True).rstrip("="),
    "b64-basic": _b64(f"user:{KEY}"),
    "b64-basic-shift1": _b64(f"u1:{KEY}"),
    "b64-basic-shift0": _b64(f"use:{KEY}"),
}
"""Every encoding the README says redaction covers, written as a user would find it."""


def _answers() -> list[str]:
    return [f"{name}: the model repeated {enc} here" for name, enc in ENCODINGS.items()]


def _eval_zip(path: Path) -> None:
    """An Inspect-style ``.eval``: compressed JSON members, one of them holding the key."""
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("_journal/start.json", json.dumps({"eval": {"task": "forgebench-mandela"}}))
        z.writestr("header.json", json.dumps({"status": "success", "note": "no key"}))
        for i, text in enumerate(_answers()):
            z.writestr(f"samples/{i}_epoch_1.json", json.dumps({"output": {"completion": text}}))
        z.writestr("images/abc.png", png, compress_type=zipfile.ZIP_STORED)


def _run_folder(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    with Store.open(run) as store:
        store.meta_set("model:m", {"config": {"spec": "m=openai/x", "api_key_env": LONG_ENV}})
        store.meta_set("model:s", {"config": {"spec": "s=openai/y", "api_key_env": SHORT_ENV}})
        for i, text in enumerate([*_answers(), ORDINARY]):
            store.meta_set(f"note:{i}", text)
    (run / "report").mkdir()
    (run / "report" / "index.html").write_text("<p>" + "</p><p>".join(_answers()) + "</p>")
    (run / "config.json").write_text(json.dumps({"answers": _answers(), "plain": ORDINARY}))
    (run / "inspect").mkdir()
    _eval_zip(run / "inspect" / "2026-01-01T00-00-00_forgebench-mandela_x.eval")
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["index", "prediction"])
    for i, text in enumerate([*_answers(), ORDINARY]):
        sheet.append([i, text])
    book.save(run / "m_ForensicsBench.xlsx")
    table = pa.table(
        {
            "id": list(range(len(ENCODINGS) + 1)),
            "answer": [*_answers(), ORDINARY],
            "tags": [[enc] for enc in ENCODINGS.values()] + [["plain"]],
        }
    )
    pq.write_table(table, run / "export.parquet", compression="zstd")
    return run


def _contents(run: Path) -> dict[str, str]:
    """Every file's text as its own library reads it (zip members decompressed, Parquet values
    and xlsx cells), plus its raw bytes."""
    out: dict[str, str] = {}
    for path in sorted(p for p in run.rglob("*") if p.is_file()):
        name = str(path.relative_to(run))
        raw = path.read_bytes()
        out[name + " (bytes)"] = raw.decode("latin-1")
        if path.suffix in (".eval", ".xlsx"):
            with zipfile.ZipFile(path) as z:
                assert z.testzip() is None
                for member in z.namelist():
                    out[f"{name}:{member}"] = z.read(member).decode("latin-1")
        if path.suffix == ".xlsx":
            book = openpyxl.load_workbook(path)
            out[name + " (cells)"] = repr(
                [list(r) for r in book.active.iter_rows(values_only=True)]
            )
        if path.suffix == ".parquet":
            out[name + " (rows)"] = repr(pq.read_table(path).to_pylist())
        if path.name == "run.sqlite":
            with sqlite3.connect(path) as con:
                tables = [
                    r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")
                ]
                out[name + " (rows)"] = repr(
                    [list(con.execute(f'SELECT * FROM "{t}"')) for t in tables]
                )
    return out


def _leaks(run: Path) -> list[str]:
    return [
        f"{enc_name} in {where}"
        for where, text in _contents(run).items()
        for enc_name, enc in ENCODINGS.items()
        if enc in text
    ]


def test_redact_cleans_every_format_and_every_encoding_and_keeps_files_readable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(redact_module, "_warned", set())  # said once per process: a fresh one
    run = _run_folder(tmp_path)
    assert len(_leaks(run)) > 3 * len(ENCODINGS)  # every encoding in the store, zip, xlsx, ...
    monkeypatch.setenv(LONG_ENV, KEY)
    monkeypatch.setenv(SHORT_ENV, "test")
    res = cli("redact", str(run))
    assert res.exit_code == 0, res.output
    assert "7 files" not in res.stdout and "files" in res.stdout  # counted, not every file
    # the short key: named (never its value) in one warning line, and no ordinary word touched
    warnings = [line for line in res.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and SHORT_ENV in warnings[0] and "test" not in warnings[0]
    assert _leaks(run) == []
    contents = _contents(run)
    # every file still opens with its own library (_contents opened them) and kept its data
    assert ORDINARY in contents["m_ForensicsBench.xlsx (cells)"]
    assert ORDINARY in contents["export.parquet (rows)"]
    assert ORDINARY in contents["run.sqlite (rows)"] and ORDINARY in contents["config.json (bytes)"]
    assert "exact: the model repeated *** here" in contents["export.parquet (rows)"]
    back = pq.read_table(run / "export.parquet")
    assert back.schema.field("tags").type == pa.list_(pa.string()) and back.num_rows == 14
    with zipfile.ZipFile(next((run / "inspect").glob("*.eval"))) as z:
        names = z.namelist()
        assert names[:2] == ["_journal/start.json", "header.json"] and names[-1] == "images/abc.png"
        sample = json.loads(z.read("samples/5_epoch_1.json"))
        assert sample["output"]["completion"] == "b64: the model repeated *** here"
    # a second pass finds nothing left to do
    again = cli("redact", str(run))
    assert again.exit_code == 0 and "0 store cells and 0 files" in again.stdout


def test_live_redaction_covers_every_encoding_the_same_way(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(LONG_ENV, KEY)
    for name, enc in ENCODINGS.items():
        answer = redact_known(f"Authorization: Basic {enc}; see you")
        assert enc not in answer and "***" in answer and answer.endswith("; see you"), name
        error = redact_text(f"401 from server: {enc!r}")
        assert enc not in error, name


def test_a_short_key_leaves_answers_alone_and_is_removed_from_errors_only_as_a_word(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(redact_module, "_warned", set())
    monkeypatch.setenv("H37_LIVE_SHORT", "test")
    config = ModelConfig(spec="m=openai/x@http://127.0.0.1:9/v1", api_key_env="H37_LIVE_SHORT")
    values = secret_values([config])
    err = capsys.readouterr().err
    assert "H37_LIVE_SHORT" in err and "test" not in err and err.count("\n") == 1
    assert redact_known(ORDINARY) == ORDINARY  # not "a *** image, ***ed twice"
    assert redact_text("401: key test rejected; tested again", values) == (
        "401: key *** rejected; tested again"
    )
    assert scrub({"note": "the test key test-ish"}, values) == {"note": "the *** key ***-ish"}
    secret_values([config])
    assert capsys.readouterr().err == ""  # said once


def _refused(run: Path, name: str) -> None:
    res = cli("redact", str(run))
    assert res.exit_code != 0
    lines = error_lines(res.stderr)
    assert len(lines) == 1 and name in lines[0], res.output
    assert "Traceback" not in res.output


@pytest.mark.parametrize("what", ["folder", "file"])
def test_a_symlink_inside_the_run_is_refused_and_nothing_is_touched(
    what: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = tmp_path / "run"
    with Store.open(run) as store:
        store.meta_set("note", f"the key is {KEY}")
    (run / "config.json").write_text(json.dumps({"k": KEY}))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "index.html").write_text(f"<p>{KEY}</p>")
    if what == "folder":
        (run / "report").symlink_to(elsewhere, target_is_directory=True)
    else:
        (run / "report").mkdir()
        (run / "report" / "index.html").symlink_to(elsewhere / "index.html")
    monkeypatch.setenv(LONG_ENV, KEY)
    _refused(run, "report")
    assert KEY in (elsewhere / "index.html").read_text()  # outside the run: untouched
    assert KEY in (run / "config.json").read_text()  # nothing half-done inside it either
    with sqlite3.connect(run / "run.sqlite") as con:
        assert KEY in con.execute("SELECT value FROM meta WHERE key='note'").fetchone()[0]


def _bad_parquet(path: Path) -> None:
    path.write_bytes(b"PAR1" + f"torn parquet holding {KEY}".encode() + b"PAR1")


def _bad_eval(path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("header.json", json.dumps({"key": KEY}) * 50)
    path.write_bytes(buf.getvalue()[: len(buf.getvalue()) // 2])  # cut short


def _png_with_key(path: Path) -> None:
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\x10tEXtComment\x00" + KEY.encode() + b"\xff")


@pytest.mark.parametrize(
    ("name", "make"),
    [("export.parquet", _bad_parquet), ("x.eval", _bad_eval), ("fig.png", _png_with_key)],
)
def test_a_file_that_cannot_be_rewritten_is_refused_by_name_and_left_as_it_was(
    name: str, make: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = tmp_path / "run"
    Store.open(run).close()
    (run / "config.json").write_text(json.dumps({"k": KEY}))
    make(run / name)
    before = (run / name).read_bytes()
    monkeypatch.setenv(LONG_ENV, KEY)
    _refused(run, name)
    assert (run / name).read_bytes() == before  # never "redacted" byte by byte
    assert KEY in (run / "config.json").read_text()  # all or nothing
    assert sorted(p.name for p in run.iterdir() if p.name.endswith(".tmp")) == []
