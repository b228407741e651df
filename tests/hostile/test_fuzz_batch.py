"""Fuzz: batch result JSONL through ``forgebench import-batch``."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from support.fuzz import Target, fuzz, json_lines_mutator
from support.mandela_data import write_mandela_dataset

from .conftest import cli, run_args


def test_fuzz_batch_results(tmp_path: Path, fake_openai: Any) -> None:
    server = fake_openai()
    run_dir = tmp_path / "run"
    ds = write_mandela_dataset(tmp_path / "ds")
    assert cli(*run_args(ds, run_dir, f"m=openai/fake@{server.url}"), "--prepare").exit_code == 0
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        keys = [r[0] for r in con.execute("SELECT key FROM tasks")]
    body = {"choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": "FAKE. A watch."}}],
            "usage": {"prompt_tokens": 5, "completion_tokens": 3}}  # fmt: skip
    ok = [{"custom_id": k, "response": {"status_code": 200, "body": body}, "error": None}
          for k in keys]  # fmt: skip
    bad = [{"custom_id": keys[0], "response": {"status_code": 429, "body": {
        "error": {"message": "slow down"}}}, "error": None},
        {"custom_id": keys[-1], "response": None, "error": {"code": "x", "message": "y"}}]  # fmt: skip
    seeds = [("\n".join(json.dumps(x) for x in rows) + "\n").encode() for rows in (ok, bad)]

    def args(case: Path, _k: int) -> list[str]:
        return ["import-batch", str(run_dir), str(case)]

    target = Target("batch JSONL", seeds, args, [json_lines_mutator], case_name="out.jsonl")
    report = fuzz(target, tmp_path / "cases", n=200, seed=4)
    assert report.cases == 200 and report.refused > 50 and report.ok > 50
