"""A toy multiple-choice benchmark that lives only under tests/: the proof of the suite seam.

A dataset folder holds ``toy.jsonl`` (one question per line: ``id``, ``image``, ``question``,
``options`` {A..D}, ``answer``) and the images. The suite asks each question once (probe ``MCQ``,
condition ``full``) or, with the opt-in part ``gray``, once more on a grey-scale variant
(condition ``gray``); its options ``--toy-hint`` (run: a line before each question) and
``--toy-letters`` (metrics: ``one`` letter, or the ``first`` of several) show a suite's own
flags. ``score`` reads the option letter of each answer, stores it as a verdict and writes
``acc`` rows under benchmark ``toy``; ``outcome`` says which answers were right. Its facets: a
one-table report section (``report.py``) and a sub-command (``forgebench toy count DATASET``,
``commands.py``). No engine or CLI file knows it exists.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import ClassVar

from PIL import Image

from forgebench.results.metrics_csv import Scope, write_metrics
from forgebench.run.images import VariantCache, VariantSpec
from forgebench.run.store import Store
from forgebench.run.tasks import Question
from forgebench.suites.base import (
    Loaded,
    Outcome,
    Protocol,
    Selection,
    Suite,
    SuiteError,
    SuiteOption,
)

NAME = "toy"
PROMPT_VERSION = "toy-mcq/v1"
_LETTER = re.compile(r"\b([A-D])\b")


def _gray(source: bytes, what: str) -> bytes:
    with Image.open(io.BytesIO(source)) as im:
        buf = io.BytesIO()
        im.convert("L").save(buf, format="PNG")
    return buf.getvalue()


class ToySuite(Suite):
    name = NAME
    title = "Toy multiple choice"
    protocol = Protocol(
        probes=("MCQ",),
        conditions=("full", "gray"),
        parts={"gray": "ask every question again on a grey-scale image"},
        options=(
            SuiteOption("toy_hint", "a line put before every question", stages=("run",)),
            SuiteOption(
                "toy_letters",
                "which letters an answer may name",
                stages=("metrics",),
                choices=("one", "first"),
                default="one",
            ),
        ),
    )
    source = "a folder with toy.jsonl and its images (tests/suites/test_seam.py writes one)"
    facets: ClassVar[Mapping[str, str]] = {
        "report": ".report:REPORT",
        "commands": ".commands:COMMANDS",
    }

    def detect(self, path: Path) -> bool:
        return (path / "toy.jsonl").is_file()

    def load(self, path: Path, selection: Selection) -> Loaded:
        rows = [json.loads(line) for line in (path / "toy.jsonl").read_text().splitlines() if line]
        if not rows:
            raise SuiteError(f"{path / 'toy.jsonl'}: no questions")
        if selection.sample is not None:
            rows = rows[: selection.sample]
        return Loaded(root=path.resolve(), items=rows)

    def questions(
        self,
        loaded: Loaded,
        selection: Selection,
        cache: VariantCache,
        *,
        render_images: bool = True,
    ) -> Iterable[Question]:
        conditions = ["full", *(["gray"] if "gray" in selection.parts else [])]
        if selection.conditions is not None:
            conditions = [c for c in conditions if c in selection.conditions]
        get = cache.ensure if render_images else cache.ref
        for row in loaded.items:
            opts = "\n".join(f"{k}. {v}" for k, v in row["options"].items())
            prompt = f"Question: {row['question']}\nOptions:\n{opts}\nAnswer with the letter."
            if "toy_hint" in selection.options:
                prompt = f"{selection.options['toy_hint']}\n{prompt}"
            for cond in conditions:
                src = loaded.root / row["image"]
                spec = (
                    VariantSpec(src, "full")
                    if cond == "full"
                    else VariantSpec(src, "gray", {}, "toy-gray/1", _gray)
                )
                yield Question(row["id"], "MCQ", cond, prompt, PROMPT_VERSION, get(spec))

    def score(
        self, run_dir: Path, judge: str | None, options: Mapping[str, str] | None = None
    ) -> Path | None:
        first = (options or {}).get("toy_letters") == "first"
        tally: dict[tuple[str, str], list[int]] = {}
        with Store.open(run_dir, create=False) as store:
            items = store.items(NAME)
            verdicts = []
            for key, item_id, model, cond, answer in _answers(store):
                found = _LETTER.findall(answer or "")
                letter = found[0] if found and (first or len(set(found)) == 1) else "Z"
                if answer is not None:
                    verdicts.append((key, letter, {}, "toy-parse/1"))
                hit = tally.setdefault((model, cond), [0, 0])
                hit[0] += letter == items[item_id]["answer"]
                hit[1] += 1
            store.put_verdicts(verdicts)
        out = [
            {"benchmark": NAME, "model": m, "probe": "MCQ", "condition": c, "subset": "all",
             "metric": "acc", "value": 100.0 * k / n, "n": n, "judge": ""}
            for (m, c), (k, n) in sorted(tally.items())
        ]  # fmt: skip
        return write_metrics(run_dir, out, Scope.of(NAME))

    def outcome(self, run_dir: Path, judge: str | None) -> list[Outcome]:
        with Store.open(run_dir, create=False) as store:
            items = store.items(NAME)
            return [
                Outcome(r.key, r.model, r.item_id, r.probe, r.condition,
                        r.verdict == items[r.item_id]["answer"])
                for r in store.records(NAME)
            ]  # fmt: skip


def _answers(store: Store) -> list[tuple[str, str, str, str, str | None]]:
    """(task key, item, model, condition, answer text or None) of every current toy task."""
    rows = store.connection.execute(
        "SELECT t.key, t.item_id, t.model, t.condition, a.text FROM tasks t "
        "LEFT JOIN answers a ON a.task_key = t.key "
        "WHERE t.benchmark = ? AND t.superseded_by IS NULL",
        (NAME,),
    ).fetchall()
    return [tuple(r) for r in rows]
