"""Scoring a run's Forensics answers: extraction (stored as verdicts) and metrics.csv rows.

For every current Forensics task, the chain of :mod:`.extract_chain` gives a letter, the stage
that decided it and the rule that read it: the rules (``extraction``: ours, or the release's
literal ones), then ``builtin/embed``'s stored letter where the rules found nothing, then the
LLM extractor's (``judge`` names it; without ``judge``, the only LLM extractor that has judged the
run, none when there are several). The result is stored as the task's verdict (the letter, with
``step``, ``rule`` and ``judge`` in its detail; parser :data:`.extract.PARSER_VERSION`), so
``metrics`` re-reads stored answers with the current rules without sending anything, and the
metrics are written for every model of the run (:func:`.scores.write_forensics_metrics`), with
Table 11's paired rows when the run has ``multi_image`` answers (:func:`.multi.paired_rows`).
The options and the right letter come from the task's ``extra`` (what the question showed), so
scoring needs no dataset folder. A constrained answer (``MCQ_CHOICE``) is the letter it is
(:func:`.extract_chain.read_constrained`). A task without an answer (still pending, or ended as an error)
counts as ``Z`` (step ``missing``, no verdict stored): accuracy is over every item asked, as the
paper's is over all data.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from forgebench.run.store import Store
from forgebench.suites.forensics.extract import PARSER_VERSION, Extraction
from forgebench.suites.forensics.extract_chain import (
    EMBED_JUDGE,
    LETTER_KIND,
    chain,
    read_constrained,
    rules_for,
)
from forgebench.suites.forensics.ids import MCQ_CHOICE
from forgebench.suites.forensics.multi import paired_rows
from forgebench.suites.forensics.scores import BENCHMARK, metric_rows, write_forensics_metrics
from forgebench.util.atomic import atomic_path

__all__ = [
    "LETTER_KIND", "OUTCOMES", "PARSER_VERSION", "letter_judges", "score_frame", "score_run",
    "write_outcomes",
]  # fmt: skip


def letter_judges(store: Store) -> list[str]:
    """The judges that have stored extracted letters in this run."""
    return store.judges(LETTER_KIND)


def score_frame(
    store: Store, judge: str | None = None, extraction: str | None = None
) -> tuple[pd.DataFrame, list[tuple[str, str, dict[str, Any], str]]]:
    """One row per answered Forensics task (letter, step, correct, type code) and the verdict
    rows to store; ``extraction`` names the rules (:func:`.extract_chain.rules_for`)."""
    rules = rules_for(extraction)
    if judge is None:  # default: the only LLM extractor that judged this run, if there is one
        judges = [j for j in letter_judges(store) if j != EMBED_JUDGE]
        judge = judges[0] if len(judges) == 1 else None
    judged = store.judged_values(judge, LETTER_KIND) if judge else {}
    embedded = store.judged_values(EMBED_JUDGE, LETTER_KIND) if judge != EMBED_JUDGE else {}
    rows = []
    verdicts: list[tuple[str, str, dict[str, Any], str]] = []
    for r in store.records(BENCHMARK):
        key, text, extra = r.key, r.text, r.extra
        options = {str(k): str(v) for k, v in dict(extra.get("options") or {}).items()}
        question = str(extra.get("question", ""))
        # no answer (pending or errored): counted, as Z
        got = (
            Extraction("Z", "missing")
            if text is None
            else read_constrained(text, extra)
            if r.probe == MCQ_CHOICE
            else chain(rules(text, options, question), embedded.get(key), judged.get(key))
        )
        answer = str(extra.get("answer", ""))
        rows.append(
            {
                "task_key": key, "model": r.model, "probe": r.probe, "condition": r.condition,
                "item_id": r.item_id, "type_code": str(extra.get("type_code", "")),
                "answer": answer, "letter": got.letter, "step": got.step, "why": got.why,
                "correct": got.letter == answer,
                "judge": judge if got.step == "extractor" else EMBED_JUDGE if got.step == "embed" else "",
            }
        )  # fmt: skip
        if text is not None:
            by = rows[-1]["judge"] or None
            detail: dict[str, Any] = {"step": got.step, "rule": got.rule, "judge": by}
            if got.why:  # a Z of the rules: two_options, hedge, refusal or nothing
                detail["why"] = got.why
            verdicts.append((key, got.letter, detail, PARSER_VERSION))
    return pd.DataFrame(rows), verdicts


def score_run(
    run_dir: Path, judge: str | None = None, extraction: str | None = None
) -> Path | None:
    """Extract, store verdicts and write the Forensics rows of ``RUN/metrics.csv``."""
    with Store.open(Path(run_dir), create=False) as store:
        frame, verdicts = score_frame(store, judge, extraction)
        store.put_verdicts(verdicts)
    if frame.empty:
        return None
    write_outcomes(Path(run_dir), frame)
    return write_forensics_metrics(Path(run_dir), metric_rows(frame) + paired_rows(frame))


OUTCOMES = Path("forensics") / "outcomes.parquet"
"""``RUN/forensics/outcomes.parquet``: each scored task's model, probe, condition, item, type code
and whether its letter is right, as the metrics counted it (the report's bootstrap reads it
rather than every task of the store again)."""


def write_outcomes(run_dir: Path, frame: pd.DataFrame) -> Path:
    """Write the scored tasks' outcomes (:data:`OUTCOMES`), whole or not at all."""
    path = run_dir / OUTCOMES
    path.parent.mkdir(parents=True, exist_ok=True)
    cols = ["model", "probe", "condition", "item_id", "type_code", "correct"]
    with atomic_path(path) as tmp:
        frame[cols].astype({"correct": bool}).to_parquet(tmp, index=False)
    return path
