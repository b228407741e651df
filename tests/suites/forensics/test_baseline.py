"""The offline MCQ baseline answers from pixel evidence."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from PIL import Image

from forgebench.suites.forensics.baseline import DECLINE, answer_mcq, options_from_prompt
from forgebench.suites.forensics.extract import extract_option
from forgebench.suites.forensics.generate import segmentation
from forgebench.suites.forensics.prompt import render_text
from forgebench.suites.forensics.studies import tile


def _jpeg(rgb: np.ndarray, q: int) -> np.ndarray:
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, format="JPEG", quality=q)
    return np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB"))


def _spliced() -> tuple[np.ndarray, np.ndarray]:
    """A twice-compressed photo-like image with a never-compressed textured patch pasted in."""
    rng = np.random.default_rng(0)
    yy, xx = np.mgrid[0:192, 0:256]
    base = np.stack([xx, yy, (xx + yy) // 2], axis=-1).astype(np.float32)
    base += rng.normal(0, 6, base.shape)
    img = _jpeg(_jpeg(np.clip(base, 0, 255).astype(np.uint8), 70), 90)
    mask = np.zeros((192, 256), bool)
    mask[64:128, 96:176] = True
    img = img.copy()
    img[mask] = rng.integers(0, 256, (int(mask.sum()), 3), dtype=np.uint8)
    return img, mask


def test_options_from_prompt() -> None:
    text = render_text("Q?", {"A": "Candidate 1", "B": "No area was manipulated."}, "hint")
    assert options_from_prompt(text) == {"A": "Candidate 1", "B": "No area was manipulated."}


def test_binary_and_segmentation_answers(tmp_path: Path) -> None:
    img, mask = _spliced()
    binary = render_text(
        "What is the authenticity of the image?", {"A": "non AI-manipulated", "B": "AI-manipulated"}
    )
    assert extract_option(answer_mcq(binary, [img]), {"A": "x", "B": "y"}).letter == "B"
    (tmp_path / "images").mkdir()
    Image.fromarray(img).save(tmp_path / "images/x.png")
    p = {"semantic": "GS", "modality": "RGB", "task": "SLS", "type": "SPL", "model": "GR"}
    item = segmentation("1", tmp_path, "images/x.png", mask, p, seed=0)
    shown = [np.asarray(Image.open(tmp_path / f).convert("RGB")) for f in item.images]
    reply = answer_mcq(render_text(item.question, item.options), shown)
    assert extract_option(reply, item.options).letter == item.answer
    tiled = np.asarray(tile([Image.fromarray(a) for a in shown]))  # as the runner sends it
    reply = answer_mcq(render_text(item.question, item.options), [tiled])
    assert extract_option(reply, item.options).letter == item.answer


def test_temporal_questions_are_declined() -> None:
    text = render_text("Please locate the forged frames.", {"A": "[ 0 ]", "B": "[ 1 ]", "C": "[]"})
    img, _ = _spliced()
    assert answer_mcq(text, [img]) == DECLINE
    assert extract_option(DECLINE, {"A": "[ 0 ]", "B": "[ 1 ]"}).step == "refusal"
