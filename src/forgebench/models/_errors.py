"""HTTP status and transport failures -> :class:`ModelError`, shared by the SDK backends.

The runner's retry policy is the only one (the SDKs' own retries are switched off), so every
backend must say the same thing about the same failure:

- retryable: 408, 409, 425, 429 and every 5xx (Anthropic's 529 "overloaded" included), timeouts,
  dropped or refused connections, and bodies that are not a valid response;
- not retryable: every other 4xx (400 an unsupported parameter or an image too large, 401/403 a
  bad key, 404 an unknown model, 413 a request too large), with a one-line reason.

``Retry-After`` (seconds or an HTTP date) and Anthropic's ``retry-after-ms`` are honoured.
"""

from __future__ import annotations

import email.utils
import re
import time
from collections.abc import Mapping
from typing import Any

from forgebench.models.base import TASK_ONLY_STATUS, ModelError

RETRYABLE_STATUSES: frozenset[int] = frozenset({408, 409, 425, 429})
"""4xx statuses worth another attempt (every 5xx is retryable too)."""

_MAX_REASON = 300


def is_retryable_status(status: int) -> bool:
    """Whether a failed HTTP status is worth another attempt."""
    return status in RETRYABLE_STATUSES or status >= 500


def one_line(text: object, limit: int = _MAX_REASON) -> str:
    """``text`` on one line (whitespace collapsed), cut to ``limit`` characters."""
    s = re.sub(r"\s+", " ", str(text)).strip()
    return s if len(s) <= limit else s[: limit - 3] + "..."


def parse_retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``Retry-After`` (delta seconds or HTTP date)."""
    if not headers:
        return None
    lower = {str(k).lower(): str(v) for k, v in headers.items()}
    ms = lower.get("retry-after-ms")
    if ms is not None:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    value = lower.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def status_error(
    status: int, reason: object, headers: Mapping[str, str] | None = None
) -> ModelError:
    """The :class:`ModelError` for an HTTP failure ``status`` with the server's ``reason``."""
    retryable = is_retryable_status(status)
    detail = one_line(reason) if reason not in (None, "") else "no reason given"
    return ModelError(
        f"HTTP {status}: {detail}",
        retryable=retryable,
        retry_after=parse_retry_after(headers) if retryable else None,
        status=status,
        task_only=status in TASK_ONLY_STATUS,
    )


def transport_error(kind: str, exc: BaseException) -> ModelError:
    """A retryable :class:`ModelError` for a timeout or a dropped/refused connection."""
    cause = one_line(exc) or type(exc).__name__
    return ModelError(f"{kind}: {cause}", retryable=True)


def invalid_body_error(what: str) -> ModelError:
    """A retryable :class:`ModelError` for a body that is not a valid response."""
    return ModelError(f"invalid response: {one_line(what)}", retryable=True)


def error_message(body: Any) -> str | None:
    """The human-readable message inside a JSON error body (``{"error": {"message": ...}}``)."""
    if isinstance(body, Mapping):
        err = body.get("error", body)
        if isinstance(err, Mapping):
            msg = err.get("message")
            kind = err.get("type") or err.get("status")
            if msg and kind:
                return f"{kind}: {msg}"
            if msg:
                return str(msg)
        elif isinstance(err, str):
            return err
    elif isinstance(body, str) and body.strip():
        return body
    return None
