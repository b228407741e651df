"""Sending: how a run's pending tasks are asked of the models, apart from the store.

- :mod:`.options`: :class:`SendOptions`, the one value that carries a run's send options;
- :mod:`.sending`: every model's pending tasks of this invocation, each outcome stored as it
  arrives (:func:`~.sending.send`, with the signal handling of ``forgebench run``);
- :mod:`.runner`: the generic scheduler that asks one model many things (generation, judging,
  construction's editors);
- :mod:`.pool`: the bounded worker pool every fan-out goes through (hostile round 3);
- :mod:`.retry` and :mod:`.limits`: backoff between attempts, requests per minute;
- :mod:`.writer`: the store writer thread that commits outcomes off the event loop;
- :mod:`.progress`: one bar per model;
- :mod:`.replicas`: a replicated model's counters, added to the run's totals.
"""

from __future__ import annotations

from forgebench.run.send.options import SendOptions

__all__ = ["SendOptions"]
