"""Question generation from metadata, for people who build their own Forensics set (seed 002 §3).

One function per task; each returns a :class:`ForensicsItem` whose ``answer`` is always among its
options, with a seeded option order (the seed is mixed with the item id, so items differ):

- :func:`binary`: "What is the authenticity of the {noun}?" with the paper's two wordings:
  ``AI-generated`` / ``non AI-generated`` for entire synthesis (type ``ES``), ``AI-manipulated`` /
  ``non AI-manipulated`` for edits; real media take the wording of the ``wording`` argument
  (default ``generated``; the paper pairs real media with both).
- :func:`segmentation`: "Which segmentation map denotes the forged area in the image most
  accurately?" The first image is the item, then four candidate maps drawn as red overlays
  (``Candidate 1``..``Candidate 4``): the true mask and three seeded perturbations of it (shifted
  by a third of its box, grown or shrunk, mirrored across the image), each overlapping the truth
  by IoU < 0.5 (re-drawn until it does).
- :func:`detection`: "Which box marks the forged area in the image most accurately?" with four
  candidate boxes, each drawn on its own copy of the image: the true box and three seeded
  perturbations (shifted, rescaled, moved elsewhere), IoU with the truth < 0.3.
- :func:`temporal`: "Please locate the forged frames in the given set of frames, which are
  sampled from a video. The output format should be the a list of indexes indicating the forged
  frames. The initial index starts from 0." (the paper's wording) over frames sampled uniformly;
  options are index lists written as the release does (``[ 0, 1, 5 ]``).

Real items of the localization tasks (the paper has them, e.g. ``HS-RGB-SLS-REAL-REAL``) get three
candidates drawn at random places and the option :data:`NOTHING` as their answer, whose text is
"No area was manipulated." (segmentation, detection) or "No frame was manipulated." (temporal).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import numpy as np
from PIL import Image, ImageDraw

from forgebench.suites.forensics.contract import LETTERS, ForensicsItem
from forgebench.suites.forensics.images import ImageFolder

NOTHING = {"area": "No area was manipulated.", "frame": "No frame was manipulated."}
"""The answer of real items in the localization tasks."""
BINARY_WORDING = {
    "generated": ("AI-generated", "non AI-generated"),
    "manipulated": ("AI-manipulated", "non AI-manipulated"),
}
NOUN = {"RGB": "image", "NIR": "image", "VID": "video", "RGB&TXT": "image"}
SEG_QUESTION = "Which segmentation map denotes the forged area in the image most accurately?"
DET_QUESTION = "Which box marks the forged area in the image most accurately?"
TL_QUESTION = (
    "Please locate the forged frames in the given set of frames, which are sampled from a video. "
    "The output format should be the a list of indexes indicating the forged frames. "
    "The initial index starts from 0."
)
Box = tuple[int, int, int, int]
"""``(x0, y0, x1, y1)``, half-open pixel box."""


def _rng(seed: int, item_id: str, task: str) -> np.random.Generator:
    h = hashlib.sha256(f"gen\0{seed}\0{item_id}\0{task}".encode()).digest()
    return np.random.default_rng(int.from_bytes(h[:8], "big"))


def _item(
    item_id: str, images: list[str], question: str, texts: list[str], correct: int,
    rng: np.random.Generator, perspectives: dict[str, str], **extra: object,
) -> ForensicsItem:  # fmt: skip
    order = [int(i) for i in rng.permutation(len(texts))]
    options = {LETTERS[k]: texts[i] for k, i in enumerate(order)}
    answer = LETTERS[order.index(correct)]
    return ForensicsItem.model_validate(
        {"id": item_id, "images": images, "question": question, "options": options,
         "answer": answer, **perspectives, **extra}
    )  # fmt: skip


def binary(
    item_id: str, image: str, perspectives: dict[str, str], *, seed: int = 0,
    wording: Literal["generated", "manipulated"] | None = None,
) -> ForensicsItem:  # fmt: skip
    """A binary-classification item (``perspectives``: the five fields, task ``BC``)."""
    real = perspectives["type"] == "REAL"
    kind = wording or ("generated" if real or perspectives["type"] == "ES" else "manipulated")
    yes, no = BINARY_WORDING[kind]
    question = f"What is the authenticity of the {NOUN[perspectives['modality']]}?"
    rng = _rng(seed, item_id, "BC")
    return _item(item_id, [image], question, [yes, no], 1 if real else 0, rng, perspectives)


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    union = np.logical_or(a, b).sum()
    return float(np.logical_and(a, b).sum() / union) if union else 1.0


def _bbox(mask: np.ndarray) -> Box:
    ys, xs = np.nonzero(mask)
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def _shift(mask: np.ndarray, dx: int, dy: int) -> np.ndarray:
    out = np.zeros_like(mask)
    h, w = mask.shape
    ys, xs = np.nonzero(mask)
    ys, xs = ys + dy, xs + dx
    keep = (ys >= 0) & (ys < h) & (xs >= 0) & (xs < w)
    out[ys[keep], xs[keep]] = True
    return out


def _scale(mask: np.ndarray, factor: float) -> np.ndarray:
    x0, y0, x1, y1 = _bbox(mask)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    h, w = mask.shape
    yy, xx = np.mgrid[0:h, 0:w]
    src_x = np.clip(np.round(cx + (xx - cx) / factor).astype(int), 0, w - 1)
    src_y = np.clip(np.round(cy + (yy - cy) / factor).astype(int), 0, h - 1)
    return mask[src_y, src_x]


def _random_blob(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    h, w = shape
    bw, bh = max(2, int(w * rng.uniform(0.15, 0.4))), max(2, int(h * rng.uniform(0.15, 0.4)))
    x0, y0 = int(rng.integers(0, w - bw + 1)), int(rng.integers(0, h - bh + 1))
    yy, xx = np.mgrid[0:h, 0:w]
    return ((xx - x0 - bw / 2) / (bw / 2)) ** 2 + ((yy - y0 - bh / 2) / (bh / 2)) ** 2 <= 1


def _decoy_masks(mask: np.ndarray, rng: np.random.Generator, n: int = 3) -> list[np.ndarray]:
    """Three perturbations of ``mask`` (shift, grow/shrink, mirror), each IoU < 0.5 with it."""
    x0, y0, x1, y1 = _bbox(mask)
    bw, bh = x1 - x0, y1 - y0
    makers = [
        lambda: _shift(mask, int(rng.choice([-1, 1]) * max(2, bw * rng.uniform(0.6, 1.0))),
                       int(rng.choice([-1, 1]) * max(2, bh * rng.uniform(0.3, 0.8)))),
        lambda: _scale(mask, float(rng.choice([rng.uniform(0.3, 0.55), rng.uniform(1.9, 2.6)]))),
        lambda: mask[:, ::-1] if rng.random() < 0.5 else mask[::-1, :],
    ]  # fmt: skip
    out: list[np.ndarray] = []
    for make in makers[:n]:
        for _ in range(20):
            cand = np.asarray(make(), dtype=bool)
            if cand.any() and _iou(cand, mask) < 0.5 and all(_iou(cand, o) < 0.9 for o in out):
                break
        else:
            cand = _random_blob(mask.shape, rng)
            while _iou(cand, mask) >= 0.5:
                cand = _random_blob(mask.shape, rng)
        out.append(cand)
    return out


def _overlay(image: Image.Image, mask: np.ndarray) -> Image.Image:
    rgb = np.asarray(image.convert("RGB"), dtype=np.float32).copy()
    rgb[mask] = 0.45 * rgb[mask] + 0.55 * np.array([255, 0, 0], dtype=np.float32)
    return Image.fromarray(rgb.astype(np.uint8))


def _png(im: Image.Image) -> bytes:
    import io

    buf = io.BytesIO()
    im.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def _candidate_item(
    item_id: str, image: str, question: str, drawn: list[Image.Image | None], correct: int,
    folder: ImageFolder, rng: np.random.Generator, perspectives: dict[str, str], what: str,
) -> ForensicsItem:  # fmt: skip
    """Options in a seeded order; drawn candidates are numbered as shown (``Candidate 1`` is the
    first image after the item's own), ``None`` is the "nothing manipulated" option."""
    order = [int(i) for i in rng.permutation(len(drawn))]
    texts, images, n = [], [image], 0
    for i in order:
        cand = drawn[i]
        if cand is None:
            texts.append(NOTHING[what])
        else:
            n += 1
            texts.append(f"Candidate {n}")
            images.append(folder.put(_png(cand)).path)
    options = {LETTERS[k]: t for k, t in enumerate(texts)}
    return ForensicsItem.model_validate(
        {"id": item_id, "images": images, "question": question, "options": options,
         "answer": LETTERS[order.index(correct)], **perspectives}
    )  # fmt: skip


def _load(root: Path, image: str) -> Image.Image:
    with Image.open(root / image) as im:
        return im.convert("RGB")


def segmentation(
    item_id: str, root: Path, image: str, mask: np.ndarray | None, perspectives: dict[str, str],
    *, seed: int = 0,
) -> ForensicsItem:  # fmt: skip
    """A segmentation item; ``mask`` (bool, image-sized) is the forged area, ``None`` for real
    media. Candidate overlays are written into ``root`` (content-addressed)."""
    base = _load(root, image)
    rng = _rng(seed, item_id, "SLS")
    shape = (base.height, base.width)
    if mask is not None and mask.shape != shape:
        raise ValueError(f"item {item_id}: mask {mask.shape[::-1]} differs from image {base.size}")
    drawn: list[Image.Image | None]
    if mask is None or not mask.any():
        drawn = [*(_overlay(base, _random_blob(shape, rng)) for _ in range(3)), None]
        correct = 3
    else:
        m = mask.astype(bool)
        drawn = [_overlay(base, x) for x in (m, *_decoy_masks(m, rng))]
        correct = 0
    return _candidate_item(
        item_id, image, SEG_QUESTION, drawn, correct, ImageFolder(root), rng, perspectives, "area"
    )


def box_iou(a: Box, b: Box) -> float:
    """IoU of two half-open boxes."""
    iw = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    ih = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = iw * ih
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union else 1.0


def _random_box(
    w: int, h: int, rng: np.random.Generator, bw: int | None = None, bh: int | None = None
) -> Box:
    bw = bw or max(2, int(w * rng.uniform(0.15, 0.4)))
    bh = bh or max(2, int(h * rng.uniform(0.15, 0.4)))
    bw, bh = min(bw, w), min(bh, h)
    x0, y0 = int(rng.integers(0, w - bw + 1)), int(rng.integers(0, h - bh + 1))
    return (x0, y0, x0 + bw, y0 + bh)


def _decoy_boxes(box: Box, w: int, h: int, rng: np.random.Generator) -> list[Box]:
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0

    def clamp(b: tuple[float, float, float, float]) -> Box:
        a0, b0 = max(0, int(b[0])), max(0, int(b[1]))
        return (a0, b0, max(a0 + 2, min(w, int(b[2]))), max(b0 + 2, min(h, int(b[3]))))

    def shifted() -> Box:
        dx = rng.choice([-1, 1]) * bw * rng.uniform(0.7, 1.1)
        dy = rng.choice([-1, 1]) * bh * rng.uniform(0.3, 0.9)
        return clamp((x0 + dx, y0 + dy, x1 + dx, y1 + dy))

    def rescaled() -> Box:
        f = float(rng.choice([rng.uniform(0.25, 0.45), rng.uniform(2.2, 3.0)]))
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        return clamp((cx - bw * f / 2, cy - bh * f / 2, cx + bw * f / 2, cy + bh * f / 2))

    out: list[Box] = []
    for make in (shifted, rescaled, lambda: _random_box(w, h, rng, bw, bh)):
        for _ in range(50):
            cand = make()
            if box_iou(cand, box) < 0.3 and all(box_iou(cand, o) < 0.9 for o in out):
                break
        else:
            cand = _random_box(w, h, rng)
        out.append(cand)
    return out


def _draw_box(image: Image.Image, box: Box) -> Image.Image:
    out = image.copy()
    width = max(2, round(min(image.size) / 100))
    ImageDraw.Draw(out).rectangle(
        (box[0], box[1], box[2] - 1, box[3] - 1), outline=(255, 0, 0), width=width
    )
    return out


def detection(
    item_id: str, root: Path, image: str, box: Box | None, perspectives: dict[str, str],
    *, seed: int = 0,
) -> ForensicsItem:  # fmt: skip
    """A detection item; ``box`` is the forged area, ``None`` for real media."""
    base = _load(root, image)
    w, h = base.size
    rng = _rng(seed, item_id, "SLD")
    drawn: list[Image.Image | None]
    if box is None:
        drawn = [*(_draw_box(base, _random_box(w, h, rng)) for _ in range(3)), None]
        correct = 3
    else:
        if not (0 <= box[0] < box[2] <= w and 0 <= box[1] < box[3] <= h):
            raise ValueError(
                f"item {item_id}: box {list(box)} is empty or outside the {w}x{h} image"
            )
        drawn = [_draw_box(base, b) for b in (box, *_decoy_boxes(box, w, h, rng))]
        correct = 0
    return _candidate_item(
        item_id, image, DET_QUESTION, drawn, correct, ImageFolder(root), rng, perspectives, "area"
    )


def sample_frames(n_frames: int, k: int) -> list[int]:
    """``k`` frame indices sampled uniformly from ``n_frames`` (segment centres)."""
    k = min(k, n_frames)
    return [int((i + 0.5) * n_frames / k) for i in range(k)]


def frame_list(indices: Sequence[int]) -> str:
    """An index list as the release writes it: ``[ 0, 1, 5 ]`` (``[]`` when empty)."""
    return "[ " + ", ".join(str(i) for i in indices) + " ]" if indices else "[]"


def temporal(
    item_id: str, frames: Sequence[str], forged: Sequence[bool], perspectives: dict[str, str],
    *, k: int = 8, seed: int = 0,
) -> ForensicsItem:  # fmt: skip
    """A temporal-localization item over ``k`` uniformly sampled ``frames`` (paths, in order);
    ``forged[i]`` says whether frame ``i`` was manipulated (all False: real media)."""
    if len(frames) != len(forged) or not frames:
        raise ValueError(f"item {item_id}: {len(frames)} frames but {len(forged)} forged flags")
    picked = sample_frames(len(frames), k)
    if len(picked) < 3:
        raise ValueError(f"item {item_id}: temporal questions need at least 3 sampled frames")
    truth = [j for j, f in enumerate(picked) if forged[f]]
    rng = _rng(seed, item_id, "TL")
    seen = {tuple(truth)}
    decoys: list[str] = []
    while len(decoys) < 3:
        size = int(rng.integers(1, len(picked) + 1))
        cand = tuple(sorted(int(x) for x in rng.choice(len(picked), size=size, replace=False)))
        if cand not in seen:
            seen.add(cand)
            decoys.append(frame_list(cand))
    texts = [NOTHING["frame"] if not truth else frame_list(truth), *decoys]
    return _item(
        item_id,
        [frames[f] for f in picked],
        TL_QUESTION,
        texts,
        0,
        rng,
        perspectives,
        frames=picked,
    )
