"""An image editor behind the engine's :class:`~forgebench.models.base.Model` interface.

One call renders one candidate of one specification: every step of the specification in order
(a PIXAR multi-edit sequence feeds each step the previous one's image), through the editor
(:class:`~forgebench.construct.edit_api.Editor`). The :class:`~forgebench.models.base.Response`
says how it ended: ``text`` is the outcome (``ok``, ``refused``, ``blocked``: refusals and safety
blocks are answers, as a model's refusal is, never errors), ``outputs`` carries the candidate as
a PNG (stored by content hash, ``run/blobs.py``), ``raw`` holds the editor's message, the images
billed and their cost at the engine's price per image (:func:`forgebench.run.costs.cost_usd`).
Transport failures raise :class:`~forgebench.models.base.ModelError` from the editor, so the
runner retries them with its policy. Each finished step of a multi-step candidate is kept in the
work store as soon as it is rendered (``steps.py``): a retry by the runner, or a later run after a
kill or after the candidate ended as an error, reads it back and sends only the steps still to
do. ``raw["images"]`` and ``raw["cost"]`` are the whole candidate's (kept steps at what they
cost then), ``raw["billed"]`` the images this process paid for (the spending cap's count);
:meth:`EditorModel.take_billed` tells the cap what a candidate that ended as an error billed.

:class:`EditorConfig` is the engine's per-model configuration for an editor (concurrency,
attempts, timeout, ``price_image``), named by the editor's name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image
from pydantic import Field

from forgebench.construct.edit_api import (
    Editor,
    EditOutcome,
    EditRequest,
    PaidReply,
    content_hash,
    decode_rgb,
)
from forgebench.construct.specs import EditSpec, EditStep
from forgebench.construct.steps import StepStore, step_inputs
from forgebench.models.base import ModelError, OutputFile, Request, Response, Usage
from forgebench.models.spec import ModelConfig, ModelSpec
from forgebench.run.costs import cost_usd

FINISH = {"ok": "stop", "refused": "refusal", "blocked": "content_filter"}
"""An outcome's ``finish_reason``, as the chat backends report refusals and blocks."""


class EditorConfig(ModelConfig):
    """An editor's runner settings and price; ``spec`` is the editor's name."""

    concurrency: int = Field(default=4, ge=1)
    """Candidates rendered at once."""
    max_attempts: int = Field(default=4, ge=1)
    """Attempts per candidate (retryable failures) before it is stored as an error."""
    timeout_s: float = Field(default=600.0, gt=0)
    """Per-attempt timeout of one candidate (all its steps)."""
    temperature: float | None = None
    """Unused by editors."""
    max_tokens: int | None = None
    """Unused by editors."""
    price_image: float | None = 0.0
    """USD per rendered image (``--price-per-image``; 0 for the local editors)."""

    @property
    def parsed(self) -> ModelSpec:
        """The editor's name as a spec (editors are not model providers)."""
        return ModelSpec(provider="editor", model=self.spec, alias=self.spec)


def step_mask(step: EditStep, seed_root: Path, shape: tuple[int, int]) -> np.ndarray | None:
    """The step's mask (its PNG, else its region as a box), or None."""
    if step.mask:
        m = np.asarray(Image.open(seed_root / step.mask).convert("L")) > 127
        if m.shape != shape:
            raise ModelError(
                f"mask {step.mask} is {m.shape[::-1]}, image {shape[::-1]}",
                retryable=False,
                task_only=True,
            )
        return m
    if step.region:
        x0, y0, x1, y1 = step.region
        m = np.zeros(shape, bool)
        m[y0:y1, x0:x1] = True
        return m
    return None


def step_params(step: EditStep, seed_root: Path) -> dict[str, object]:
    """The step's editor parameters, file paths resolved against the seed folder."""
    out: dict[str, object] = {}
    for k, v in step.params.items():
        out[k] = (
            str(seed_root / v)
            if k in ("patch", "alpha", "background") and isinstance(v, str)
            else v
        )
    return out


def edit_request(key: str, spec: EditSpec, index: int, seed: np.ndarray) -> Request:
    """The runner's request for candidate ``index`` of ``spec`` under ``key`` (never sent as
    such: the editor model reads the specification and the seed pixels from ``meta``)."""
    return Request(
        prompt=" / ".join(s.instruction for s in spec.all_steps),
        meta={"task_key": key, "spec": spec, "candidate": index, "seed": seed},
    )


class EditorModel:
    """An editor as a :class:`~forgebench.models.base.Model` (see the module docstring)."""

    def __init__(
        self,
        editor: Editor,
        config: EditorConfig,
        seed_root: Path,
        steps: StepStore | None = None,
    ) -> None:
        self.editor = editor
        self.config = config
        self.name = editor.name
        self.seed_root = seed_root
        self.steps = steps
        """Where finished steps are kept (None: in this process only)."""
        self.pixels: dict[str, np.ndarray] = {}
        """Decoded candidates by content hash, for the gates (taken with :meth:`take_pixels`)."""
        self.requests = 0
        """Requests sent to the editor (one per step and attempt)."""
        self._billed: dict[str, int] = {}
        self._memory: dict[tuple[str, int, str], tuple[bytes, float]] = {}

    @property
    def offline(self) -> bool:
        """Whether the editor runs here (a failure condemns one candidate, never the editor)."""
        return bool(getattr(self.editor, "offline", False))

    def take_pixels(self, sha256: str) -> np.ndarray | None:
        """The decoded candidate, when this process rendered it (then forgotten)."""
        return self.pixels.pop(sha256, None)

    def describe_request(self, request: Request) -> dict[str, Any]:
        """What is stored as the request: editor, specification, candidate, instructions."""
        spec: EditSpec = request.meta["spec"]
        return {
            "editor": self.name,
            "spec": spec.id,
            "candidate": request.meta["candidate"],
            "steps": [
                {"operation": s.operation, "instruction": s.instruction, "params": s.params}
                for s in spec.all_steps
            ],
        }

    def take_billed(self, key: str) -> int:
        """Images rendered by this process for a candidate not yet answered (then forgotten)."""
        return self._billed.pop(key, 0)

    async def generate(self, request: Request) -> Response:
        """Render every step of the candidate; the outcome as a response (module docstring)."""
        spec: EditSpec = request.meta["spec"]
        index: int = request.meta["candidate"]
        key: str = request.meta["task_key"]
        img: np.ndarray = request.meta["seed"]
        steps = spec.all_steps
        out: EditOutcome | None = None
        images, cost = 0, 0.0
        for n, step in enumerate(steps):
            inputs = step_inputs(step, img)
            kept = self._kept(key, n, inputs)
            if kept is not None:
                out, img = EditOutcome("ok", image=kept[0]), kept[2]
                cost += kept[1]
            else:
                self.requests += 1
                try:
                    out = await self.editor.edit(self._request(spec, step, index, img))
                    if out.status != "ok" or out.image is None:
                        break
                    img = self._decode(out)
                except PaidReply:
                    # it arrived, so it was paid: kept as a step without an image (an empty
                    # blob, rendered again if asked again) at its price, so the spend counts it
                    price = cost_usd(self.config, 0, 0, 1) or 0.0
                    self._keep(key, n, inputs, b"", price)
                    self._billed[key] = self._billed.get(key, 0) + 1
                    raise
                price = cost_usd(self.config, 0, 0, 1) or 0.0
                self._keep(key, n, inputs, out.image, price)
                self._billed[key] = self._billed.get(key, 0) + 1
                cost += price
            images += 1
        assert out is not None
        self._memory = {k: v for k, v in self._memory.items() if k[0] != key}
        return self._response(out, img, images, cost, self._billed.pop(key, 0))

    def _kept(self, key: str, n: int, inputs: str) -> tuple[bytes, float, np.ndarray] | None:
        """A kept step's image, cost and pixels (None when not kept, or not an image)."""
        if self.steps is None:
            got = self._memory.get((key, n, inputs))
        else:
            data = self.steps.get(key, n, inputs)
            got = None if data is None else (data, self.steps.cost(key, n, inputs))
        if got is None:
            return None
        try:
            return got[0], got[1], decode_rgb(got[0], self.name)
        except ValueError:
            return None  # a damaged blob: render the step again

    def _keep(self, key: str, n: int, inputs: str, image: bytes, cost: float) -> None:
        if self.steps is None:
            self._memory[(key, n, inputs)] = (image, cost)
        else:
            self.steps.put(key, n, inputs, image, cost)

    def _request(self, spec: EditSpec, step: EditStep, index: int, img: np.ndarray) -> EditRequest:
        return EditRequest(
            image=img,
            mask=step_mask(step, self.seed_root, img.shape[:2]),
            instruction=step.instruction,
            operation=step.operation,
            region=tuple(step.region) if step.region else None,  # type: ignore[arg-type]
            params=step_params(step, self.seed_root),
            text=spec.text,
            candidate=index,
        )

    def _decode(self, out: EditOutcome) -> np.ndarray:
        if out.pixels is not None:
            return out.pixels
        assert out.image is not None
        try:
            return decode_rgb(out.image, self.name)
        except ValueError as exc:
            raise PaidReply(str(exc)) from None

    def _response(
        self, out: EditOutcome, img: np.ndarray, images: int, cost: float, billed: int
    ) -> Response:
        raw = {
            "status": out.status, "message": out.message, "images": images, "cost": cost,
            "billed": billed,
        }  # fmt: skip
        files = []
        if out.status == "ok" and out.image is not None:
            self.pixels[content_hash(out.image)] = img
            files.append(OutputFile("image_0", out.image, "image/png"))
        return Response(
            text=out.status, raw=raw, usage=Usage(0, 0), finish_reason=FINISH[out.status],
            outputs=files,
        )  # fmt: skip

    async def aclose(self) -> None:
        """Release the editor's connections, if it holds any."""
        close = getattr(self.editor, "aclose", None)
        if close is not None:
            await close()
