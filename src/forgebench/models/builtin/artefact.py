"""``builtin/artefact``: an offline baseline that judges images from pixel evidence only.

It is a real, deliberately weak local-inconsistency detector, so the demo has something honest to
grade. It knows nothing about people, places or events.

Evidence (:func:`score_map`): error-level analysis normalised by the noise residual. The grey
image is re-encoded as JPEG at quality 90; per 16 px block we take the log mean absolute
re-encoding error (ELA) minus half the log mean absolute Laplacian (the block's high-pass
residual, i.e. how much texture and noise it has, which ELA otherwise just follows). Content
that was not compressed along with the rest of the image (pasted, drawn, inpainted or re-typed
after the last JPEG save) recompresses with more error than its texture predicts. The statistic
becomes a robust z-score against the image's own median block and median absolute deviation
(MAD); only the excess counts (``min(1, max(z, 0) / 4)``), near-black and near-white blocks
(clipped, no evidence) score 0, and the block map is smoothed over 3x3 blocks and upsampled to the
image size.

Verdict (REAL/FAKE probes: L0, L1, L-adv, also under caption, crop and mirror conditions): the
most suspicious block's score is compared with :data:`THRESHOLD`; FAKE answers name that region's
position ("the upper-left region shows ..."), REAL answers say nothing stands out. The threshold
was chosen on the offline demo so that the detector finds some forgeries at a clearly lower
false-alarm rate (a weak detector, as the paper's pixel audit expects of knowledge-only
forgeries); it can be overridden per model with ``extra_body = {threshold = ...}``.

Other probes are answered as a pixel-only detector honestly would: RECOG ``NOT RECOGNISED``; L2
"I cannot identify anyone."; FACE "NO. ..." (it cannot tell who a face belongs to, so it never
confirms an identity); EVENT ``UNKNOWN``; TEXT (no image) an explicit "UNKNOWN" without YES/NO,
because a bare "NO" would be scored as knowing that the person could not have been present.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from forgebench.models.base import ModelError, Request, Response, Usage, image_limit
from forgebench.models.images import load_rgb
from forgebench.models.spec import ModelConfig, SpecError

READS_TEXT = False
"""A pixel detector: it never reads the prompt, so it can be neither a judge nor an extractor."""

BLOCK = 16
"""Block size in pixels for the block statistics."""
THRESHOLD = 0.45
"""Default decision threshold on the most suspicious block's score (see module docstring)."""
VERDICT_PROBES = frozenset({"L0", "L1", "L-adv"})
"""Probes answered with REAL or FAKE."""
ELA_QUALITY = 90
"""JPEG quality of the error-level re-encoding."""
_Z_FULL = 4.0
_DARK, _BRIGHT = 10.0, 245.0


def _robust_z(values: np.ndarray, valid: np.ndarray) -> np.ndarray:
    ref = values[valid] if valid.any() else values.ravel()
    med = float(np.median(ref))
    mad = float(np.median(np.abs(ref - med))) * 1.4826
    return (values - med) / (mad + 0.05)


def _block_means(x: np.ndarray, gh: int, gw: int) -> np.ndarray:
    h, w = gh * BLOCK, gw * BLOCK
    return x[:h, :w].reshape(gh, BLOCK, gw, BLOCK).mean(axis=(1, 3))


def _block_scores(rgb: np.ndarray) -> np.ndarray:
    """Per-block suspicion in [0, 1] (``H // 16 x W // 16``)."""
    gh, gw = rgb.shape[0] // BLOCK, rgb.shape[1] // BLOCK
    if gh < 2 or gw < 2:
        return np.zeros((max(gh, 1), max(gw, 1)), np.float32)
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    g = grey.astype(np.float32)
    ok, enc = cv2.imencode(".jpg", grey, [cv2.IMWRITE_JPEG_QUALITY, ELA_QUALITY])
    decoded = cv2.imdecode(enc, cv2.IMREAD_GRAYSCALE) if ok else None
    if decoded is None:  # pragma: no cover - OpenCV always round-trips a valid uint8 image
        raise RuntimeError("JPEG re-encoding failed")
    again = decoded.astype(np.float32)
    ela = np.log(_block_means(np.abs(g - again), gh, gw) + 0.1)
    activity = np.log(_block_means(np.abs(cv2.Laplacian(g, cv2.CV_32F)), gh, gw) + 1.0)
    level = _block_means(g, gh, gw)
    valid = (level > _DARK) & (level < _BRIGHT)
    z = _robust_z(ela - 0.5 * activity, valid)
    score = np.clip(z / _Z_FULL, 0.0, 1.0) * valid
    return cv2.blur(score.astype(np.float32), (3, 3), borderType=cv2.BORDER_REFLECT)


def score_map(rgb: np.ndarray) -> np.ndarray:
    """Suspicion per pixel: ``float32`` in ``[0, 1]``, same ``H x W`` as ``rgb`` (uint8 RGB)."""
    if rgb.ndim == 2:
        rgb = np.repeat(rgb[..., None], 3, axis=2)
    if rgb.dtype != np.uint8 or rgb.ndim != 3 or rgb.shape[2] not in (3, 4):
        raise ValueError(f"expected an HxWx3 uint8 image, got {rgb.dtype} {rgb.shape}")
    rgb = np.ascontiguousarray(rgb[..., :3])
    h, w = rgb.shape[:2]
    blocks = _block_scores(rgb)
    gh, gw = blocks.shape
    up = cv2.resize(blocks, (gw * BLOCK, gh * BLOCK), interpolation=cv2.INTER_LINEAR)
    out = np.zeros((h, w), np.float32)
    out[: up.shape[0], : up.shape[1]] = up[:h, :w]
    if up.shape[0] < h:
        out[up.shape[0] :, : up.shape[1]] = up[-1:, :w]
    if up.shape[1] < w:
        out[:, up.shape[1] :] = out[:, up.shape[1] - 1 : up.shape[1]]
    return np.clip(out, 0.0, 1.0)


@dataclass(frozen=True)
class Finding:
    """The most suspicious region of an image."""

    score: float
    """Its block score in [0, 1]."""
    box: tuple[int, int, int, int]
    """Pixel box ``[x0, y0, x1, y1]`` of the connected suspicious blocks around the peak."""
    position: str
    """Where it is, in words (``upper-left``, ``central``, ...)."""


def _position(box: tuple[int, int, int, int], w: int, h: int) -> str:
    cx, cy = (box[0] + box[2]) / 2 / w, (box[1] + box[3]) / 2 / h
    vert = "upper" if cy < 1 / 3 else "lower" if cy > 2 / 3 else ""
    horiz = "left" if cx < 1 / 3 else "right" if cx > 2 / 3 else ""
    return "-".join(p for p in (vert, horiz) if p) or "central"


def analyse(rgb: np.ndarray) -> Finding:
    """The most suspicious region of an RGB image and its score."""
    blocks = _block_scores(np.ascontiguousarray(rgb[..., :3]))
    h, w = rgb.shape[:2]
    peak = float(blocks.max())
    by, bx = np.unravel_index(int(np.argmax(blocks)), blocks.shape)
    hot = (blocks >= max(peak * 0.8, 1e-6)).astype(np.uint8)
    _, labels = cv2.connectedComponents(hot, connectivity=8)
    ys, xs = np.nonzero(labels == labels[by, bx])
    box = (
        int(xs.min()) * BLOCK,
        int(ys.min()) * BLOCK,
        min(w, (int(xs.max()) + 1) * BLOCK),
        min(h, (int(ys.max()) + 1) * BLOCK),
    )
    return Finding(peak, box, _position(box, w, h))


def answer(probe: str, finding: Finding | None, threshold: float) -> str:
    """The answer text for a probe given the image's finding (None: no image)."""
    if probe in VERDICT_PROBES:
        if finding is None:
            raise ModelError(f"probe {probe} needs an image", retryable=False)
        if finding.score > threshold:
            return (
                f"FAKE. The {finding.position} region shows noise and compression statistics that are "
                "inconsistent with the rest of the image, which suggests local editing there."
            )
        return "REAL. No local inconsistency in noise or compression stands out."
    if probe == "RECOG":
        return "NOT RECOGNISED"
    if probe == "L2":
        return (
            "I cannot identify anyone. I only measure pixel statistics and do not recognise people."
        )
    if probe == "FACE":
        return "NO. I cannot tell who a face belongs to; I only measure pixel statistics."
    if probe == "EVENT":
        return "UNKNOWN"
    if probe == "TEXT":
        return "UNKNOWN. I have no knowledge of people or events; I only measure pixel statistics."
    return "I cannot answer this: I only measure pixel statistics."


def _probe_of(request: Request) -> str:
    probe = request.meta.get("probe")
    if isinstance(probe, str) and probe:
        return probe
    return "L0" if "REAL or FAKE" in request.prompt else "UNKNOWN"


def _load_and_analyse(path: Path) -> Finding:
    return analyse(load_rgb(path, "builtin/artefact"))


FINDINGS_KEPT = 4096
"""Findings a model keeps (a few hundred bytes each), most recently used first."""


class ArtefactModel:
    """The pixel-evidence baseline behind ``builtin/artefact``.

    One image file is analysed once per model: the verdict probes (L0, L1, L-adv) and the
    caption conditions (``full``, ``full_caption`` and ``full_wrong_caption`` send the same file)
    ask up to nine tasks of the same image, and the finding depends on its pixels only. Findings
    are kept by (path, modification time, size), the last :data:`FINDINGS_KEPT`; tasks that ask
    for an image while it is being analysed wait for that analysis (a failure is not kept)."""

    def __init__(self, name: str, threshold: float = THRESHOLD) -> None:
        self.name = name
        self.threshold = threshold
        self._findings: OrderedDict[tuple[str, int, int], Finding] = OrderedDict()
        self._analysing: dict[tuple[str, int, int], asyncio.Future[Finding]] = {}

    async def finding(self, path: Path) -> Finding:
        """The finding of the image at ``path`` (an unreadable file: :class:`ModelError`)."""
        try:
            st = path.stat()
        except OSError:
            return await asyncio.to_thread(_load_and_analyse, path)  # the error, as ever
        key = (str(path), st.st_mtime_ns, st.st_size)
        kept = self._findings.get(key)
        if kept is not None:
            self._findings.move_to_end(key)
            return kept
        loop = asyncio.get_running_loop()
        running = self._analysing.get(key)
        if running is None or running.get_loop() is not loop:  # waits only on its own loop
            running = loop.create_task(asyncio.to_thread(_load_and_analyse, path))
            self._analysing[key] = running
            running.add_done_callback(lambda done: self._keep(key, done))
        return await asyncio.shield(running)

    def _keep(self, key: tuple[str, int, int], done: asyncio.Future[Finding]) -> None:
        if self._analysing.get(key) is done:
            del self._analysing[key]
        if done.cancelled() or done.exception() is not None:
            return
        self._findings[key] = done.result()
        if len(self._findings) > FINDINGS_KEPT:
            self._findings.popitem(last=False)

    async def generate(self, request: Request) -> Response:
        """Answer one probe from the image's pixels (CPU work runs in a worker thread)."""
        probe = _probe_of(request)
        finding: Finding | None = None
        image_limit(self.name, request, 1, " (builtin/artefact scores one image)")
        if request.images and probe in VERDICT_PROBES:
            finding = await self.finding(Path(request.images[0].path))
        text = answer(probe, finding, self.threshold)
        raw: dict[str, Any] = {"detector": "artefact", "probe": probe, "threshold": self.threshold}
        if finding is not None:
            raw.update(
                score=round(finding.score, 6), region=list(finding.box), position=finding.position
            )
        return Response(text=text, raw=raw, usage=Usage(), finish_reason="stop")

    async def aclose(self) -> None:
        """Nothing to release."""


def create(config: ModelConfig) -> ArtefactModel:
    """``builtin/artefact`` from its config; ``extra_body.threshold`` overrides :data:`THRESHOLD`."""
    threshold = config.extra_body.get("threshold", THRESHOLD)
    if not isinstance(threshold, int | float) or not 0.0 <= float(threshold) <= 1.0:
        raise SpecError(
            f"builtin/artefact: threshold must be a number in [0, 1], got {threshold!r}"
        )
    return ArtefactModel(config.name, float(threshold))
