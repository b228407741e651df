"""PIXAR's per-answer outcome (``Suite.outcome``): a LOC answer is right when the regions it
gives overlap the pair's truth mask with IoU >= 0.5 (the usual localisation hit, the pair's IoU
as ``metrics`` stored it, in percent); a reply with no region, an unreadable one, an unanswered
task or one ``metrics`` has not read yet is wrong. A pair scored from files (``pixar score --out
RUN``: a detector's predicted masks, :mod:`.pair_scores`) is an answer too, by the same rule on
the IoU its scoring computed: item = the pair, probe ``LOC``, condition ``full``, so that two
detectors, or a detector and a model asked, are compared pair by pair."""

from __future__ import annotations

from pathlib import Path

from forgebench.run.store import Store
from forgebench.suites.outputs import Outcome
from forgebench.suites.pixar.loc_items import CONDITION
from forgebench.suites.pixar.probe import PROBE_ID
from forgebench.suites.pixar.results import BENCHMARK

HIT = 50.0
"""The IoU (percent) from which a localisation counts as right."""


def outcome(run_dir: Path, judge: str | None = None) -> list[Outcome]:
    with Store.open(Path(run_dir), create=False) as store:
        records = list(store.records(BENCHMARK, probes=[PROBE_ID]))
        scored = store.pair_scores(BENCHMARK)
    out = []
    for r in records:
        iou = (r.verdict_detail or {}).get("iou") if r.verdict == "LOCATED" else None
        right = iou is not None and float(iou) >= HIT
        out.append(Outcome(r.key, r.model, r.item_id, r.probe, r.condition, right))
    for p in scored:  # no task: the key names the model and the pair
        key = f"pair:{p.model}:{p.pair}"
        out.append(Outcome(key, p.model, p.pair, PROBE_ID, CONDITION, p.iou >= HIT))
    return out
