"""PIXAR's construction parts: COCO-annotated images become (original, edited, label) pairs.

``forgebench propose --coco`` reads the annotations as scene records
(:func:`~forgebench.suites.pixar.construct.coco.scenes_from_coco`) and the rules proposer asks
for object removals and colour changes; verification checks each step against the annotations;
``forgebench build`` runs the effectiveness checks (the label at tau) and the fidelity question
on the candidates and writes ``OUT/pixar``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from forgebench.construct.assemble import Kept
from forgebench.construct.candidate_gates import edit_area, footprint
from forgebench.construct.faces import FaceGateConfig
from forgebench.construct.facts import Knowledge
from forgebench.construct.gate_result import GateResult
from forgebench.construct.gates import PixelGateConfig
from forgebench.construct.parts import Construction, Written
from forgebench.construct.scenes import SceneRecord
from forgebench.construct.specs import EditSpec
from forgebench.construct.verify import Decision
from forgebench.suites.pixar.construct.assemble import write_pixar
from forgebench.suites.pixar.construct.checks import pixar_effectiveness
from forgebench.suites.pixar.construct.coco import propose_pixar, scenes_from_coco
from forgebench.suites.pixar.construct.rules import pixar_edit, verify_pixar
from forgebench.suites.pixar.facets.dataset import DATASET


class PixarConstruction(Construction):
    """See the module docstring."""

    name = "pixar"
    output = "pixar"
    noun = "PIXAR pair(s)"
    scene_formats = ("coco",)

    def import_scenes(self, fmt: str, path: Path, image_prefix: str) -> list[SceneRecord]:
        return scenes_from_coco(path, image_prefix)

    def propose_rules(self, know: Knowledge, seed_root: Path, per_scene: int) -> list[EditSpec]:
        return propose_pixar(list(know.scenes.values()), seed_root, per_scene)

    def check_spec(self, spec: EditSpec) -> None:
        """Every step's ``pixar`` parses as a manipulation (type and classes)."""
        from pydantic import ValidationError

        for i, step in enumerate(spec.all_steps):
            try:
                pixar_edit(step)
            except ValidationError as exc:
                err = exc.errors()[0]
                where = "pixar" if i == 0 else f"steps.{i - 1}.pixar"
                field = ".".join(str(p) for p in err["loc"])
                raise ValueError(f"{where}{'.' + field if field else ''}: {err['msg']}") from None

    def verify(self, spec: EditSpec, scene: SceneRecord, know: Knowledge) -> Decision:
        return verify_pixar(spec, scene)

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
        """The effectiveness checks (whose label at tau is the pair's truth), then the
        footprint."""
        area = edit_area(spec, seed_root, seed.shape[:2])
        res, label = pixar_effectiveness(seed, candidate, area, pixels)
        return [res, *footprint(spec, seed, candidate, seed_root, pixels)], label

    def model_gates(self, spec: EditSpec) -> tuple[str, ...]:
        return ("fidelity",)

    def assemble(
        self, kept: list[Kept], know: Knowledge, seed_root: Path, root: Path, store: str
    ) -> Written:
        return Written(root, write_pixar(kept, know, seed_root, root), self.noun)

    def problems(self, folder: Path) -> list[Any]:
        """The Pixar validator's errors in a folder a build wrote."""
        return list(DATASET.validate(folder).errors)


CONSTRUCTION = PixarConstruction()
