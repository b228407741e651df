"""Which gates a candidate of a specification goes through (seed 000 Appendix C, seed 003 Fig. 3).

- every candidate with a recorded region or mask: the edit footprint;
- a named person inserted or swapped in (K1, not absent-celebrity): face count and size in the
  region, and identity against the entity's reference portraits (``portraits`` of the fact-table
  entity and ``params["portraits"]``, paths relative to the seed folder): it must match;
- an absent-celebrity replacement: face count, and identity against the erased person's face in
  the seed image (their recorded box) and their portraits: it must not match;
- PIXAR specifications: the effectiveness checks (the label at tau comes with them).

The gates that ask a model (grounding of K2/K3/K6 insertions, PIXAR fidelity) are
:mod:`forgebench.construct.model_gates`, run by the builder (:func:`needs_grounding`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from forgebench.construct.faces import FaceGateConfig, face_count_gate, identity_gate
from forgebench.construct.facts import Knowledge
from forgebench.construct.gate_result import GateResult
from forgebench.construct.gates import PixelGateConfig, footprint_gate, pixar_effectiveness
from forgebench.construct.specs import EditSpec


def edit_area(spec: EditSpec, seed_root: Path, shape: tuple[int, int]) -> np.ndarray | None:
    """The union of the steps' masks and regions (None when none is recorded)."""
    area = np.zeros(shape, bool)
    any_ = False
    for step in spec.all_steps:
        if step.mask:
            area |= np.asarray(Image.open(seed_root / step.mask).convert("L")) > 127
            any_ = True
        elif step.region:
            x0, y0, x1, y1 = step.region
            area[y0:y1, x0:x1] = True
            any_ = True
    return area if any_ else None


def _portraits(spec: EditSpec, k: Knowledge, seed_root: Path) -> list[np.ndarray]:
    paths: list[str] = list(spec.params.get("portraits", []))
    if spec.entity is not None:
        ent = k.entity(spec.entity.id, spec.entity.name)
        if ent is not None:
            paths += [p for p in ent.portraits if p not in paths]
    out = []
    for p in paths:
        try:
            out.append(np.asarray(Image.open(seed_root / p).convert("RGB")))
        except OSError:
            continue
    return out


def _erased_face(spec: EditSpec, k: Knowledge, seed: np.ndarray) -> list[np.ndarray]:
    scene = k.scenes[spec.seed_id]
    i = k.person_in_scene(scene, spec.target or "") if spec.target else None
    box = scene.people[i].box if i is not None else None
    if box is None:
        return []
    x0, y0, x1, y1 = box
    return [np.ascontiguousarray(seed[y0:y1, x0:x1])]


def candidate_gates(
    spec: EditSpec,
    seed: np.ndarray,
    candidate: np.ndarray,
    k: Knowledge,
    seed_root: Path,
    faces: FaceGateConfig | None = None,
    pixels: PixelGateConfig | None = None,
) -> tuple[list[GateResult], np.ndarray | None]:
    """The gate results of one candidate, and (PIXAR) its pixel label at tau."""
    area = edit_area(spec, seed_root, seed.shape[:2])
    out: list[GateResult] = []
    label = None
    if spec.suite == "pixar":
        res, label = pixar_effectiveness(seed, candidate, area, pixels)
        out.append(res)
    if area is not None:
        out.append(footprint_gate(seed, candidate, area, pixels))
    region = spec.region
    if spec.family == "K1" and spec.operation in ("insert", "replace"):
        out.append(face_count_gate(candidate, region, 1, faces))
        if spec.k1_type == "absent_celebrity":
            refs = _erased_face(spec, k, seed) + _portraits(spec, k, seed_root)
            out.append(identity_gate(candidate, region, refs, "differ", faces))
        else:
            out.append(
                identity_gate(candidate, region, _portraits(spec, k, seed_root), "match", faces)
            )
    return out, label


def needs_grounding(spec: EditSpec) -> bool:
    """An inserted object, landmark or figure (K2, K3, K6 inserts) gets the grounding question."""
    return (
        spec.suite == "mandela" and spec.family in ("K2", "K3", "K6") and spec.operation == "insert"
    )
