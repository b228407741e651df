"""A benchmark's construction parts: what ``propose``, ``verify`` and ``build`` ask of a suite.

The construction pipeline is shared (seed folders, edit specifications, editors, the work store,
the footprint and near-duplicate gates, the model-asked gates); what one benchmark adds is a
:class:`Construction`, held by its suite's ``construction`` facet: its proposers, its
verification rule, its candidate gates and how kept candidates become its dataset. A
specification names its benchmark in ``suite``; :func:`construction_of` finds the parts through
the suite registry, so this package imports no suite.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from forgebench.construct.candidate_gates import footprint
from forgebench.construct.registry import CONSTRUCTIONS
from forgebench.errors import UserError

if TYPE_CHECKING:
    from forgebench.construct.assemble import Kept
    from forgebench.construct.faces import FaceGateConfig
    from forgebench.construct.facts import Knowledge
    from forgebench.construct.gate_result import GateResult
    from forgebench.construct.gates import PixelGateConfig
    from forgebench.construct.scenes import SceneRecord
    from forgebench.construct.specs import EditSpec
    from forgebench.construct.verify import Decision
    from forgebench.run.executor import Executor


class UnknownConstruction(UserError, ValueError):
    """A specification, dataset or build folder of no benchmark with these construction parts."""


@dataclass
class Written:
    """What a benchmark's assembly wrote into the build folder."""

    path: Path
    """The folder (``OUT/<Construction.output>``)."""
    count: int
    """How many items or pairs it holds."""
    noun: str
    """What ``count`` counts, e.g. ``dataset item(s)``."""
    dropped: list[tuple[str, str]] = field(default_factory=list)
    """Specifications whose kept candidate could not be assembled, and why."""
    problems: list[str] = field(default_factory=list)
    """What the benchmark's validator finds in the folder (empty: valid)."""


class Construction:
    """One benchmark's construction parts; the defaults propose nothing and add no gate."""

    name: str = ""
    """The benchmark (the suite's name; the ``suite`` field of its specifications)."""
    output: str = ""
    """The folder under the build's ``OUT`` its assembly writes."""
    noun: str = "item(s)"
    """What its output holds, for the build's summary line."""
    scene_formats: tuple[str, ...] = ()
    """Annotation formats :meth:`import_scenes` turns into scene records (``propose --coco``)."""

    # -- propose -----------------------------------------------------------------------------

    def import_scenes(self, fmt: str, path: Path, image_prefix: str) -> list[SceneRecord]:
        """Scene records from an annotation file of format ``fmt`` (one of :attr:`scene_formats`);
        :class:`~forgebench.construct.scenes.SceneError` naming the problem."""
        raise NotImplementedError(f"{self.name} imports no {fmt} scenes")

    def propose_rules(self, know: Knowledge, seed_root: Path, per_scene: int) -> list[EditSpec]:
        """Proposals of the offline rules proposer over what the seed folder records."""
        return []

    def propose_with_model(
        self, model: str, know: Knowledge, seed_root: Path, work: Path, per_scene: int, wait: bool
    ) -> tuple[list[EditSpec], dict[str, str]]:
        """Proposals a model makes (answers stored in the work folder ``work``), and the scenes
        without one with why."""
        return [], {}

    def control_for(self, spec: EditSpec) -> EditSpec | None:
        """The control specification of an accepted one (None: it has none)."""
        return None

    # -- verify ------------------------------------------------------------------------------

    def check_spec(self, spec: EditSpec) -> None:
        """Raise ``ValueError`` (``field: message``) for a field of this benchmark that does not
        parse; run when a specification file is read."""

    def verify(self, spec: EditSpec, scene: SceneRecord, know: Knowledge) -> Decision:
        """The benchmark's rule for a specification that passed the common checks."""
        raise NotImplementedError

    def accepted(self, spec: EditSpec, decision: Decision) -> EditSpec:
        """The specification as kept after ``decision`` accepted it (e.g. with the computed
        contradiction)."""
        return spec

    # -- build -------------------------------------------------------------------------------

    def refuse(self, spec: EditSpec, scene: SceneRecord) -> str | None:
        """Why ``spec`` cannot be built from this scene (None: it can)."""
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
        """The gate results of one candidate and, where the benchmark keeps one, its pixel label."""
        return footprint(spec, seed, candidate, seed_root, pixels), None

    def model_gates(self, spec: EditSpec) -> tuple[str, ...]:
        """The model-asked gates a candidate goes through: ``grounding``, ``fidelity``."""
        return ()

    def assemble(
        self, kept: list[Kept], know: Knowledge, seed_root: Path, root: Path, store: str
    ) -> Written:
        """Write the kept candidates into ``root`` (a fresh folder moved into place when done)."""
        raise NotImplementedError

    # -- after the build ---------------------------------------------------------------------

    def audit(
        self, dataset: Path, detectors: Sequence[str], write: bool, executor: Executor | None
    ) -> dict[str, Any]:
        """``forgebench audit``: the benchmark's leakage and detector audits of a dataset it
        built (``write``: store the scores in the dataset)."""
        raise UnknownConstruction(f"{self.name} has no audit")

    def problems(self, folder: Path) -> list[Any]:
        """What the benchmark's validator finds in a folder this construction wrote (a build
        checks each output with it); none by default."""
        return []

    def review_sheet(self, build: Path) -> Path:
        """``forgebench review export``: write the review sheet of a build; returns the page."""
        raise UnknownConstruction(f"{self.name} has no review")

    def apply_review(self, build: Path, decisions: Path) -> tuple[int, int, Written]:
        """``forgebench review import``: apply a decisions file; (accepted, rejected, the output
        folder as it is afterwards, with its problems)."""
        raise UnknownConstruction(f"{self.name} has no review")


def constructions() -> list[Construction]:
    """The construction parts of every benchmark that has them."""
    return [parts for _name, parts in CONSTRUCTIONS.items()]


def construction_of(name: str) -> Construction:
    """The construction parts of benchmark ``name``; :class:`UnknownConstruction` otherwise."""
    found = {c.name: c for c in constructions()}
    if name not in found:
        known = ", ".join(found) or "none"
        raise UnknownConstruction(
            f"no benchmark {name!r} builds from specifications; known: {known}"
        )
    return found[name]


def import_scenes(fmt: str, path: Path, image_prefix: str) -> list[SceneRecord]:
    """Scene records from an annotation file, by the benchmark that reads ``fmt``."""
    for c in constructions():
        if fmt in c.scene_formats:
            return c.import_scenes(fmt, path, image_prefix)
    raise UnknownConstruction(f"no benchmark reads {fmt} annotations")


def reviewed(build: Path) -> Construction:
    """The construction parts that review what a build folder holds (the first benchmark with a
    review and an output folder there; without one, the first with a review, which names what is
    missing)."""
    reviewing = [
        c for c in constructions() if type(c).review_sheet is not Construction.review_sheet
    ]
    if not reviewing:
        raise UnknownConstruction("no benchmark reviews its builds")
    return next((c for c in reviewing if (build / c.output).is_dir()), reviewing[0])
