"""``diffusers/PATH``: a local diffusers pipeline from a folder (the ``diffusers`` extra).

The folder is a saved pipeline (``model_index.json`` and its components; nothing is downloaded:
``local_files_only``). A pipeline whose call takes ``mask_image`` is used as an inpainting
pipeline (image + mask + instruction as the prompt); any other as an instruction-edit pipeline
(image + instruction, e.g. InstructPix2Pix). Parameters (the step's ``params``): ``steps``
(default 30), ``guidance_scale``, ``seed`` (added to the candidate index; a CPU
``torch.Generator``), ``composite`` (default true: outside the mask the seed's own pixels are
kept, so an inpainting model's re-encoding of the whole frame does not count as edit footprint;
ours). The image is processed at its size rounded down to a multiple of 8 and the result brought
back to the seed's size. A pipeline that reports NSFW content (its safety checker) yields a
``blocked`` outcome.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from forgebench.construct.edit_api import EditorSpecError, EditOutcome, EditRequest, png_bytes
from forgebench.models.base import ModelError
from forgebench.models.spec import ModelSpec as EditorSpec


class DiffusersEditor:
    """A local diffusers pipeline."""

    offline = True
    """Runs here: a failure condemns one candidate, never the editor."""

    def __init__(self, name: str, path: str, price_per_image: float = 0.0) -> None:
        root = Path(path)
        if not (root / "model_index.json").is_file():
            raise EditorSpecError(
                f"{name}: {root} is not a saved diffusers pipeline (no model_index.json)"
            )
        try:
            import diffusers  # noqa: F401
        except ImportError:
            raise EditorSpecError(
                f"{name}: needs the diffusers package: pip install 'forgebench[diffusers]'"
            ) from None
        self.name = name
        self.path = root
        self.price_per_image = price_per_image
        self._pipe: Any = None
        self._lock = threading.Lock()

    def _pipeline(self) -> Any:
        with self._lock:
            if self._pipe is None:
                from diffusers import DiffusionPipeline

                kw: dict[str, Any] = {"local_files_only": True}
                index = (self.path / "model_index.json").read_text(encoding="utf-8")
                if "safety_checker" in index:
                    kw["requires_safety_checker"] = False
                try:
                    self._pipe = DiffusionPipeline.from_pretrained(self.path, **kw)
                except (OSError, ValueError) as exc:
                    raise ModelError(
                        f"{self.name}: cannot load {self.path}: {exc}", retryable=False
                    ) from None
                self._pipe.set_progress_bar_config(disable=True)
            return self._pipe

    def _run(self, req: EditRequest) -> EditOutcome:
        import torch

        pipe = self._pipeline()
        h, w = req.image.shape[:2]
        h8, w8 = max(8, h - h % 8), max(8, w - w % 8)
        p = req.params
        kw: dict[str, Any] = {
            "prompt": req.instruction,
            "image": Image.fromarray(req.image).resize((w8, h8)),
            "num_inference_steps": int(p.get("steps", 30)),
            "generator": torch.Generator().manual_seed(int(p.get("seed", 0)) + req.candidate),
            "output_type": "np",
        }
        if "guidance_scale" in p:
            kw["guidance_scale"] = float(p["guidance_scale"])
        params = inspect.signature(pipe.__call__).parameters
        masked = "mask_image" in params and req.mask is not None
        if masked:
            assert req.mask is not None
            kw["mask_image"] = Image.fromarray((req.mask > 0).astype(np.uint8) * 255).resize(
                (w8, h8)
            )
            kw["height"], kw["width"] = h8, w8
        try:
            result = pipe(**kw)
        except (RuntimeError, ValueError) as exc:
            raise ModelError(f"{self.name}: {exc}", retryable=False, task_only=True) from None
        nsfw = getattr(result, "nsfw_content_detected", None)
        if nsfw and any(nsfw):
            return EditOutcome(
                "blocked", message="the pipeline's safety checker flagged the output"
            )
        arr = np.clip(np.asarray(result.images[0]) * 255.0, 0, 255).round().astype(np.uint8)
        out = np.asarray(Image.fromarray(arr).resize((w, h), Image.Resampling.LANCZOS))
        if masked and p.get("composite", True):
            assert req.mask is not None
            out = np.where(req.mask[..., None] > 0, out, req.image)
        return EditOutcome("ok", png_bytes(out), pixels=out)

    async def edit(self, request: EditRequest) -> EditOutcome:
        """Render one candidate (in a worker thread)."""
        return await asyncio.to_thread(self._run, request)


def create(
    spec: EditorSpec, price_per_image: float | None, max_reply_bytes: int
) -> DiffusersEditor:
    """The ``diffusers/PATH`` editor (the editors registry's entry)."""
    return DiffusersEditor(spec.name, spec.model, price_per_image or 0.0)
