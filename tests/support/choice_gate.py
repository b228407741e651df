"""What every constraining backend must do with a server that rejects or ignores the constraint
(:class:`forgebench.models.choice.ChoiceGate`): of eight constrained requests at once only the
first is sent, and all eight end with the same one line, not to be retried."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from forgebench.models.base import ModelError, Request


def one_request_one_line(
    ask_all: Callable[..., tuple[list[Any], list[Any]]],
    reply: Any,
    letters: Sequence[str],
    **kw: Any,
) -> str:
    """Ask eight constrained questions through ``ask_all(reply, requests, concurrency=8, **kw)``
    (a test module's own loopback helper: the outcomes and the requests the server saw); the
    one line they all end with."""
    requests = [Request(prompt=f"q{k}", choice=tuple(letters)) for k in range(8)]
    outs, seen = ask_all(reply, requests, concurrency=8, **kw)
    assert len(seen) == 1  # the other seven waited for the first and were never sent
    assert all(isinstance(o, ModelError) and not o.retryable for o in outs)
    [line] = {str(o) for o in outs}
    assert "\n" not in line, line
    return line
