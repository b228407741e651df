"""``report`` of a store whose Forensics item row holds an invalid type code (a damaged store, or
one written by another version): one ``error:`` line naming the run, the item and the field, a
non-zero exit, no pydantic traceback."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from forgebench import api
from forgebench.run.generate import GenerationSettings
from support.forensics_data import write_forensics_release

from .conftest import cli, error_lines


def test_report_of_an_invalid_type_code_is_one_line(tmp_path: Path) -> None:
    dataset, replay = write_forensics_release(tmp_path)
    run = tmp_path / "run"
    api.run(dataset, run, [f"vlm=replay/{replay}"], GenerationSettings(cache_dir=tmp_path / "c"))
    (run / "metrics.csv").write_text(  # one number: the report reaches the Forensics section
        "benchmark,model,probe,condition,subset,metric,value,n,judge\n"
        "forensics,vlm,MCQ,full,all,acc,50.0,4,\n"
    )
    with sqlite3.connect(run / "run.sqlite") as con:
        data = json.loads(con.execute("SELECT data FROM items WHERE item_id='1'").fetchone()[0])
        data.update(type="ZZ", type_code="HS-RGB-BC-ZZ-DF")
        con.execute("UPDATE items SET data=? WHERE item_id='1'", (json.dumps(data),))
    res = cli("report", str(run))
    assert res.exit_code == 1, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    lines = error_lines(res.output)
    assert len(lines) == 1, res.output
    assert str(run / "run.sqlite") in lines[0] and "forensics item '1': type:" in lines[0]
    assert "'ZZ' is not one of" in lines[0] and "Traceback" not in res.output
