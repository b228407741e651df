"""builtin/verifier as a model: through the runner and the judge like any other, and no oracle."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forgebench.api import run as run_api
from forgebench.cli import app
from forgebench.models.registry import create_model
from forgebench.models.spec import ModelConfig, SpecError
from forgebench.run.generate import GenerationSettings
from forgebench.run.source import Selection
from forgebench.suites.mandela.contract import Item, write_items

from .conftest import World, save

ORACLE_FIELDS = ("family", "control_for", "k1_type", "edit", "entity", "contradiction", "erased")


def _dataset(world: World, root: Path) -> Path:
    """Two seeds: a plaque (authentic, wrong year K4) and a launch (authentic, Hopper K1,
    stranger K0)."""
    plaque_event = {"label": "Apollo 11 Moon landing", "date": "1969-07-20", "place": "Moon"}
    rocket_event = {
        "label": "Falcon 9 launch of DSCOVR",
        "date": "2015-02-11",
        "place": "Cape Canaveral",
    }
    src = {"url": "test", "license": "CC0-1.0"}
    rows = [
        ("plaque-original", "plaque", world.plaque_real, "authentic", None, plaque_event),
        ("plaque-k4", "plaque", world.plaque_fake, "forged", "K4", plaque_event),
        ("rocket-original", "rocket", world.rocket, "authentic", None, rocket_event),
        ("rocket-k1", "rocket", world.rocket_hopper, "forged", "K1", rocket_event),
        ("rocket-k0", "rocket", world.rocket_stranger, "forged", "K0", rocket_event),
    ]
    extra = {
        "plaque-k4": {
            "entity": {"name": "JULY 1971", "aliases": ["1971"], "role": "the date line"},
            "contradiction": "Apollo 11 landed in July 1969, not July 1971 (1969-07-20).",
        },
        "rocket-k1": {
            "k1_type": "date_impossible",
            "entity": {"name": "Grace Hopper", "aliases": [], "role": "spectator, lower right"},
            "contradiction": "Grace Hopper died in 1992, before the Falcon 9 launch (2015-02-11).",
        },
        "rocket-k0": {
            "control_for": "K1",
            "entity": {"name": "unnamed spectator", "aliases": [], "role": "lower right"},
        },
    }
    items = []
    for item_id, seed, rgb, label, family, event in rows:
        image = f"images/{item_id}.png"
        save(rgb, root / image)
        forged = label == "forged"
        items.append(
            Item.model_validate(
                {
                    "id": item_id,
                    "seed_id": seed,
                    "image": image,
                    "label": label,
                    "family": family,
                    "domain": "A1",
                    "noun": "photograph",
                    "saliency": "C1" if forged else None,
                    "edit": {"operation": "insert", "region": [0, 0, 10, 10], "instruction": "x"}
                    if forged
                    else None,
                    "event": event,
                    "source": src,
                    **extra.get(item_id, {}),
                }
            )
        )
    write_items(root / "items.jsonl", items)
    return root


def _metrics(run: Path) -> dict[tuple[str, str, str, str], float]:
    with (run / "metrics.csv").open(newline="") as fh:
        return {
            (r["model"], r["probe"], r["subset"], r["metric"]): float(r["value"])
            for r in csv.DictReader(fh)
            if r["benchmark"] in ("", "mandela") and r["condition"] == "full" and r["value"]
        }


def test_verifier_runs_through_runner_and_judge(world: World, tmp_path: Path) -> None:
    data = _dataset(world, tmp_path / "data")
    run = tmp_path / "run"
    res = CliRunner().invoke(
        app,
        [
            "run",
            str(data),
            "--model",
            f"builtin/verifier@{world.kb}",
            "--probes",
            "L0",
            "--conditions",
            "full",
            "--out",
            str(run),
            "--cache-dir",
            str(tmp_path / "cache"),
            "--judge",
            "builtin/rules",
        ],
    )
    assert res.exit_code == 0, res.output
    m = _metrics(run)
    model = "builtin/verifier"
    assert m[(model, "L0", "K4", "kgr")] == 100.0
    assert m[(model, "L0", "K1", "kgr")] == 100.0
    assert m[(model, "L0", "K0", "kgr")] == 0.0
    assert m[(model, "L0", "all", "auth")] == 100.0
    con = sqlite3.connect(run / "run.sqlite")
    levels = dict(
        con.execute(
            "SELECT t.item_id, g.level FROM grades g JOIN tasks t ON t.key = g.task_key "
            "WHERE g.judge = 'builtin/rules'"
        ).fetchall()
    )
    assert levels["plaque-k4"] == 4 and levels["rocket-k1"] == 4, levels


def _answers(run: Path) -> dict[tuple[str, str, str], str]:
    con = sqlite3.connect(run / "run.sqlite")
    rows = con.execute(
        "SELECT t.item_id, t.probe, t.condition, a.text FROM answers a JOIN tasks t "
        "ON t.key = a.task_key"
    ).fetchall()
    return {(i, p, c): text for i, p, c, text in rows}


def test_answers_do_not_depend_on_labels_families_edits_or_contradictions(
    world: World, tmp_path: Path
) -> None:
    data = _dataset(world, tmp_path / "data")
    stripped = tmp_path / "stripped"
    (stripped / "images").mkdir(parents=True)
    for p in (data / "images").iterdir():
        (stripped / "images" / p.name).write_bytes(p.read_bytes())
    rows = []
    for line in (data / "items.jsonl").read_text().splitlines():
        row = json.loads(line)
        row.update({k: None for k in ORACLE_FIELDS}, label="authentic", saliency=None)
        rows.append(json.dumps(row))
    (stripped / "items.jsonl").write_text("\n".join(rows) + "\n")
    config = ModelConfig(spec=f"builtin/verifier@{world.kb}", concurrency=2)
    selection = Selection(probes=["L0", "L1", "L2", "RECOG"], conditions=["full"])
    for dataset, run, cache in ((data, "r1", "c1"), (stripped, "r2", "c2")):
        settings = GenerationSettings(selection=selection, cache_dir=tmp_path / cache)
        run_api(dataset, tmp_path / run, [config], settings)
    a, b = _answers(tmp_path / "r1"), _answers(tmp_path / "r2")
    common = set(a) & set(b)
    assert len(common) >= 10
    assert any(a[k].startswith("FAKE") for k in common)
    assert {k: a[k] for k in common} == {k: b[k] for k in common}


def test_verifier_needs_a_usable_knowledge_base(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="needs a knowledge base"):
        create_model(ModelConfig(spec="builtin/verifier"))
    with pytest.raises(SpecError, match="knowledge-base folder not found"):
        create_model(ModelConfig(spec=f"builtin/verifier@{tmp_path / 'nope'}"))
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "kb.jsonl").write_text('{"id": "x", "name": "X", "portraits": ["p.png"]}\n')
    with pytest.raises(SpecError, match=r"portrait 'p\.png' not found"):
        create_model(ModelConfig(spec=f"builtin/verifier@{tmp_path / 'kb'}"))
    (tmp_path / "kb" / "kb.jsonl").write_text("{not json\n")
    with pytest.raises(SpecError, match=r"kb.jsonl:1: not JSON"):
        create_model(ModelConfig(spec=f"builtin/verifier@{tmp_path / 'kb'}"))


def test_an_undecodable_portrait_fails_when_the_verifier_is_made(tmp_path: Path) -> None:
    """The portraits are embedded on first use, but decoded when the verifier is made: a JPEG
    whose header passes the KB's check and whose pixels are cut off fails there, once, not in
    every task that identifies a face."""
    import numpy as np
    from PIL import Image

    from forgebench.suites.mandela.verifier.kb import load_kb
    from forgebench.suites.mandela.verifier.model import Verifier

    kb = tmp_path / "kb"
    (kb / "portraits").mkdir(parents=True)
    noise = np.random.default_rng(0).integers(0, 255, (200, 200, 3), dtype=np.uint8)
    Image.fromarray(noise).save(kb / "portraits" / "p.jpg")
    whole = (kb / "portraits" / "p.jpg").read_bytes()
    (kb / "portraits" / "p.jpg").write_bytes(whole[: len(whole) // 2])
    (kb / "kb.jsonl").write_text(
        '{"id": "Q1", "name": "A Person", "portraits": ["portraits/p.jpg"]}\n'
    )
    loaded = load_kb(kb)  # the header is whole
    with pytest.raises(OSError, match="truncated"):
        Verifier(loaded)
