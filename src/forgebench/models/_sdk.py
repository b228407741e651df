"""Small helpers the provider backends share: keys, image bytes, merged parameters, extras."""

from __future__ import annotations

import base64
import importlib
import os
from typing import Any

from forgebench.models.base import ModelError, Request
from forgebench.models.checks import key_problem
from forgebench.models.replies import limited_transport as transport
from forgebench.models.spec import ModelConfig, SpecError


def missing_extra(config: ModelConfig, extra: str) -> SpecError:
    """The one-line error for a backend whose optional dependency is not installed."""
    p = config.parsed
    return SpecError(
        f"{p.provider}/{p.model} needs the {extra!r} extra: pip install 'forgebench[{extra}]'"
    )


def api_key(config: ModelConfig, default_env: str) -> str:
    """The key from ``config.api_key_env`` (else ``default_env``), read when the first request
    is sent (so ``--dry-run`` works without one); a non-retryable 401 :class:`ModelError` if unset.

    The key is handed to the SDK client only; it is never stored on the model object.
    """
    env = config.api_key_env or default_env
    key = os.environ.get(env, "").strip()
    if not key:
        raise ModelError(f"{env} is not set (needed by {config.name})", retryable=False, status=401)

    why = key_problem(env, key)
    if why is not None:
        raise ModelError(why, retryable=False, status=401)
    return key


def merged_params(config: ModelConfig, request: Request) -> dict[str, Any]:
    """The model's generation parameters overlaid by the request's own (the request wins)."""
    out = config.generation_params()
    out.update(request.params)
    return out


def _decode(b64: str) -> bytes:
    try:
        return base64.b64decode(b64, validate=True)
    except ValueError as exc:
        raise ModelError(f"request image is not base64: {exc}", retryable=False) from exc


def all_image_bytes(request: Request) -> list[bytes]:
    """Every request image's bytes, in order (decoded from the runner's base64 where it
    encoded them, else read from the variant's file)."""
    out: list[bytes] = []
    for k in range(request.image_count):
        b64 = request.images_b64[k] if k < len(request.images_b64) else None
        out.append(_decode(b64) if b64 is not None else _file_bytes(request, k))
    return out


def all_image_b64(request: Request) -> list[str]:
    """Every request image as base64 text, in order (the runner's encoding when present)."""
    out: list[str] = []
    for k in range(request.image_count):
        b64 = request.images_b64[k] if k < len(request.images_b64) else None
        if b64 is None:
            b64 = base64.b64encode(_file_bytes(request, k)).decode("ascii")
        out.append(b64)
    return out


def _file_bytes(request: Request, k: int) -> bytes:
    """The bytes of the request's ``k``-th image."""
    ref = request.images[k]
    try:
        return ref.path.read_bytes()
    except OSError as exc:
        raise ModelError(
            f"cannot read image {ref.path}: {exc.strerror or exc}", retryable=False
        ) from exc


_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF8", "image/gif"),
    (b"RIFF", "image/webp"),
)


def media_types(request: Request) -> list[str]:
    """Each image's media type, in order: the variant's own, else sniffed from the runner's
    base64 (PNG by default)."""
    out: list[str] = []
    for k in range(request.image_count):
        if k < len(request.images):
            out.append(request.images[k].media_type)
            continue
        start = (request.images_b64[k] or "")[:12]
        try:
            head = base64.b64decode(start + "=" * (-len(start) % 4))
        except ValueError:
            head = b""
        out.append(next((kind for magic, kind in _MAGIC if head.startswith(magic)), "image/png"))
    return out


def variant_labels(request: Request) -> list[str]:
    """``variant:<id>`` for each image, in order (what a stored request shows for its bytes)."""
    return [
        f"variant:{request.images[k].variant_id if k < len(request.images) else 'runner-encoded'}"
        for k in range(request.image_count)
    ]


def http_module() -> Any:
    """The HTTP library under the SDKs (``httpx2`` in current releases, ``httpx`` before)."""
    try:
        return importlib.import_module("httpx2")
    except ImportError:
        return importlib.import_module("httpx")


def limited_transport(config: ModelConfig) -> Any:
    """The SDKs' async HTTP transport, its reply bodies read no further than the model's
    ``max_reply_bytes`` (``models/replies.py``)."""
    return transport(http_module(), config.max_reply_bytes)
