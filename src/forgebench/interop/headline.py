"""A suite's headline metrics (the front page, model cards, Inspect results) as metrics.csv
coordinates."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Headline:
    """One headline metric: a metrics.csv row's probe, condition, metric and subset."""

    probe: str
    condition: str
    metric: str
    subset: str = "all"

    @property
    def label(self) -> str:
        """The metric's label on the report's front page, a comparison and a leaderboard
        (``metric``, or ``metric subset`` for a subset other than ``all``)."""
        return self.metric if self.subset == "all" else f"{self.metric} {self.subset}"

    def matches(self, row: Mapping[str, str]) -> bool:
        """Whether a metrics.csv row (text cells) is this metric."""
        return (row["probe"], row["condition"], row["metric"], row["subset"]) == (
            self.probe,
            self.condition,
            self.metric,
            self.subset,
        )
