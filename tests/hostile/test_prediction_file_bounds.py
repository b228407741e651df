"""A VLMEvalKit prediction file made by someone else (``--model NAME=vlmevalkit/FILE``) is read
within bounds, before anything large is allocated: a huge shared string, too many rows, a long
TSV line, a zip member declaring a huge size or an XML DOCTYPE each end as one error line naming
the file and the limit. (Full size, 512 MB and 3M rows: ``benchmarks/hostile_readers.py``.)"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from forgebench.models.spec import SpecError
from forgebench.suites.forensics.predictions import read_predictions
from forgebench.suites.forensics.problems import ForensicsDataError
from support.raw_xlsx import WORKBOOK, shared_xml, sheet_xml, write_xlsx


def _one_line(exc: pytest.ExceptionInfo[ForensicsDataError], path: Path, *words: str) -> None:
    msg = str(exc.value)
    assert "\n" not in msg and str(path) in msg, msg
    for w in words:
        assert w in msg, msg


def test_a_shared_string_over_the_cell_limit(tmp_path: Path) -> None:
    path = write_xlsx(
        tmp_path / "p.xlsx",
        sheet_xml([[0, 1], ["1", 2]]),
        shared_xml(["index", "prediction", "A" * 200_000]),
    )
    with pytest.raises(ForensicsDataError) as exc:
        read_predictions(path, max_cell=100_000)
    _one_line(exc, path, "a cell longer than the limit of 100,000 characters")
    assert read_predictions(path, max_cell=300_000) == [("1", "A" * 200_000)]


def test_a_member_declaring_more_than_the_limit_is_refused_unread(tmp_path: Path) -> None:
    path = write_xlsx(
        tmp_path / "p.xlsx",
        sheet_xml([[0, 1], ["1", 2]]),
        shared_xml(["index", "prediction", ("B" * 65_536 for _ in range(64))]),  # 4 MiB
    )
    assert path.stat().st_size < 100_000
    with pytest.raises(ForensicsDataError) as exc:
        read_predictions(path, max_bytes=2**20)
    _one_line(exc, path, "xl/sharedStrings.xml declares", "over the limit of 1 MiB")


def test_rows_over_the_row_limit(tmp_path: Path) -> None:
    rows = [[0, 1], *([str(i), f"answer {i}"] for i in range(1000))]
    path = write_xlsx(tmp_path / "p.xlsx", sheet_xml(rows), shared_xml(["index", "prediction"]))
    with pytest.raises(ForensicsDataError) as exc:
        read_predictions(path, max_rows=500)
    _one_line(exc, path, "more than the limit of 500 rows")
    assert len(read_predictions(path)) == 1000


def test_a_doctype_is_refused(tmp_path: Path) -> None:
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY a "aaaaaaaaaa">'
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><sst><si><t>&b;</t></si></sst>'
    )
    path = write_xlsx(tmp_path / "p.xlsx", sheet_xml([[0, 0]]), bomb.encode())
    with pytest.raises(ForensicsDataError) as exc:
        read_predictions(path)
    _one_line(exc, path, "document type declaration")


def test_a_lying_declared_size_stops_at_the_declared_size(tmp_path: Path) -> None:
    """A member whose directory entry declares fewer bytes than it inflates to is cut there and
    fails its checksum: never read past what was checked."""
    good = write_xlsx(
        tmp_path / "good.xlsx",
        sheet_xml([[0, 1], ["1", 2]]),
        shared_xml(["index", "prediction", "C" * 500_000]),
    )
    data = bytearray(good.read_bytes())
    with zipfile.ZipFile(good) as z:
        info = z.getinfo("xl/sharedStrings.xml")
    size = info.file_size.to_bytes(4, "little")
    small = (1000).to_bytes(4, "little")
    assert data.count(size) == 2  # the local header and the central directory
    path = tmp_path / "liar.xlsx"
    path.write_bytes(bytes(data).replace(size, small))
    with pytest.raises(ForensicsDataError) as exc:
        read_predictions(path)
    _one_line(exc, path)


def test_tsv_line_and_row_limits(tmp_path: Path) -> None:
    long = tmp_path / "long.tsv"
    long.write_text("index\tprediction\n1\t" + "x" * 50_000 + "\n2\tA\n")
    with pytest.raises(ForensicsDataError) as exc:
        read_predictions(long, max_cell=10_000)
    _one_line(exc, long, "a row longer than the limit of 10,000 characters")
    quoted = tmp_path / "quoted.csv"  # an unclosed quote would swallow the rest of the file
    quoted.write_text('index,prediction\n1,"' + "y\n" * 20_000)
    with pytest.raises(ForensicsDataError) as exc:
        read_predictions(quoted, max_cell=10_000)
    _one_line(exc, quoted, "a row longer than the limit")
    many = tmp_path / "many.tsv"
    many.write_text("index\tprediction\n" + "".join(f"{i}\tA\n" for i in range(1000)))
    with pytest.raises(ForensicsDataError) as exc:
        read_predictions(many, max_rows=500)
    _one_line(exc, many, "more than the limit of 500 rows")
    assert len(read_predictions(many)) == 1000


def test_a_fifo_prediction_file_is_refused(tmp_path: Path) -> None:
    import os

    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    for name in ("p.xlsx", "p.tsv"):
        os.mkfifo(tmp_path / name)
        with pytest.raises(ForensicsDataError, match="not a regular file"):
            read_predictions(tmp_path / name)


def test_the_model_spec_refuses_with_one_line(tmp_path: Path) -> None:
    """Through ``--model NAME=vlmevalkit/FILE``: the model's spec error, one line."""
    from forgebench.models.registry import create_model
    from forgebench.models.spec import ModelConfig
    from forgebench.suites import load

    load()  # the Forensics suite registers the provider
    path = write_xlsx(tmp_path / "p.xlsx", b"<worksheet><sheetData><row>", workbook=WORKBOOK)
    with pytest.raises(SpecError) as exc:
        create_model(ModelConfig(spec=f"m=vlmevalkit/{path}"))
    assert "not well-formed XML" in str(exc.value) and "\n" not in str(exc.value)
