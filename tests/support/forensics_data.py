"""A small Forensics set in the release's TSV format, imported, with a replay file of answers
that each take a different extraction step.

Imported as ``from support.forensics_data import write_forensics_release``.
"""

from __future__ import annotations

import base64
import csv
import io
import json
from pathlib import Path

import numpy as np
from PIL import Image

FORENSICS_ROWS = [
    # (index, option A, option B, right letter, category, the model's answer)
    ("0", "AI-generated", "non AI-generated", "A",
     "human_entiresynthesis_diffusion_visibleimage_category", "A"),
    ("1", "non AI-generated", "AI-generated", "A",
     "nonhuman_real_none_visibleimage_category", "non AI-generated"),
    ("2", "AI-generated", "non AI-generated", "B",
     "human_faceantispoofing_3D_visibleimage_category", "I'm sorry, I can't help with that."),
    ("3", "AI-generated", "non AI-generated", "A",
     "human_entiresynthesis_gan_visibleimage_category", "Either A or B, hard to say."),
]  # fmt: skip
"""Steps: 0 option letter, 1 option text, 2 refusal, 3 two options, no pick (Z)."""


def write_forensics_release(root: Path) -> tuple[Path, Path]:
    """``(dataset, replay)``: the rows written as a release TSV under ``root``, imported into
    ``root/dataset`` (real PNGs), and ``root/answers.jsonl`` answering each row (model ``vlm``
    through ``replay/``)."""
    from forgebench.suites.forensics.tsv_import import import_release_tsv

    root.mkdir(parents=True, exist_ok=True)
    tsv = root / "ForensicsBench.tsv"
    rng = np.random.default_rng(7)
    with tsv.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, delimiter="\t", lineterminator="\n")
        w.writerow(["index", "image", "question", "A", "B", "answer", "category"])
        for index, a, b, right, category, _said in FORENSICS_ROWS:
            buf = io.BytesIO()
            Image.fromarray(rng.integers(0, 256, (48, 64, 3), dtype=np.uint8)).save(buf, "PNG")
            image = base64.b64encode(buf.getvalue()).decode("ascii")
            w.writerow(
                [index, image, "What is the authenticity of the image?", a, b, right, category]
            )
    dataset = root / "dataset"
    import_release_tsv(tsv, dataset)
    replay = root / "answers.jsonl"
    replay.write_text(
        "".join(
            json.dumps({"item_id": r[0], "probe": "MCQ", "condition": "full", "text": r[5]}) + "\n"
            for r in FORENSICS_ROWS
        )
    )
    return dataset, replay
