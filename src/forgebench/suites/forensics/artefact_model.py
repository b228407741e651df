"""``builtin/artefact`` with Forensics questions: the engine's pixel-evidence baseline, plus
multiple-choice answers (:mod:`.baseline`) for the probes ``MCQ``, ``ATTR`` and ``ATTR_DESC``.

Registered by the Forensics suite in place of the engine's ``builtin/artefact``; every other
probe is passed to the engine's model unchanged, so Mandela runs answer exactly as before.
Multiple-choice questions take every image of the question, in order (``multi_image``: the item
and its candidates, or the frames, as separate images; ``full``: one tiled image, cut apart again
by :func:`.baseline.untile`).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from forgebench.models.base import Request, Response, Usage
from forgebench.models.builtin import artefact
from forgebench.models.images import load_rgb
from forgebench.models.spec import ModelConfig
from forgebench.suites.forensics.baseline import answer_mcq

READS_TEXT = False
"""Answers from pixels and option positions, never from reading: no judge, no extractor."""

MCQ_PROBES = frozenset({"MCQ", "ATTR", "ATTR_DESC"})


class ForensicsArtefactModel(artefact.ArtefactModel):
    """The engine's artefact model, answering Forensics questions too."""

    async def generate(self, request: Request) -> Response:
        if request.meta.get("probe") not in MCQ_PROBES:
            return await super().generate(request)
        images = [
            await asyncio.to_thread(load_rgb, Path(ref.path), "builtin/artefact")
            for ref in request.images
        ]
        text = await asyncio.to_thread(answer_mcq, request.prompt, images, self.threshold)
        raw = {
            "detector": "artefact",
            "probe": request.meta.get("probe"),
            "threshold": self.threshold,
        }
        return Response(text=text, raw=raw, usage=Usage(), finish_reason="stop")


def create(config: ModelConfig) -> ForensicsArtefactModel:
    """Build the model (``extra_body = {threshold = ...}`` checked as the engine's)."""
    inner = artefact.create(config)
    return ForensicsArtefactModel(inner.name, inner.threshold)
