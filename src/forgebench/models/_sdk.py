"""Small helpers the provider backends share: keys, image bytes, merged parameters, extras."""

from __future__ import annotations

import base64
import importlib
import os
from typing import Any

from forgebench.models.base import ModelError, Request
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
    from forgebench.models.checks import key_problem

    why = key_problem(env, key)
    if why is not None:
        raise ModelError(why, retryable=False, status=401)
    return key


def merged_params(config: ModelConfig, request: Request) -> dict[str, Any]:
    """The model's generation parameters overlaid by the request's own (the request wins)."""
    out = config.generation_params()
    out.update(request.params)
    return out


def image_bytes(request: Request) -> bytes | None:
    """The request image's bytes (decoded from ``image_b64`` when the runner already encoded it)."""
    if request.image_b64 is not None:
        try:
            return base64.b64decode(request.image_b64, validate=True)
        except ValueError as exc:
            raise ModelError(f"request image_b64 is not base64: {exc}", retryable=False) from exc
    if request.image is None:
        return None
    try:
        return request.image.path.read_bytes()
    except OSError as exc:
        raise ModelError(
            f"cannot read image {request.image.path}: {exc.strerror or exc}", retryable=False
        ) from exc


def image_b64(request: Request) -> str | None:
    """The request image as base64 text (the runner's cached encoding when present)."""
    if request.image_b64 is not None:
        return request.image_b64
    data = image_bytes(request)
    return None if data is None else base64.b64encode(data).decode("ascii")


_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF8", "image/gif"),
    (b"RIFF", "image/webp"),
)


def media_type(request: Request) -> str:
    """The image's media type: the variant's own, else sniffed from the bytes (PNG by default)."""
    if request.image is not None:
        return request.image.media_type
    start = (request.image_b64 or "")[:12]
    try:
        head = base64.b64decode(start + "=" * (-len(start) % 4))
    except ValueError:
        head = b""
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return kind
    return "image/png"


def http_module() -> Any:
    """The HTTP library under the SDKs (``httpx2`` in current releases, ``httpx`` before)."""
    try:
        return importlib.import_module("httpx2")
    except ImportError:
        return importlib.import_module("httpx")
