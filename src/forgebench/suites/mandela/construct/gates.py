"""Mandela's candidate gates (seed 000 Appendix C) besides the shared footprint:

- a named person inserted or swapped in (K1, not absent-celebrity): face count and size in the
  region, and identity against the entity's reference portraits (``portraits`` of the fact-table
  entity and ``params["portraits"]``, paths relative to the seed folder): it must match;
- an absent-celebrity replacement: face count, and identity against the erased person's face in
  the seed image (their recorded box) and their portraits: it must not match;
- inserted objects, landmarks and figures (K2, K3, K6 inserts) get the grounding question
  (:mod:`forgebench.construct.model_gates`, asked by the builder).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from forgebench.construct.candidate_gates import footprint
from forgebench.construct.faces import FaceGateConfig, face_count_gate, identity_gate
from forgebench.construct.facts import Knowledge
from forgebench.construct.gate_result import GateResult
from forgebench.construct.gates import PixelGateConfig
from forgebench.construct.specs import EditSpec


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


def mandela_gates(
    spec: EditSpec,
    seed: np.ndarray,
    candidate: np.ndarray,
    k: Knowledge,
    seed_root: Path,
    faces: FaceGateConfig | None = None,
    pixels: PixelGateConfig | None = None,
) -> list[GateResult]:
    """The gate results of one candidate: the footprint, then the face gates of K1 insertions."""
    out = footprint(spec, seed, candidate, seed_root, pixels)
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
    return out


def needs_grounding(spec: EditSpec) -> bool:
    """An inserted object, landmark or figure (K2, K3, K6 inserts) gets the grounding question."""
    return spec.family in ("K2", "K3", "K6") and spec.operation == "insert"
