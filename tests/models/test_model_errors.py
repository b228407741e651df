"""The shared HTTP-failure mapping of the SDK backends (``models/_errors.py``)."""

from __future__ import annotations

import email.utils
import time

import pytest

from forgebench.models import _errors


@pytest.mark.parametrize(
    ("status", "retryable"),
    [
        (408, True),
        (409, True),
        (425, True),
        (429, True),
        (500, True),
        (503, True),
        (529, True),
        (400, False),
        (401, False),
        (403, False),
        (404, False),
        (413, False),
        (422, False),
    ],
)
def test_status_mapping(status: int, retryable: bool) -> None:
    err = _errors.status_error(status, "reason", {"Retry-After": "4"})
    assert (err.retryable, err.status) == (retryable, status)
    # a wait is only passed on for failures worth retrying
    assert err.retry_after == (4.0 if retryable else None)


def test_retry_after_forms() -> None:
    assert _errors.parse_retry_after({"retry-after": "2.5"}) == 2.5
    assert _errors.parse_retry_after({"Retry-After": "3", "retry-after-ms": "1500"}) == 1.5
    later = email.utils.formatdate(time.time() + 30, usegmt=True)
    wait = _errors.parse_retry_after({"Retry-After": later})
    assert wait is not None and 25 <= wait <= 31
    past = email.utils.formatdate(time.time() - 30, usegmt=True)
    assert _errors.parse_retry_after({"Retry-After": past}) == 0.0
    assert _errors.parse_retry_after({"Retry-After": "soon"}) is None
    assert _errors.parse_retry_after(None) is None


def test_reason_is_one_short_line() -> None:
    err = _errors.status_error(400, "line one\n  line two\t" + "x" * 500)
    assert "\n" not in str(err)
    assert str(err).startswith("HTTP 400: line one line two x")
    assert len(str(err)) <= len("HTTP 400: ") + 300
    assert str(_errors.status_error(502, "")) == "HTTP 502: no reason given"
    assert _errors.error_message({"error": {"type": "invalid", "message": "bad"}}) == "invalid: bad"
    assert _errors.error_message("plain text") == "plain text"
    assert _errors.error_message(None) is None
