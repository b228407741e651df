"""PIXAR LOC test material: pairs with planted edits, replies that locate them, and a loopback
OpenAI-compatible server that answers from the image bytes it receives."""

from __future__ import annotations

import base64
import csv
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

W, H = 96, 64
BOXES: dict[str, tuple[int, int, int, int]] = {
    "a": (10, 5, 40, 30),
    "b": (50, 20, 90, 60),
    "c": (0, 0, 30, 20),
}
"""Planted edits (x0, y0, x1, y1), half-open: every pixel inside changes by 128 per channel."""


def noise_image(seed: int, w: int = W, h: int = H) -> np.ndarray:
    """A random RGB uint8 image."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, (h, w, 3), dtype=np.uint8)


def write_png(path: Path, rgb: np.ndarray) -> bytes:
    """Write an RGB image as PNG; its bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    assert cv2.imwrite(str(path), cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    return path.read_bytes()


def box_pairs(root: Path) -> dict[str, str]:
    """original/ + edited/ with the planted boxes; returns sha256(edited bytes) -> stem."""
    by_hash = {}
    for i, (stem, (x0, y0, x1, y1)) in enumerate(BOXES.items()):
        o = noise_image(i)
        e = o.copy()
        e[y0:y1, x0:x1] = o[y0:y1, x0:x1] + np.uint8(128)  # wraps: |diff| = 128 everywhere
        write_png(root / "original" / f"{stem}.png", o)
        by_hash[hashlib.sha256(write_png(root / "edited" / f"{stem}.png", e)).hexdigest()] = stem
    return by_hash


def loc_reply(box: tuple[int, ...], classes: list[str] | None = None, desc: str = "") -> str:
    """A LOC reply naming one box, in a code fence with prose around it."""
    reply = {"tampered": True, "regions": [{"box": list(box)}], "classes": classes or ["cat"],
             "description": desc}  # fmt: skip
    return "Here you go:\n```json\n" + json.dumps(reply) + "\n```"


def serve_loc(fake_openai: Any, by_hash: dict[str, str], answer: Callable[[str, str], str]) -> Any:
    """A fake OpenAI server whose reply text is ``answer(model_id, stem)``, the stem found from
    the sha256 of the image bytes in the request's data URL."""
    server = fake_openai()
    plain = server._completion

    def completion(body: dict[str, Any], outcome: str) -> dict[str, Any]:
        out: dict[str, Any] = plain(body, outcome)
        url = body["messages"][0]["content"][0]["image_url"]["url"]
        stem = by_hash[hashlib.sha256(base64.b64decode(url.partition(",")[2])).hexdigest()]
        if outcome == "ok":
            out["choices"][0]["message"]["content"] = answer(body["model"], stem)
        return out

    server._completion = completion
    return server


def exact_or_prose(model: str, stem: str) -> str:
    """Model ``mixed`` answers pair b with prose (a miss); every other answer is exact."""
    if model == "mixed" and stem == "b":
        return "I am not able to tell which part of this image was edited."
    return loc_reply(BOXES[stem])


def metrics_of(run: Path) -> dict[tuple[str, str, str, str], tuple[float, int]]:
    """``(benchmark, model, subset, metric) -> (value, n)`` of RUN/metrics.csv."""
    with (run / "metrics.csv").open(newline="") as fh:
        return {
            (r["benchmark"], r["model"], r["subset"], r["metric"]): (float(r["value"]), int(r["n"]))
            for r in csv.DictReader(fh)
        }
