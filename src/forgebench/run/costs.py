"""Token estimates and the spending cap of ``forgebench run --max-cost``.

**Input-token estimate** (``--dry-run``; an approximation, providers count differently):

- text: ``ceil(characters / 4)`` plus 8 tokens of message framing (OpenAI's rule of thumb of
  about four characters of English per token);
- image: OpenAI's high-detail tile formula for GPT-4o-class models: scale the image to fit in
  2048 x 2048, then its shorter side down to 768 px, count 512 px tiles; ``85 + 170 * tiles``.
  Other providers and open models tokenise images differently (Qwen-VL: one token per 28 x 28
  patch), so treat the figure as an order of magnitude, not a bill. A question with several
  images counts each image by this formula (the sum); the models file has no price per input
  image, so images are priced as the input tokens they are estimated to be.

**Spending cap.** Each call reserves its estimated cost (estimated input tokens at ``price_in``
plus the mean output tokens seen so far, or ``max_tokens`` before any answer, at ``price_out``)
before it is sent; a call that would take spent + reserved past the cap is not sent and the
model stops scheduling. Actual spend is counted from the usage each answer reports (the estimate
where a reply has no usage).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

from forgebench.models.base import Usage
from forgebench.models.spec import ModelConfig
from forgebench.run.tasks import Task

TEXT_FRAMING_TOKENS = 8
IMAGE_BASE_TOKENS = 85
IMAGE_TILE_TOKENS = 170

_SIZE_MEMO: dict[str, tuple[int, int] | None] = {}


def image_tokens(width: int, height: int) -> int:
    """OpenAI high-detail image tokens for a ``width`` x ``height`` image."""
    if width <= 0 or height <= 0:
        return IMAGE_BASE_TOKENS
    scale = min(1.0, 2048 / max(width, height))
    w, h = width * scale, height * scale
    scale = min(1.0, 768 / min(w, h))
    w, h = w * scale, h * scale
    tiles = math.ceil(w / 512) * math.ceil(h / 512)
    return IMAGE_BASE_TOKENS + IMAGE_TILE_TOKENS * tiles


def _image_size(path: Path) -> tuple[int, int] | None:
    key = str(path)
    if key not in _SIZE_MEMO:
        try:
            with Image.open(path) as im:
                _SIZE_MEMO[key] = im.size
        except OSError:
            _SIZE_MEMO[key] = None
    return _SIZE_MEMO[key]


def estimate_input_tokens(task: Task) -> int:
    """Estimated input tokens of one task (see the module docstring)."""
    q = task.question
    tokens = math.ceil(len(q.prompt) / 4) + TEXT_FRAMING_TOKENS
    for ref in q.images:
        size = _image_size(ref.path)
        tokens += image_tokens(*size) if size else IMAGE_BASE_TOKENS
    return tokens


def cost_usd(
    config: ModelConfig, input_tokens: int, output_tokens: int, images: int = 0
) -> float | None:
    """USD for these tokens (and output images) at the model's prices; None when a needed price
    is missing. A model priced only per image (``price_image`` without token prices) pays
    nothing for tokens."""
    tokens_priced = config.price_in is not None and config.price_out is not None
    if not tokens_priced and config.price_image is None:
        return None
    cost = 0.0
    if tokens_priced:
        assert config.price_in is not None and config.price_out is not None
        cost += (input_tokens * config.price_in + output_tokens * config.price_out) / 1e6
    elif config.price_in is not None or config.price_out is not None:
        return None
    if config.price_image is not None:
        cost += images * config.price_image
    return cost


@dataclass
class Budget:
    """Spend so far across all models of one run, against ``max_usd``."""

    max_usd: float
    spent: float = 0.0
    reserved: float = 0.0
    exhausted: bool = False
    """Set once a call was refused for lack of budget."""
    _out_tokens: dict[str, tuple[int, int]] = field(default_factory=dict)
    _images: dict[str, tuple[int, int]] = field(default_factory=dict)

    def expected_output(self, config: ModelConfig) -> int:
        """Mean output tokens seen for this model, else its ``max_tokens`` (else 1024)."""
        n, total = self._out_tokens.get(config.name, (0, 0))
        if n:
            return math.ceil(total / n)
        return config.max_tokens or 1024

    def reserve(self, config: ModelConfig, task: Task, images: int | None = None) -> float | None:
        """Reserve a call's estimated cost; None (and ``exhausted``) when it does not fit.

        ``images``: the images this call will bill when the caller knows (an editor rendering a
        specification of several steps); else :meth:`expected_images`."""
        if images is None or config.price_image is None:
            images = self.expected_images(config)
        est = (
            cost_usd(config, estimate_input_tokens(task), self.expected_output(config), images)
            or 0.0
        )
        if self.spent + self.reserved + est > self.max_usd:
            self.exhausted = True
            return None
        self.reserved += est
        return est

    def expected_images(self, config: ModelConfig) -> int:
        """Mean output images seen for this model, else its ``images_per_call``."""
        if config.price_image is None:
            return 0
        n, total = self._images.get(config.name, (0, 0))
        return math.ceil(total / n) if n else config.images_per_call

    def settle(
        self, config: ModelConfig, reserved: float, usage: Usage | None, images: int = 0
    ) -> None:
        """Release a reservation and count what the call really cost (tokens and images)."""
        self.reserved = max(0.0, self.reserved - reserved)
        if usage is None:
            return
        if config.price_image is not None:
            n, total = self._images.get(config.name, (0, 0))
            self._images[config.name] = (n + 1, total + images)
        if usage.input_tokens is None and usage.output_tokens is None and not images:
            self.spent += reserved
            return
        cost = cost_usd(config, usage.input_tokens or 0, usage.output_tokens or 0, images) or 0.0
        self.spent += cost
        if usage.output_tokens is not None:
            n, total = self._out_tokens.get(config.name, (0, 0))
            self._out_tokens[config.name] = (n + 1, total + usage.output_tokens)
