"""Forensics' per-answer outcome (``Suite.outcome``): an answer is right when the option letter
read from it (:func:`.run_score.score_frame`: the rules, then ``builtin/embed`` and the only LLM
extractor, as ``metrics`` reads it) is the question's answer; a ``Z`` or an unanswered task is
wrong (seed 002, the release's accuracy counts every question)."""

from __future__ import annotations

from pathlib import Path

from forgebench.run.store import Store
from forgebench.suites.forensics.run_score import score_frame
from forgebench.suites.outputs import Outcome


def outcome(run_dir: Path, judge: str | None = None) -> list[Outcome]:
    with Store.open(Path(run_dir), create=False) as store:
        frame, _verdicts = score_frame(store, judge)
    return [
        Outcome(str(r.task_key), str(r.model), str(r.item_id), str(r.probe), str(r.condition),
                bool(r.correct))
        for r in frame.itertuples(index=False)
    ]  # fmt: skip
