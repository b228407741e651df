"""The gate every benchmark's candidate goes through: the edit footprint (seed 000 Appendix L).

Each benchmark adds its own through its construction parts
(``Construction.candidate_gates``): Mandela's face count and identity gates of named insertions
and absent-celebrity replacements, PIXAR's effectiveness checks (with the label at tau). The
gates that ask a model (grounding, PIXAR fidelity) are :mod:`forgebench.construct.model_gates`,
run by the builder for the specifications whose benchmark asks for them
(``Construction.model_gates``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from forgebench.construct.gate_result import GateResult
from forgebench.construct.gates import PixelGateConfig, footprint_gate
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


def footprint(
    spec: EditSpec,
    seed: np.ndarray,
    candidate: np.ndarray,
    seed_root: Path,
    pixels: PixelGateConfig | None = None,
) -> list[GateResult]:
    """The footprint gate of a candidate whose specification records a region or mask (else
    none)."""
    area = edit_area(spec, seed_root, seed.shape[:2])
    return [] if area is None else [footprint_gate(seed, candidate, area, pixels)]
