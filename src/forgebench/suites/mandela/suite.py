"""The Mandela suite (seed 000): the core. Its dataset folder holds ``items.jsonl``; its protocol
is the probe x condition table of :mod:`.protocol_table`; ``metrics`` writes KGR, detection and
balanced accuracy (:mod:`.metrics`); ``outcome`` is whether a REAL/FAKE verdict is right for the
item's label (:mod:`.outcome`).

The rest are facets, one file each under :mod:`.facets`: the dataset's checks and hf layout, the
importer, the prompts, the verdict stage, the E0-E4 judge and its rubric, the calibration, the
tables, the figures, the report section, the viewer, the export, the construction parts and the
providers it brings (``builtin/rules``, the offline evidence-ladder judge, and
``builtin/verifier``, the knowledge verifier). ``--sample N`` keeps the items of the first N
seeds (canonical images, in file order), so paired analyses (a forgery and its original) stay
complete.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from forgebench.suites.base import (
    Headline,
    Loaded,
    Outcome,
    Protocol,
    Selection,
    Suite,
    SuiteError,
    lazy,
)
from forgebench.suites.mandela.ids import CONDITIONS, PROBES
from forgebench.suites.mandela.protocol_table import PARTS

if TYPE_CHECKING:
    from forgebench.run.images import VariantCache
    from forgebench.run.tasks import Question

_load = lazy("forgebench.suites.mandela.preflight:load")
_expand = lazy("forgebench.suites.mandela.expand:expand")
_parse = lazy("forgebench.suites.mandela.parse_run:parse_answers")
_write_metrics = lazy("forgebench.suites.mandela.metrics:write_metrics")
_outcome = lazy("forgebench.suites.mandela.outcome:outcome")


class MandelaSuite(Suite):
    """Mandela-Bench: knowledge-only forgeries of canonical images."""

    name = "mandela"
    title = "Mandela-Bench (seed 000)"
    protocol = Protocol(PROBES, CONDITIONS, PARTS)
    source = "a Mandela dataset folder (items.jsonl, images, kb.jsonl) built by forgebench build"
    headline = tuple(Headline("L0", "full", m) for m in ("kgr", "det", "bal"))
    """KGR, detection and balanced accuracy of the L0 question on every item."""
    facets: ClassVar[Mapping[str, str]] = {
        "demo": ".facets.demo:DEMO",
        "dataset": ".facets.dataset:DATASET",
        "import": ".facets.importer:IMPORTER",
        "prompts": ".facets.prompts:PROMPTS",
        "verdict": ".facets.verdict:VERDICT",
        "judge": ".facets.judge:JUDGE",
        "calibration": ".facets.calibration:CALIBRATION",
        "tables": ".facets.tables:TABLES",
        "figures": ".facets.figures:FIGURES",
        "report": ".facets.report:REPORT",
        "viewer": ".facets.viewer:VIEWER",
        "export": ".facets.export:EXPORT",
        "construction": ".facets.construction:CONSTRUCTION",
        "providers": ".facets.providers:PROVIDERS",
    }

    def detect(self, path: Path) -> bool:
        return (path / "items.jsonl").is_file()

    def load(self, path: Path, selection: Selection) -> Loaded:
        """The dataset, checked as ``validate`` checks it (run refuses what validate rejects),
        cut to its first ``--sample`` seeds."""
        loaded: Loaded = _load(path, selection)
        return loaded

    def questions(
        self,
        loaded: Loaded,
        selection: Selection,
        cache: VariantCache,
        *,
        render_images: bool = True,
    ) -> Iterable[Question]:
        try:
            questions: Iterable[Question] = _expand(
                loaded.data,
                list(selection.probes) if selection.probes is not None else None,
                list(selection.conditions) if selection.conditions is not None else None,
                cache,
                render_images=render_images,
                parts=selection.parts,
            )
        except ValueError as exc:  # unknown probe / condition, ConditionError
            raise SuiteError(str(exc)) from None
        return questions

    def score(
        self, run_dir: Path, judge: str | None, options: Mapping[str, str] | None = None
    ) -> Path | None:
        _parse(run_dir)
        written: Path = _write_metrics(run_dir, judge)
        return written

    def outcome(self, run_dir: Path, judge: str | None) -> list[Outcome]:
        rows: list[Outcome] = _outcome(run_dir, judge)
        return rows


SUITE = MandelaSuite()
