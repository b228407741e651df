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

    def matches(self, row: Mapping[str, str]) -> bool:
        """Whether a metrics.csv row (text cells) is this metric."""
        return (row["probe"], row["condition"], row["metric"], row["subset"]) == (
            self.probe,
            self.condition,
            self.metric,
            self.subset,
        )
