"""The provenance every export carries: which forgebench, prompts, parsers and judges made the
numbers, from which dataset, in which run."""

from __future__ import annotations

from typing import Any

import forgebench
from forgebench.run.export_source import RunFacts


def provenance(facts: RunFacts, judge: str | None = None) -> dict[str, Any]:
    """A JSON-able record of ``facts``; ``judge`` is the judge whose grades the export uses
    (None: the run's default)."""
    return {
        "forgebench_version": forgebench.__version__,
        "run_id": facts.run_id,
        "benchmark": facts.benchmark,
        "dataset": facts.dataset,
        "dataset_sha256": facts.dataset_hash,
        "prompt_versions": list(facts.prompt_versions),
        "parser_versions": list(facts.parser_versions),
        "judges": list(facts.judges),
        "judge": judge,
    }
