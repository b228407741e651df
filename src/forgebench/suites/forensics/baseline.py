"""``builtin/artefact`` on Forensics questions: an offline multiple-choice baseline (point 9).

The pixel-evidence detector of :mod:`forgebench.models.builtin.artefact` answers from the first
image (the item) and, for candidate questions, from the candidate images that follow it:

- binary questions (two options, one starting with "non "): the forged option ("AI-generated",
  "AI-manipulated") when the image's most suspicious block reaches the detector's threshold, the
  "non ..." option otherwise;
- candidate questions (``Candidate k`` options: segmentation maps, detection boxes): the region
  each candidate marks is where its image differs from the item's; the answer is the candidate
  whose region has the highest mean suspicion, or the "No area was manipulated." option when
  there is one and no block reaches the threshold;
- anything else (temporal frame lists, attribution): "Cannot determine the answer." (VLMEvalKit's
  refusal string: it extracts to ``Z``).

Options are read back from the prompt text (the ``Options:`` block the release's prompt has).
Under ``multi_image`` a candidate question arrives as separate images (the item, then each
candidate) and is read as it is. Under ``full`` it arrives as one image (a multi-image row is
tiled there, :func:`.studies.tile`) and the tiles are cut apart again: ``1 + k`` cells for ``k``
candidates on the same grid.
"""

from __future__ import annotations

import math
import re

import numpy as np

from forgebench.models.builtin.artefact import THRESHOLD, score_map

_OPTION = re.compile(r"^([A-Y])\. (.*)$")
_CANDIDATE = re.compile(r"^Candidate (\d+)$")
DECLINE = "Cannot determine the answer."


def options_from_prompt(text: str) -> dict[str, str]:
    """The ``A. ...`` lines after ``Options:`` in a prompt."""
    _, _, tail = text.partition("Options:\n")
    out: dict[str, str] = {}
    for line in tail.splitlines():
        m = _OPTION.match(line)
        if m is None:
            break
        out[m.group(1)] = m.group(2)
    return out


def untile(image: np.ndarray, n: int) -> list[np.ndarray]:
    """The ``n`` cells of a :func:`.studies.tile` grid, row-major."""
    cols = math.ceil(math.sqrt(n))
    rows = math.ceil(n / cols)
    h, w = image.shape[0] // rows, image.shape[1] // cols
    return [
        image[(k // cols) * h : (k // cols + 1) * h, (k % cols) * w : (k % cols + 1) * w]
        for k in range(n)
    ]


def answer_mcq(text: str, images: list[np.ndarray], threshold: float = THRESHOLD) -> str:
    """The baseline's answer to one Forensics prompt (``images``: uint8 RGB, item first)."""
    options = options_from_prompt(text)
    if not options or not images:
        return DECLINE
    n_candidates = sum(bool(_CANDIDATE.match(v)) for v in options.values())
    if len(images) == 1 and n_candidates:
        images = untile(images[0], 1 + n_candidates)
    scores = score_map(images[0])
    suspicious = float(scores.max()) >= threshold
    values = list(options.values())
    if len(options) == 2 and sum(v.lower().startswith("non ") for v in values) == 1:
        pick = next(k for k, v in options.items() if v.lower().startswith("non ") != suspicious)
        return f"{pick}. {options[pick]}"
    candidates = {k: int(m.group(1)) for k, v in options.items() if (m := _CANDIDATE.match(v))}
    if not candidates:
        return DECLINE
    nothing = [k for k in options if k not in candidates]
    if nothing and not suspicious:
        return f"{nothing[0]}. {options[nothing[0]]}"
    best, best_score = None, -1.0
    for letter, n in candidates.items():
        if n >= len(images) or images[n].shape != images[0].shape:
            continue
        region = (images[n].astype(np.int16) != images[0].astype(np.int16)).any(axis=2)
        if region.any():
            s = float(scores[region].mean())
            if s > best_score:
                best, best_score = letter, s
    if best is None:
        return DECLINE
    return f"{best}. {options[best]}"
