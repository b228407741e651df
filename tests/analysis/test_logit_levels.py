"""Constant-level dropping and treatment coding give the same rows, notes and columns whether the
levels are plain strings (the NumPy path) or values pandas groups itself (numbers)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from forgebench.analysis.logit import drop_constant_levels, dummies


def _frame(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 60))
    return pd.DataFrame(
        {
            "y": rng.integers(0, 2, n) * (rng.random(n) < 0.8),
            "a": rng.integers(1, 5, n),
            "b": rng.integers(1, 4, n),
        }
    )


def test_string_and_number_levels_drop_the_same_rows_with_the_same_notes() -> None:
    dropped_some = 0
    for seed in range(200):
        numbers = _frame(seed)
        texts = numbers.astype({"a": str, "b": object}).assign(b=numbers["b"].map(str))
        got_n, notes_n = drop_constant_levels(numbers, "y", ["a", "b", "absent"])
        got_t, notes_t = drop_constant_levels(texts, "y", ["a", "b", "absent"])
        assert list(got_n.index) == list(got_t.index)
        assert notes_n == notes_t
        dropped_some += bool(notes_t)
    assert dropped_some > 20  # the draws do exercise dropping


def test_the_reference_level_is_the_most_common_ties_broken_as_pandas_orders_them() -> None:
    data = pd.DataFrame({"d": ["b", "a", "b", "a", "c"], "e": ["x", "y", "y", "z", "z"]})
    assert list(dummies(data, "d").columns) == ["d[a]", "d[c]"]  # b and a tie: b comes first
    assert list(dummies(data, "e").columns) == ["e[x]", "e[z]"]  # y and z tie: y comes first
    assert dummies(data, "d", "c")["d[b]"].tolist() == [1.0, 0.0, 1.0, 0.0, 0.0]
    for frame in (data, data.assign(d=pd.Categorical(data["d"]))):
        values = frame["d"].astype(str)
        reference = str(values.value_counts().idxmax())
        want = sorted(v for v in values.unique() if v != reference)
        assert list(dummies(frame, "d").columns) == [f"d[{v}]" for v in want]
