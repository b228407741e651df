"""One interface for image editors, and the spec strings that name them.

An editor takes an :class:`EditRequest` (the seed image, a mask, an instruction, the edit step's
parameters) and returns an :class:`EditOutcome`: an image, or a refusal / safety block (recorded
as outcomes, never as errors, like a model's refusal). Transport and protocol failures raise
:class:`forgebench.models.base.ModelError` (``retryable`` for 429 / 5xx / unreachable), the
engine's one error type, so retries follow the runner's policy. The builder runs an editor
through the engine's runner as a model (:mod:`forgebench.construct.editor_model`).

Editor specs (as model specs, ``[ALIAS=]PROVIDER/WHAT``):

- ``local/auto``: the procedural editors (paste, recolour, retext, remove-by-inpaint), chosen
  by the step's operation; no network, no cost;
- ``http/URL``: the generic POST of :mod:`forgebench.construct.editors_http`;
- ``openai/MODEL[@BASE_URL]``: the OpenAI Images edit endpoint through the official SDK (any
  compatible server); key from ``OPENAI_API_KEY`` (a placeholder is sent to a ``@URL`` server
  without one);
- ``diffusers/PATH``: a saved local diffusers pipeline (inpainting or instruction edit;
  :mod:`forgebench.construct.editors_diffusers`, the ``diffusers`` extra).
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

import numpy as np
from PIL import Image

from forgebench.errors import UserError
from forgebench.models.base import ModelError
from forgebench.models.spec import MAX_REPLY_BYTES as _MODEL_REPLY_BYTES
from forgebench.models.spec import SpecError, split_spec
from forgebench.util.images import pixel_limit_error
from forgebench.util.registry import Registry

OutcomeStatus = Literal["ok", "refused", "blocked"]


@dataclass(frozen=True)
class EditRequest:
    """One candidate to render."""

    image: np.ndarray
    """The seed image, H x W x 3 uint8 RGB."""
    mask: np.ndarray | None
    """H x W bool, True where the edit may change pixels (None: the editor decides)."""
    instruction: str
    """The one-sentence instruction."""
    operation: str
    """The step's operation (``insert``, ``replace``, ``remove``, ``recolour``, ``retext``, ...)."""
    region: tuple[int, int, int, int] | None = None
    """The edit box, when recorded."""
    params: dict[str, Any] = field(default_factory=dict)
    """The step's editor parameters (paths already resolved against the seed folder)."""
    text: str | None = None
    """K4: the new text."""
    candidate: int = 0
    """Candidate index (0..N-1): a seed for editors with randomness."""


@dataclass(frozen=True)
class EditOutcome:
    """What the editor returned."""

    status: OutcomeStatus
    """``ok`` (an image), ``refused`` or ``blocked`` (a safety system stopped it)."""
    image: bytes | None = None
    """PNG bytes of the candidate (``ok`` only)."""
    message: str | None = None
    """The editor's words for a refusal or block, or a note."""
    pixels: np.ndarray | None = None
    """The decoded image, when the editor has it at hand (saves a decode; local editors)."""


@runtime_checkable
class Editor(Protocol):
    """An image editor."""

    name: str
    """The editor's name in provenance (the alias, else ``PROVIDER/WHAT``)."""
    price_per_image: float
    """Price of one rendered image, in USD: the engine prices each call with it
    (``EditorConfig.price_image``, ``run/costs.py``) for ``--dry-run`` and ``--max-cost``."""

    async def edit(self, request: EditRequest) -> EditOutcome:
        """Render one candidate; raise ``ModelError`` on transport or protocol failure."""
        ...


class EditorSpecError(UserError, ValueError):
    """An editor spec that names no editor (one line)."""


def png_bytes(rgb: np.ndarray) -> bytes:
    """PNG encoding of an RGB (or L) array."""
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, "PNG", compress_level=1)
    return buf.getvalue()


class PaidReply(ModelError):
    """A reply that arrived (and so was paid for) but holds no usable image: not an image, over
    the pixel limit, over the body limit. Priced as a delivered image and not retried (asking
    again would pay again); only its candidate ends as an error."""

    def __init__(self, message: str) -> None:
        super().__init__(message, retryable=False, task_only=True)


def decode_rgb(data: bytes, where: str) -> np.ndarray:
    """Decode image bytes to RGB; ``ValueError`` naming ``where`` when they are not an image or
    their header claims more pixels than a dataset image may have
    (:func:`forgebench.util.images.pixel_limit_error`; checked before anything is decoded)."""
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:
                too_big = pixel_limit_error(im.width, im.height)
                if too_big is None:
                    return np.asarray(im.convert("RGB")).copy()
    except Exception as exc:  # PIL raises several types for garbage
        raise ValueError(f"{where}: not an image ({type(exc).__name__})") from None
    raise ValueError(f"{where}: image refused: {too_big}")


def content_hash(data: bytes) -> str:
    """SHA-256 hex of a candidate's bytes (its blob name)."""
    return hashlib.sha256(data).hexdigest()


MAX_REPLY_BYTES = _MODEL_REPLY_BYTES
"""The most bytes of an editor's reply read (``--max-reply-mb``); a longer reply is refused
(the models' own default, ``max_reply_bytes``)."""


EDITORS: Registry[Callable[..., Editor]] = Registry("editor", check=callable)
"""Editor provider -> ``create(spec, price_per_image, max_reply_bytes)`` (lazy: the module is
imported when a spec names it). Editors are providers of their kind: their specs are read by
the models' one spec parser (``[ALIAS=]PROVIDER/WHAT[@URL]``)."""
for _name in ("local", "http", "openai", "diffusers"):
    EDITORS.add(_name, f"forgebench.construct.editors_{_name}:create", origin="forgebench")


def make_editor(
    spec: str, price_per_image: float | None = None, max_reply_bytes: int | None = None
) -> Editor:
    """The editor a spec names; :class:`EditorSpecError` on an unknown provider or a bad spec.
    ``max_reply_bytes`` bounds what an ``http/`` or ``openai/`` editor's reply may hold
    (default 64 MiB)."""
    try:
        parsed = split_spec(
            spec, EDITORS.names(), what="editor spec", grammar="[ALIAS=]PROVIDER/WHAT",
            example="local/auto",
        )  # fmt: skip
    except SpecError as exc:
        raise EditorSpecError(str(exc)) from None
    create = EDITORS.get(parsed.provider)
    return create(parsed, price_per_image, max_reply_bytes or MAX_REPLY_BYTES)
