"""Keys made for many models at once (``TaskKeys``) equal ``task_key`` made one by one."""

from __future__ import annotations

from pathlib import Path

from forgebench.models.base import ImageRef
from forgebench.run.tasks import Question, TaskKeys, task_key

A = ImageRef("v" * 32, Path("/a.png"), "image/png")
B = ImageRef("w" * 32, Path("/b.jpg"), "image/jpeg")
QUESTIONS = [
    Question("1", "MCQ", "full", "Is it fake?\nA. yes\nB. no", "mcq/v1", image=A),
    Question("é-2", "L0", "blur_3", 'Quote " and \\ and ünïcode ✓', "v2", images=(A, B)),
    Question("3", "TEXT", "full", "", "t/v1"),
    Question("4", "ATTR", "jpeg_5", "x" * 5000, "a/v1", images=(B,), extra={"k": 1}),
]
BOUND = [
    ("m", {}),
    ("alias=x", {"temperature": 0.0, "max_tokens": 64, "seed": 3}),
    ("é", {"extra_body": {"top_k": 5, "nested": {"b": [1, 2.5, None], "a": "ü"}}}),
    ("r", {"reasoning": "high", "max_tokens": 1}),
]


def test_keys_for_many_models_equal_the_one_by_one_keys() -> None:
    keys = TaskKeys(BOUND)
    for q in QUESTIONS:
        assert keys(q) == [task_key(q, m, p) for m, p in BOUND]


def test_a_changed_field_changes_only_its_own_keys() -> None:
    keys = TaskKeys(BOUND)
    before = keys(QUESTIONS[0])
    changed = Question("1", "MCQ", "full", "Is it fake?\nA. yes\nB. no ", "mcq/v1", image=A)
    assert set(keys(changed)).isdisjoint(before)
    assert len(set(before)) == len(BOUND)
