"""Mandela's construction parts: seed folders of scene records and a fact table become a dataset.

``forgebench propose`` asks them for knowledge-family proposals (the rules proposer over the
fact table, or a model) and K0 controls, and verifies with the family rules; ``forgebench build``
runs the face gates and the grounding question on the candidates and writes ``OUT/dataset``;
``forgebench audit`` and ``review`` work on that dataset.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from forgebench.construct.assemble import Kept
from forgebench.construct.faces import FaceGateConfig
from forgebench.construct.facts import Knowledge
from forgebench.construct.gate_result import GateResult
from forgebench.construct.gates import PixelGateConfig
from forgebench.construct.parts import Construction, Written
from forgebench.construct.scenes import SceneRecord
from forgebench.construct.specs import EditSpec
from forgebench.construct.verify import Decision
from forgebench.suites.mandela.construct import controls, propose, propose_model
from forgebench.suites.mandela.construct.assemble import write_mandela
from forgebench.suites.mandela.construct.audit import audit_dataset
from forgebench.suites.mandela.construct.gates import mandela_gates, needs_grounding
from forgebench.suites.mandela.construct.review import export_review, import_review, load_decisions
from forgebench.suites.mandela.construct.rules import verify_mandela
from forgebench.suites.mandela.validate import validate_dataset

if TYPE_CHECKING:
    from forgebench.run.executor import Executor


class MandelaConstruction(Construction):
    """See the module docstring."""

    name = "mandela"
    output = "dataset"
    noun = "dataset item(s)"

    def propose_rules(self, know: Knowledge, seed_root: Path, per_scene: int) -> list[EditSpec]:
        return propose.propose_rules(know, per_scene)

    def propose_with_model(
        self, model: str, know: Knowledge, seed_root: Path, work: Path, per_scene: int, wait: bool
    ) -> tuple[list[EditSpec], dict[str, str]]:
        return propose_model.propose_with_model(model, know, seed_root, work, per_scene, wait=wait)

    def control_for(self, spec: EditSpec) -> EditSpec | None:
        return controls.control_for(spec)

    def verify(self, spec: EditSpec, scene: SceneRecord, know: Knowledge) -> Decision:
        return verify_mandela(spec, scene, know)

    def accepted(self, spec: EditSpec, decision: Decision) -> EditSpec:
        """The contradiction computed from the facts replaces whatever the proposer wrote."""
        return spec.model_copy(update={"contradiction": decision.contradiction})

    def refuse(self, spec: EditSpec, scene: SceneRecord) -> str | None:
        if not scene.event.date:
            return f"scene {spec.seed_id!r} records no event date (items need one)"
        return None

    def candidate_gates(
        self,
        spec: EditSpec,
        seed: np.ndarray,
        candidate: np.ndarray,
        know: Knowledge,
        seed_root: Path,
        faces: FaceGateConfig | None,
        pixels: PixelGateConfig | None,
    ) -> tuple[list[GateResult], np.ndarray | None]:
        return mandela_gates(spec, seed, candidate, know, seed_root, faces, pixels), None

    def model_gates(self, spec: EditSpec) -> tuple[str, ...]:
        return ("grounding",) if needs_grounding(spec) else ()

    def assemble(
        self, kept: list[Kept], know: Knowledge, seed_root: Path, root: Path, store: str
    ) -> Written:
        facts = [f.model_dump(mode="json", exclude_none=True) for f in know.facts.values()]
        done = write_mandela(kept, know, seed_root, root, facts, store)
        return Written(root, len(done.items), self.noun, done.dropped)

    def audit(
        self, dataset: Path, detectors: Sequence[str], write: bool, executor: Executor | None
    ) -> dict[str, Any]:
        return audit_dataset(dataset, detectors, write, executor)

    def review_sheet(self, build: Path) -> Path:
        return export_review(build)

    def apply_review(self, build: Path, decisions: Path) -> tuple[int, int, Written]:
        accepted, rejected = import_review(build, load_decisions(decisions))
        report = validate_dataset(build / self.output)
        left = Written(build / self.output, len(report.items), self.noun)
        left.problems = [str(p) for p in report.errors]
        return accepted, rejected, left

    def problems(self, folder: Path) -> list[Any]:
        """The Mandela validator's errors in a folder a build wrote."""
        return [str(p) for p in validate_dataset(folder).errors]


CONSTRUCTION = MandelaConstruction()
