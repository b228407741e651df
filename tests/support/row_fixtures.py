"""The rows a refactor must leave byte-identical (issue 38, "Must hold"): every stored task with
its key, and the bytes of ``metrics.csv``, of one cheap deterministic run per benchmark and of
the offline demo's Mandela and PIXAR parts; compared by ``tests/run/test_rows_unchanged.py`` against the
reference files under ``tests/fixtures/rows/<name>/`` (``tasks.csv``, ``metrics.csv``).

The runs:

- ``demo``: the offline demo's Mandela dataset (``forgebench.demo.build.build_demo``; the
  session fixture ``demo_dataset`` in the tests) asked every question of its default protocol by
  the demo's detector ``builtin/artefact``, judged by the demo's judge ``builtin/rules``, scored
  (what ``forgebench demo`` does for Mandela, without the knowledge verifier, and without the
  Forensics part it derives from the same forgeries);
- ``demo_pixar``: the demo's PIXAR part on the same dataset (``forgebench.demo.pixar``: pixel
  labels from each forgery and its original, ``builtin/artefact``'s score maps scored; metrics
  rows only, no task);
- ``mandela``: ``support.mandela_data.write_mandela_dataset`` (two seeds), every question of the
  default protocol, asked to ``vlm=replay/...`` (a written answer per question, from
  :func:`_mandela_answer`) and to ``builtin/artefact``, judged by ``builtin/rules``, scored;
- ``forensics``: ``support.forensics_data.write_forensics_release`` (four rows of the release's
  TSV, answers that take each extraction step) asked to ``vlm=replay/...``, scored;
- ``forensics_studies``: the six rows of ``tests/suites/forensics/conftest.py``'s release TSV
  (video frames, segmentation candidates, rows that reference another row's image) with the
  opt-in ``studies`` part (``prefix``, ``multi_image``: a task of several images, ``face_boxes``),
  asked to ``vlm=replay/...``, scored;
- ``pixar``: ``support.pixar_loc.box_pairs`` (three pairs with planted edits), the LOC question
  asked to two replay models (``exact`` names every box, ``mixed`` answers one pair in prose),
  scored.

Each run stores its tasks first (``GenerationSettings(prepare_only=True)``), writes the replay
answers for exactly the stored tasks, then sends. ``tasks.csv`` holds every column of the tasks
table except ``created_at`` (a clock) and the image paths (``image_path``, the path part of
``images``: where the variant cache lives); the prompt is kept as its SHA-256 (the key hashes
it too), sorted by benchmark, model, item, probe, condition and key. ``metrics.csv`` is compared
byte for byte.

Regenerate (from ``tests/``, with the project's virtual environment)::

    ../.venv/bin/python -m support.row_fixtures --write          # every run
    ../.venv/bin/python -m support.row_fixtures --write pixar    # one run
    ../.venv/bin/python -m support.row_fixtures --check          # compare, print the changes

An issue that changes numbers on purpose (a new prompt, a parser or metric fix) regenerates these
fixtures in its own commit and lists the changed rows (``--check`` prints them before
``--write``); a refactor never does.
"""

from __future__ import annotations

import csv
import difflib
import hashlib
import io
import json
import os
import sqlite3
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forgebench.run.source import Selection

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "rows"
"""``tests/fixtures/rows``: one folder per run."""

RUNS = ("demo", "demo_pixar", "mandela", "forensics", "forensics_studies", "pixar")
"""The runs whose rows are fixed, in the order they are made."""

TASK_COLUMNS = (
    "benchmark", "model", "item_id", "probe", "condition", "key", "prompt_sha256",
    "prompt_version", "variant_id", "images", "media_type", "params", "extra", "superseded_by",
)  # fmt: skip
"""The columns of ``tasks.csv``; a task is identified by its first five."""

IDENTITY = 5
"""How many leading columns of :data:`TASK_COLUMNS` name a task (benchmark ... condition)."""


@dataclass(frozen=True)
class Rows:
    """What a run must keep: its tasks as CSV text and its metrics.csv bytes."""

    tasks: str
    metrics: bytes


Answer = Callable[[str, str, str, str], str]
"""``(model, item_id, probe, condition) -> text`` of a replay model."""


# --- the runs ------------------------------------------------------------------------------------


def make_rows(name: str, work: Path, demo_dataset: Path | None = None) -> Rows:
    """The rows of run ``name`` made under the empty folder ``work``; ``demo`` reads the demo
    dataset ``demo_dataset`` (built under ``work`` when None)."""
    from forgebench import suites

    suites.load()  # what the CLI does at start-up (the demo's build receives the suites' parts)
    if name == "demo":
        return _demo(work, demo_dataset)
    if name == "demo_pixar":
        return _demo_pixar(work, demo_dataset)
    if name == "mandela":
        return _mandela(work)
    if name == "forensics":
        return _forensics(work)
    if name == "forensics_studies":
        return _forensics_studies(work)
    if name == "pixar":
        return _pixar(work)
    raise ValueError(f"unknown run {name!r}; known: {', '.join(RUNS)}")


def _demo(work: Path, dataset: Path | None) -> Rows:
    if dataset is None:
        from forgebench.demo.build import build_demo

        dataset = build_demo(work / "demo")
    from forgebench.demo.pipeline import DEMO_DETECTOR, DEMO_JUDGE

    return _run(work, dataset, [DEMO_DETECTOR], {}, judge=DEMO_JUDGE)


def _demo_pixar(work: Path, dataset: Path | None) -> Rows:
    """The demo's PIXAR part: every forgery of the demo dataset labelled against its original,
    the detector's score maps scored, the rows written into metrics.csv (no task is stored)."""
    if dataset is None:
        from forgebench.demo.build import build_demo

        dataset = build_demo(work / "demo")
    from forgebench.demo.pipeline import DEMO_DETECTOR
    from forgebench.demo.pixar import score_pixar, write_pixar
    from forgebench.models.builtin.artefact import score_map

    run = work / "run"
    run.mkdir()
    write_pixar(run, score_pixar(dataset, run, score_map, model=DEMO_DETECTOR), model=DEMO_DETECTOR)
    return Rows(tasks=tasks_csv(None), metrics=(run / "metrics.csv").read_bytes())


def _mandela_answer(model: str, item_id: str, probe: str, condition: str) -> str:
    """Answers that take different ways through the Mandela parser and the rules judge: the
    first seed's forgery is called FAKE for its anachronism (graded), the second's REAL (E0
    without a call) and once not answered at all (a miss); the first seed's event is known and
    recognised, the second's not."""
    forged, first = item_id.endswith("-k2"), item_id.startswith("s0")
    if probe in ("L0", "L1", "L-adv"):
        if forged and first:
            return (
                "FAKE. The digital wristwatch is anachronistic: digital wristwatches did not "
                "exist at the Apollo 11 lunar landing in 1969."
            )
        if forged and probe == "L-adv":
            return "It is hard to say from this picture alone."
        return "REAL. Nothing in the photograph looks edited." if condition == "full" else "REAL."
    if probe == "RECOG":
        return "Yes: the Apollo 11 lunar landing, 1969." if first else "NOT RECOGNISED"
    if probe == "EVENT":
        if first:
            return (
                "KNOWN\nApollo 11 landed on the Moon on 20 July 1969; Neil Armstrong and Buzz "
                "Aldrin walked on the surface."
            )
        return "UNKNOWN"
    if probe == "TEXT":
        return "NO. The person could not have been there."
    return "I cannot identify anyone in this photograph."


def _mandela(work: Path) -> Rows:
    from support.mandela_data import write_mandela_dataset

    dataset = write_mandela_dataset(work / "mandela", seeds=2)
    return _run(
        work, dataset, ["builtin/artefact"], {"vlm": _mandela_answer}, judge="builtin/rules"
    )


def _forensics(work: Path) -> Rows:
    from support.forensics_data import FORENSICS_ROWS, write_forensics_release

    dataset, _replay = write_forensics_release(work / "forensics")
    said = {row[0]: row[5] for row in FORENSICS_ROWS}
    return _run(work, dataset, [], {"vlm": lambda _m, item, _p, _c: said[item]})


def _studies_answer(model: str, item_id: str, probe: str, condition: str) -> str:
    """A letter, a sentence around a letter, or an option's text, by item and condition."""
    if condition == "multi_image":
        return "B. Only the second frame is forged."
    if condition == "prefix":
        return f"The answer is {'AB'[int(item_id) % 2]}."
    return "non AI-generated" if item_id in ("1", "4") else "A"


def _forensics_studies(work: Path) -> Rows:
    from forgebench.run.source import Selection
    from forgebench.suites.forensics.tsv_import import import_release_tsv
    from support.modules import file_module

    fixtures = file_module(
        "forgebench_tests_forensics_rows", Path(__file__).parent.parent / "suites" / "forensics"
        / "conftest.py"
    )  # fmt: skip
    tsv = fixtures.write_tsv(work / "ForensicsBench.tsv", fixtures.release_rows())
    dataset = work / "forensics"
    import_release_tsv(tsv, dataset)
    return _run(work, dataset, [], {"vlm": _studies_answer}, selection=Selection(parts=["studies"]))


def _pixar(work: Path) -> Rows:
    from support.pixar_loc import box_pairs, exact_or_prose

    pairs = work / "pairs"
    box_pairs(pairs)

    def answer(model: str, item_id: str, _probe: str, _condition: str) -> str:
        return exact_or_prose(model, item_id)

    return _run(work, pairs, [], {"exact": answer, "mixed": answer})


def _run(
    work: Path,
    dataset: Path,
    models: Sequence[str],
    replayed: dict[str, Answer],
    judge: str | None = None,
    selection: Selection | None = None,
) -> Rows:
    """Store the tasks of ``models`` and of a replay model per ``replayed`` entry, write each
    replay model's answer to exactly its stored tasks, send, judge, score: the run's rows."""
    from forgebench import api
    from forgebench.run.generate import GenerationSettings
    from forgebench.run.source import Selection

    run, cache = work / "run", work / "cache"
    files = {alias: work / f"{alias}.jsonl" for alias in replayed}
    for path in files.values():
        path.write_text("", encoding="utf-8")
    specs = [*models, *(f"{alias}=replay/{path}" for alias, path in files.items())]
    chosen = selection or Selection()
    api.run(dataset, run, specs, GenerationSettings(chosen, cache_dir=cache, prepare_only=True))
    for alias, answer in replayed.items():
        with sqlite3.connect(run / "run.sqlite") as con:
            stored = con.execute(
                "SELECT item_id, probe, condition FROM tasks WHERE model = ? "
                "ORDER BY item_id, probe, condition",
                (alias,),
            ).fetchall()
        files[alias].write_text(
            "".join(
                json.dumps(
                    {"item_id": i, "probe": p, "condition": c, "text": answer(alias, i, p, c)}
                )
                + "\n"
                for i, p, c in stored
            ),
            encoding="utf-8",
        )
    api.run(dataset, run, specs, GenerationSettings(chosen, cache_dir=cache))
    if judge is not None:
        api.judge(run, judge)
    api.metrics(run)
    return Rows(tasks=tasks_csv(run / "run.sqlite"), metrics=(run / "metrics.csv").read_bytes())


def tasks_csv(db: Path | None) -> str:
    """The tasks table of ``db`` as :data:`TASK_COLUMNS` CSV text (see the module's docstring),
    read with a plain read-only SELECT; the header alone for None (a run without a store)."""
    stored: list[sqlite3.Row] = []
    if db is not None:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        con.row_factory = sqlite3.Row
        try:
            stored = con.execute("SELECT * FROM tasks").fetchall()
        finally:
            con.close()
    rows = []
    for t in stored:
        images = json.loads(t["images"]) if t["images"] else None
        rows.append(
            [
                t["benchmark"], t["model"], t["item_id"], t["probe"], t["condition"], t["key"],
                hashlib.sha256(t["prompt"].encode("utf-8")).hexdigest(), t["prompt_version"],
                t["variant_id"] or "",
                json.dumps([[vid, media] for vid, _path, media in images]) if images else "",
                t["media_type"] or "", t["params"], t["extra"], t["superseded_by"] or "",
            ]
        )  # fmt: skip
    rows.sort()
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(TASK_COLUMNS)
    writer.writerows(rows)
    return out.getvalue()


# --- the reference files and their differences ---------------------------------------------------


def stored(name: str) -> Rows:
    """The reference rows of run ``name`` (``tests/fixtures/rows/<name>/``)."""
    folder = FIXTURES / name
    return Rows(
        tasks=(folder / "tasks.csv").read_text(encoding="utf-8"),
        metrics=(folder / "metrics.csv").read_bytes(),
    )


def write(name: str, rows: Rows) -> None:
    folder = FIXTURES / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tasks.csv").write_text(rows.tasks, encoding="utf-8", newline="")
    (folder / "metrics.csv").write_bytes(rows.metrics)


def _csv_rows(text: str) -> tuple[list[str], list[list[str]]]:
    table = list(csv.reader(io.StringIO(text)))
    return (table[0], table[1:]) if table else ([], [])


def _keyed(rows: list[list[str]], width: int) -> dict[tuple[str, ...], list[list[str]]]:
    out: dict[tuple[str, ...], list[list[str]]] = {}
    for row in rows:
        out.setdefault(tuple(row[:width]), []).append(row)
    return out


def _table_changes(
    before: str, after: str, key_of: Callable[[list[str]], int], what: str, limit: int = 20
) -> list[str]:
    """Lines naming the rows of a CSV text that ``after`` added, removed or changed (with the
    columns that changed) against ``before``; rows are matched on their first ``key_of(header)``
    columns."""
    head_b, rows_b = _csv_rows(before)
    head_a, rows_a = _csv_rows(after)
    if head_b != head_a:
        return [f"{what}: columns changed: {head_b} -> {head_a}"]
    width = key_of(head_b)
    old, new = _keyed(rows_b, width), _keyed(rows_a, width)
    lines: list[str] = []
    for ident in sorted(set(old) | set(new)):
        b, a = old.get(ident, []), new.get(ident, [])
        if b == a:
            continue
        name = "/".join(ident)
        if not b:
            lines.extend(f"{what} added: {name}: {row[width:]}" for row in a)
        elif not a:
            lines.extend(f"{what} removed: {name}: {row[width:]}" for row in b)
        elif len(a) == len(b) == 1:
            changed = [
                f"{col} {x!r} -> {y!r}"
                for col, x, y in zip(head_b[width:], b[0][width:], a[0][width:], strict=True)
                if x != y
            ]
            lines.append(f"{what} changed: {name}: {'; '.join(changed)}")
        else:
            lines.append(f"{what} changed: {name}: {len(b)} rows -> {len(a)} rows")
    if len(lines) > limit:
        lines = [*lines[:limit], f"... and {len(lines) - limit} more {what} lines"]
    return lines


def _metrics_key_width(header: list[str]) -> int:
    """metrics.csv rows are named by every column before ``value``."""
    return header.index("value") if "value" in header else len(header)


def changes(name: str, before: Rows, after: Rows) -> list[str]:
    """What differs between the reference rows and fresh ones, one readable line per task or
    metrics row (empty when both are byte-identical)."""
    lines: list[str] = []
    if before.tasks != after.tasks:
        found = _table_changes(before.tasks, after.tasks, lambda _h: IDENTITY, "task")
        lines.extend(found or ["tasks.csv: same rows, other bytes (order or quoting)"])
    if before.metrics != after.metrics:
        b, a = before.metrics.decode("utf-8"), after.metrics.decode("utf-8")
        found = _table_changes(b, a, _metrics_key_width, "metrics row")
        if not found:  # the same rows written otherwise: show the bytes
            found = [
                "metrics.csv: same rows, other bytes:",
                *list(difflib.unified_diff(b.splitlines(True), a.splitlines(True), n=0))[:20],
            ]
        lines.extend(found)
    return [f"{name}: {line.rstrip()}" for line in lines]


def main(argv: Sequence[str]) -> int:
    """``--write [RUN ...]`` writes the reference files, ``--check [RUN ...]`` prints what
    changed (exit 1 if anything did)."""
    if not argv or argv[0] not in ("--write", "--check"):
        print("usage: python -m support.row_fixtures --write|--check [RUN ...]", file=sys.stderr)
        return 2
    names = list(argv[1:]) or list(RUNS)
    unknown = [n for n in names if n not in RUNS]
    if unknown:
        print(f"unknown run {unknown[0]!r}; known: {', '.join(RUNS)}", file=sys.stderr)
        return 2
    differ = False
    with tempfile.TemporaryDirectory(prefix="row-fixtures-") as tmp:
        os.environ["FORGEBENCH_CACHE"] = str(Path(tmp) / "variant-cache")
        for name in names:
            work = Path(tmp) / name
            work.mkdir()
            rows = make_rows(name, work)
            if argv[0] == "--write":
                write(name, rows)
                n_tasks = rows.tasks.count("\n") - 1
                n_metrics = rows.metrics.count(b"\n") - 1
                print(f"{name}: {n_tasks} tasks, {n_metrics} metrics rows -> {FIXTURES / name}")
            else:
                found = changes(name, stored(name), rows)
                differ = differ or bool(found)
                print("\n".join(found) if found else f"{name}: unchanged")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # ``support`` from anywhere
    raise SystemExit(main(sys.argv[1:]))
