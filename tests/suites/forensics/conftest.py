"""Fixtures: small TSVs in the release's format, with real encoded images."""

from __future__ import annotations

import base64
import csv
import io
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

HEADER = ["index", "image", "question", "hint", "A", "B", "C", "D", "answer", "category"]


def encoded(seed: int, fmt: str = "PNG", size: tuple[int, int] = (40, 30)) -> str:
    """A real image (random pixels) as base64."""
    rng = np.random.default_rng(seed)
    arr = rng.integers(0, 256, size=(size[1], size[0], 3), dtype=np.uint8)
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format=fmt)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def release_rows() -> list[dict[str, str]]:
    """Six rows covering the format's cases (see each row's comment)."""
    binary = ("What is the authenticity of the image?", "AI-generated", "non AI-generated")
    return [
        # a plain base64 binary question, diffusion entire synthesis
        dict(
            index="0",
            image=encoded(0),
            question=binary[0],
            A=binary[1],
            B=binary[2],
            answer="A",
            category="human_entiresynthesis_diffusion_visibleimage_category",
        ),
        # references a LATER row (3) for its image
        dict(
            index="1",
            image="3",
            question=binary[0],
            A=binary[2],
            B=binary[1],
            answer="A",
            category="nonhuman_real_none_visibleimage_category",
        ),
        # a multi-image (video frames) row with four options and a hint
        dict(
            index="2",
            image=repr([encoded(2, "JPEG"), encoded(3, "JPEG")]),
            question="Please locate the forged frames in the given set of frames.",
            hint="The frames are sampled uniformly.",
            A="[ 0, 1 ]",
            B="[ 1 ]",
            C="[ 0 ]",
            D="[]",
            answer="B",
            category="human_faceswaponeface_encoderdecoder_video_temporal",
        ),
        # a JPEG row with composite type and model tokens
        dict(
            index="3",
            image=encoded(4, "JPEG", (64, 48)),
            question="Which segmentation map denotes the forged area?",
            A="Candidate 1",
            B="Candidate 2",
            C="Candidate 3",
            D="Candidate 4",
            answer="D",
            category="human_faceeditfacetransferoneface_encoderdecodertraditional_visibleimage_seg",
        ),
        # references an EARLIER row (0)
        dict(
            index="4",
            image="0",
            question=binary[0],
            A=binary[1],
            B=binary[2],
            answer="B",
            category="human_faceantispoofing_3D_visibleimage_category",
        ),
        # case-sensitive tokens RNN / encoderdecoderRNNtraditional
        dict(
            index="5",
            image=encoded(5),
            question=binary[0],
            A=binary[1],
            B=binary[2],
            answer="A",
            category="human_faceswapmultiplefaces_encoderdecoderRNNtraditional_video_category",
        ),
    ]


def write_tsv(path: Path, rows: list[dict[str, str]], header: list[str] = HEADER) -> Path:
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, delimiter="\t", lineterminator="\n")
        w.writerow(header)
        for r in rows:
            w.writerow([r.get(c, "") for c in header])
    return path


@pytest.fixture
def release_tsv(tmp_path: Path) -> Path:
    return write_tsv(tmp_path / "ForensicsBench.tsv", release_rows())


@pytest.fixture
def make_tsv(tmp_path: Path) -> Callable[[list[dict[str, str]]], Path]:
    def make(rows: list[dict[str, str]]) -> Path:
        return write_tsv(tmp_path / "bad.tsv", rows)

    return make


@pytest.fixture
def rows() -> list[dict[str, str]]:
    """A fresh copy of :func:`release_rows` to modify."""
    return release_rows()


@pytest.fixture
def encode() -> Callable[..., str]:
    return encoded


@pytest.fixture
def tsv_writer() -> Callable[..., Path]:
    return write_tsv
