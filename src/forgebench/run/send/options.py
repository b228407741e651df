"""How one run sends its pending tasks, as one value: :class:`SendOptions`.

The options travel together from the caller (``forgebench run``, :func:`forgebench.api.run`, the
demo) through :func:`forgebench.run.generate.run_generation` to
:func:`forgebench.run.send.sending.send`, as Inspect AI's ``TaskRunOptions``
(``inspect_ai/_eval/task/run.py``) carries one task run's options. What a run asks (the
selection, ``retry_errors``, ``max_cost``) stays in
:class:`~forgebench.run.generate.GenerationSettings` and is recorded in ``config.json``; these
options change how the requests go out, never which tasks are stored or what is recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forgebench.run.send.progress import RunProgress
    from forgebench.run.send.retry import RetryPolicy


@dataclass(frozen=True)
class SendOptions:
    """How a run's requests are sent (every field has a default: ``SendOptions()`` sends
    quietly, with the model's retry policy, without touching the process's signals)."""

    progress: RunProgress | None = None
    """The bars to draw (one per model); None: none."""
    retry: RetryPolicy | None = None
    """The backoff between attempts of one request; None: the default policy."""
    handle_signals: bool = False
    """Whether the first SIGINT/SIGTERM stops scheduling (requests in flight get
    :attr:`grace_s`) and the second abandons them; everything answered is kept either way."""
    on_signal: Callable[[], None] | None = None
    """Called once at the first signal (the CLI prints what happens next)."""
    grace_s: float = 5.0
    """Seconds the requests in flight get after a stop before they are abandoned."""
