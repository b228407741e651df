"""A replicated model's counters of one invocation, added to the run's per-replica totals
(:mod:`forgebench.run.store.replicas`, table ``replica_stats``) when the model has been asked.

The counters are the model's own (:meth:`forgebench.models.replicas.ReplicatedModel.stats`:
requests sent, answered, failed, not answered in time, times rested, summed answer latency);
a model with one server has none.
"""

from __future__ import annotations

from forgebench.models.base import Model
from forgebench.models.replicas import ReplicatedModel
from forgebench.run.store import ReplicaRow, Store


def record_replicas(store: Store, model: Model) -> int:
    """Add a replicated model's counters of this invocation to the run; returns rows written
    (0 for a model with one server)."""
    if not isinstance(model, ReplicatedModel):
        return 0
    return store.add_replica_counts(
        ReplicaRow(model.name, s.url, s.sent, s.answered, s.errors, s.rests, s.latency_sum_s,
                   s.timeouts)
        for s in model.stats()
    )  # fmt: skip
