"""A small real run for report tests: a dataset with images and a run store with answers."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from forgebench.run.store.schema import SCHEMA


def _scene(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    base = np.zeros((120, 160, 3), dtype=np.uint8)
    base[..., 0] = np.linspace(30, 220, 160, dtype=np.uint8)[None, :]
    base[..., 1] = np.linspace(40, 200, 120, dtype=np.uint8)[:, None]
    base[..., 2] = 90
    return np.clip(base.astype(int) + rng.integers(-6, 7, base.shape), 0, 255).astype(np.uint8)


def make_site_run(tmp: Path, n_seeds: int = 3) -> tuple[Path, Path]:
    """(dataset_dir, run_dir): per seed an authentic original and one peripheral K1 forgery."""
    ds = tmp / "dataset"
    (ds / "images").mkdir(parents=True)
    items = []
    for s in range(n_seeds):
        orig = _scene(s)
        Image.fromarray(orig).save(ds / "images" / f"s{s}.png")
        forged = orig.copy()
        forged[20:50, 100:130] = [250, 250, 250]
        Image.fromarray(forged).save(ds / "images" / f"s{s}_k1.png")
        event = {"label": f"Summit number {s}", "date": f"19{60 + s}-05-01", "place": "Geneva"}
        items.append(
            {
                "id": f"s{s}-orig",
                "seed_id": f"s{s}",
                "image": f"images/s{s}.png",
                "label": "authentic",
                "domain": "A1",
                "noun": "photograph",
                "crop": [80, 0, 160, 80],
                "event": event,
            }
        )
        items.append(
            {
                "id": f"s{s}-k1",
                "seed_id": f"s{s}",
                "image": f"images/s{s}_k1.png",
                "label": "forged",
                "family": "K1",
                "k1_type": "date_impossible",
                "domain": "A1",
                "noun": "photograph",
                "saliency": "C3",
                "edit": {
                    "operation": "insert",
                    "region": [100, 20, 130, 50],
                    "instruction": "add a photographer",
                },
                "crop": [80, 0, 160, 80],
                "event": event,
                "entity": {
                    "name": "George Orwell",
                    "aliases": ["Orwell", "Eric Blair"],
                    "role": "photographer",
                },
                "contradiction": "George Orwell died in 1950, before this event",
            }
        )
    (ds / "items.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items))

    run = tmp / "run"
    run.mkdir()
    con = sqlite3.connect(run / "run.sqlite")
    con.executescript(SCHEMA)
    now = time.time()
    con.execute("INSERT INTO meta VALUES ('dataset', ?)", (json.dumps(str(ds)),))
    for it in items:
        con.execute(
            "INSERT INTO items(benchmark, item_id, data) VALUES ('mandela', ?, ?)",
            (it["id"], json.dumps(it)),
        )
    n = 0
    for it in items:
        for model in ("alpha", "beta"):
            for probe, cond in (("L0", "full"), ("L1", "crop")):
                key = f"k{n}"
                n += 1
                con.execute(
                    "INSERT INTO tasks(key, item_id, probe, condition, model, prompt, prompt_version, "
                    "variant_id, params, extra, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (key, it["id"], probe, cond, model, "prompt", "v", None, "{}", "{}", now),
                )
                if model == "beta" and probe == "L1" and it["label"] == "forged":
                    con.execute(
                        "INSERT INTO errors VALUES (?,?,?,?,?)",
                        (key, "HTTP 500 after 6 attempts", 500, 6, now),
                    )
                    continue
                fake = model == "alpha" and it["label"] == "forged"
                text = (
                    "FAKE. The photographer at the right is George Orwell, who died in 1950."
                    if fake
                    else "REAL. Nothing looks wrong."
                )
                con.execute(
                    "INSERT INTO answers VALUES (?,?,?,?,?,?,?,?,?,?)",
                    (key, text, "{}", "stop", 100, 20, 0.5, 1, "{}", now),
                )
                verdict = "FAKE" if fake else "REAL"
                con.execute("INSERT INTO verdicts VALUES (?,?,?,?)", (key, verdict, "{}", "p1"))
                if it["label"] == "forged":
                    level = 4 if fake else 0
                    con.execute(
                        "INSERT INTO judgements (task_key, judge, kind, value, level, status, reason,"
                        " version, judge_spec, created_at) VALUES (?,?,'evidence',?,?,?,?,?,?,?)",
                        (
                            key,
                            "builtin/rules",
                            f"E{level}",
                            level,
                            "graded" if fake else "auto",
                            "names Orwell and his death year" if fake else "verdict not FAKE",
                            "F1",
                            "builtin/rules",
                            now,
                        ),
                    )
    con.commit()
    con.close()
    return ds, run


@pytest.fixture
def site_run(tmp_path: Path) -> tuple[Path, Path]:
    return make_site_run(tmp_path)


def make_mixed_run(tmp: Path) -> Path:
    """The Mandela run of :func:`make_site_run` plus Forensics questions asked in the same run
    (release TSV imported, answered by a replay model through the runner, then scored)."""
    from forgebench import api
    from support.forensics_data import write_forensics_release

    _ds, run = make_site_run(tmp)
    forensics, replay = write_forensics_release(tmp / "forensics")
    api.run(forensics, run, [f"vlm=replay/{replay}"])
    api.metrics(run)
    return run


@pytest.fixture
def mixed_run(tmp_path: Path) -> Path:
    return make_mixed_run(tmp_path)
