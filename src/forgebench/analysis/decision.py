"""The preregistered decision rule for the absent-celebrity result (seed 000, Appendix M).

A model shows a *collapse* of verification when its erase detection is below 0.6 of its own
same-seed swap detection and fewer than 15% of the erase items reach E4; *no collapse* when the
ratio is at least 0.8 and the E4 share is at least 30%; every other case is *intermediate*.
Models detecting at most one swap in ten are not classified (``n/a``, Table 21). Seed 000
contradicts itself on the boundary: Table 21's caption says "fewer than one swap in ten", its
text "more than one swap in ten" (to apply the rule) and its outcome label "n/a (swap <= 10)";
we follow the text and the label, here and for ``erase_swap_ratio`` in metrics.csv.
"""

from __future__ import annotations

import math
from typing import Literal

Outcome = Literal["collapse", "intermediate", "no collapse", "n/a"]

COLLAPSE_RATIO = 0.6
"""Erase/swap detection ratio below which verification has collapsed."""
COLLAPSE_E4 = 15.0
"""E4 share (%) of the erase items below which verification has collapsed."""
NO_COLLAPSE_RATIO = 0.8
"""Ratio at or above which a model may be classified "no collapse"."""
NO_COLLAPSE_E4 = 30.0
"""E4 share (%) at or above which a model may be classified "no collapse"."""
MIN_SWAP = 10.0
"""Swap detection (%) at or below which the rule does not apply."""


def erase_swap_ratio(erase: float, swap: float) -> float | None:
    """Erase detection over swap detection; ``None`` where the rule does not apply (swap <= 10)."""
    if not math.isfinite(swap) or swap <= MIN_SWAP or not math.isfinite(erase):
        return None
    return erase / swap


def classify(erase: float, swap: float, e4: float) -> Outcome:
    """Appendix M's outcome for erase and swap detection and the E4 share, all in percent.

    The ratio is computed from the arguments as given; pass unrounded rates (the paper's ratios
    come from counts, e.g. 70/132 over 56/78 = 0.739 where the rounded rates give 0.738).
    Missing (NaN) inputs give ``n/a``.
    """
    if not all(math.isfinite(v) for v in (erase, swap, e4)):
        return "n/a"
    ratio = erase_swap_ratio(erase, swap)
    if ratio is None:
        return "n/a"
    if ratio < COLLAPSE_RATIO and e4 < COLLAPSE_E4:
        return "collapse"
    if ratio >= NO_COLLAPSE_RATIO and e4 >= NO_COLLAPSE_E4:
        return "no collapse"
    return "intermediate"
