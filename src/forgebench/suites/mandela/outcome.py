"""Mandela's per-answer outcome (``Suite.outcome``): a REAL/FAKE answer (L0, L1, L-adv) is right
when its verdict matches the item's label (FAKE on a forged item, REAL on an authentic one), as
``det``/``auth`` count it under strict scoring (seed 000, Table 2): a miss, an error or an
unanswered task is wrong. The other probes have no single right answer and give no row."""

from __future__ import annotations

from pathlib import Path

from forgebench.suites.mandela.frame import load_frame
from forgebench.suites.mandela.parse_run import parse_answers
from forgebench.suites.outputs import Outcome


def outcome(run_dir: Path, judge: str | None = None) -> list[Outcome]:
    parse_answers(run_dir)
    frame = load_frame(run_dir, judge)
    frame = frame[frame["correct"].notna()]
    return [
        Outcome(str(r.task_key), str(r.model), str(r.item_id), str(r.probe), str(r.condition),
                bool(r.correct))
        for r in frame.itertuples(index=False)
    ]  # fmt: skip
