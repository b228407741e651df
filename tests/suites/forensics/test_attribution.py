"""Attribution questions: the true class among four, seeded, only for BC forgeries."""

from __future__ import annotations

from collections import Counter

import pytest

from forgebench.suites.forensics.attribution import attribution_question, eligible
from forgebench.suites.forensics.contract import ForensicsItem
from forgebench.suites.forensics.taxonomy import FULL_TERMS, MODEL_CLASSES


def item(
    i: int, model: str = "DF", task: str = "BC", type_: str = "ES", modality: str = "RGB"
) -> ForensicsItem:
    return ForensicsItem(
        id=str(i), images=["images/x.png"], question="What is the authenticity of the image?",
        options={"A": "AI-generated", "B": "non AI-generated"}, answer="A",
        semantic="HS", modality=modality, task=task, type=type_, model=model,
    )  # fmt: skip


def test_true_class_among_four_distinct_classes_at_the_stated_letter() -> None:
    assert len(MODEL_CLASSES) == 22
    positions: Counter[str] = Counter()
    for i, model in enumerate(MODEL_CLASSES * 10):
        q = attribution_question(item(i, model), seed=5)
        assert len(q.options) == 4 and len(set(q.options.values())) == 4
        assert q.options[q.answer] == FULL_TERMS[model]
        assert set(q.options.values()) <= {FULL_TERMS[m] for m in MODEL_CLASSES}
        positions[q.answer] += 1
        assert q.question == "What is the forgery model that is applied to this RGB image?"
    assert set(positions) == set("ABCD") and min(positions.values()) > 25  # not always first


def test_seeded_and_described() -> None:
    a = attribution_question(item(1, "ED&GR"), seed=1)
    assert a == attribution_question(item(1, "ED&GR"), seed=1)
    assert a.options != attribution_question(item(1, "ED&GR"), seed=2).options or a.answer != "A"
    d = attribution_question(item(1, "ED&GR", modality="VID"), seed=1, describe=True)
    assert d.probe == "ATTR_DESC" and d.version == "ATTR_DESC/v1" and a.version == "ATTR/v1"
    assert d.options == a.options and d.hint is not None
    for text in d.options.values():
        assert text + ":" in d.hint
    assert "this video?" in d.question


def test_only_binary_classification_forgeries() -> None:
    assert eligible(item(0))
    assert not eligible(item(0, "REAL", type_="REAL"))
    assert not eligible(item(0, task="SLS"))
    with pytest.raises(ValueError, match="binary-classification forgery"):
        attribution_question(item(0, task="TL"))
