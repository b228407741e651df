"""The run-level export formats of the engine (``export RUN --format inspect|model-index``): one
writer per format over one :class:`RunExport` (what to export, the benchmarks' own parts as plain
data). A suite's own run formats (Forensics' ``vlmevalkit``) have the same shape
(:data:`RunWriter`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from forgebench.interop.headline import Headline
from forgebench.interop.model_index import write_model_index
from forgebench.interop.provenance import provenance
from forgebench.run.export_source import run_facts
from forgebench.run.store import Store

Target = Callable[[Mapping[str, Any], str, Mapping[str, Any]], "str | None"]
"""The right answer of a task: ``(item, probe, question extra) -> answer`` (None: none)."""


@dataclass(frozen=True)
class Benchmark:
    """What an export needs to know of one benchmark of the run."""

    name: str
    title: str = ""
    headline: Sequence[Headline] = ()
    target: Target = field(default=lambda item, probe, extra: None)
    reading_scores: Sequence[str] = ()
    """Numbers of a verdict's detail shown as scores of their own (``iou``, ``f1``)."""


@dataclass(frozen=True)
class RunExport:
    """One ``export RUN --format F --out DIR`` request."""

    run_dir: Path
    out_dir: Path
    benchmarks: Mapping[str, Benchmark]
    """The run's benchmarks to export (name -> its parts)."""
    judge: str | None = None
    """The judge whose grades the numbers use (None: every judge's rows / the run's default)."""
    dataset_id: str | None = None
    """``model-index``: the ``dataset.type`` to name instead of ``forgebench/<benchmark>``."""
    tsv: bool = False
    """``vlmevalkit``: write ``.tsv`` files instead of ``.xlsx``."""
    shard_size: int = 5000
    """``inspect``: the most samples in one log."""
    notes: list[str] = field(default_factory=list)
    """Lines a writer adds for the user (cells it had to change, and why)."""


RunWriter = Callable[[RunExport, str], list[Path]]
"""A run format's writer for one benchmark: ``(request, benchmark) -> files written``."""


def write_model_index_all(request: RunExport) -> list[Path]:
    """``--format model-index``: one model card per model over every benchmark of the request."""
    with Store.open(request.run_dir, create=False) as store:
        prov = {b: provenance(run_facts(store, b), request.judge) for b in request.benchmarks}
    return write_model_index(
        request.run_dir,
        request.out_dir,
        {b: info.headline for b, info in request.benchmarks.items()},
        prov,
        judge=request.judge,
        dataset_id=request.dataset_id,
    )
