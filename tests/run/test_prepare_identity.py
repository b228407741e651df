"""Preparing a run stores the same bytes however fast it is made: task keys, every stored task
column and the stored items of a fixed small Forensics and Mandela run match digests recorded
before the prepare path was optimised (a changed key would re-ask every model in every run)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest

from forgebench.models.spec import ModelConfig
from forgebench.run.generate import GenerationSettings, run_generation
from forgebench.run.source import Selection
from forgebench.suites import get
from support.forensics_data import write_forensics_release
from support.mandela_data import write_mandela_dataset

FORENSICS_DIGEST = "edf42e5e7f7bc5111e75f99bc1d383504e22b110b0db523adde585d8cd21aed0"
MANDELA_DIGEST = "1b9084a16fe368000d1d40eeb532c89c9a7762dcebd1f5fd5fe52618e7c2c971"

CONFIGS = [
    ("a=builtin/artefact", {"max_tokens": 8}),
    ("b=openai/gpt-x@http://127.0.0.1:9/v1", {"temperature": 0.0, "seed": 3, "max_tokens": 64}),
    ("c=builtin/artefact", {"extra_body": {"api_key": "sk-never-stored-123", "top_k": 5}}),
]


def _digest(run: Path, tmp: Path) -> str:
    con = sqlite3.connect(run / "run.sqlite")
    tasks = con.execute(
        "SELECT key, item_id, probe, condition, model, prompt, prompt_version, variant_id, "
        "params, extra, image_path, media_type, benchmark, images, superseded_by "
        "FROM tasks ORDER BY rowid"
    ).fetchall()
    items = con.execute("SELECT benchmark, item_id, data FROM items ORDER BY rowid").fetchall()
    con.close()
    text = json.dumps([tasks, items]).replace(str(tmp), "TMP")
    return hashlib.sha256(text.encode()).hexdigest()


def _prepare(suite: str, data: Path, tmp: Path, selection: Selection) -> Path:
    configs = [ModelConfig(spec=s, **kw) for s, kw in CONFIGS]
    run = tmp / f"run-{suite}"
    settings = GenerationSettings(selection=selection, cache_dir=tmp / "cache", prepare_only=True)
    run_generation(get(suite), data, run, configs, settings)
    return run


@pytest.mark.parametrize("twice", [False, True])
def test_forensics_prepare_stores_the_recorded_bytes(tmp_path: Path, twice: bool) -> None:
    """Every protocol part (rendered variants, tiles, attribution) for three models; preparing
    again into the same run (a resume) stores nothing new and changes nothing."""
    data, _ = write_forensics_release(tmp_path / "release")
    sel = Selection(parts=("robustness", "attribution", "studies", "jpeg"))
    run = _prepare("forensics", data, tmp_path, sel)
    if twice:
        run = _prepare("forensics", data, tmp_path, sel)
    assert _digest(run, tmp_path) == FORENSICS_DIGEST


def test_mandela_prepare_stores_the_recorded_bytes(tmp_path: Path) -> None:
    data = write_mandela_dataset(tmp_path / "mandela", seeds=3)
    run = _prepare("mandela", data, tmp_path, Selection())
    assert _digest(run, tmp_path) == MANDELA_DIGEST
