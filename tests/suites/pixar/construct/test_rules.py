"""PIXAR's step rule: manipulation type, classes and the annotated object, for every step."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from forgebench.construct.facts import Knowledge
from forgebench.construct.scenes import load_facts, load_scenes
from forgebench.construct.specs import EditSpec
from forgebench.construct.verify import Verified, verify_spec


@pytest.fixture
def know(seed_dir: Path) -> Knowledge:
    return Knowledge.of(load_scenes(seed_dir), load_facts(seed_dir))


def _check(know: Knowledge, root: Path | None = None, **kw: Any) -> Verified:
    base: dict[str, Any] = {"id": "s1", "seed_id": "final86", "operation": "insert"}
    return verify_spec(EditSpec.model_validate(base | kw), know, root)


def _k1(name: str, **kw: Any) -> dict[str, Any]:
    return {
        "family": "K1",
        "k1_type": "date_impossible",
        "region": [10, 20, 90, 160],
        "entity": {"name": name},
    } | kw


def _px(primitive: str, op: str, **kw: Any) -> dict[str, Any]:
    return {
        "suite": "pixar",
        "seed_id": "street",
        "operation": op,
        "pixar": {"primitive": primitive, **kw},
    }


def test_pixar_manipulation_types_are_checked_against_the_annotations(know: Knowledge) -> None:
    car = [50, 50, 200, 150]
    assert _check(
        know, **_px("object removal", "remove", orig="car"), region=car
    ).verification.accepted
    assert _check(know, **_px("object removal", "remove", orig="cat")).verification.rule == (
        "pixar_object_not_annotated"
    )
    assert (
        _check(
            know, **_px("object removal", "remove", orig="car"), region=[300, 300, 400, 400]
        ).verification.rule
        == "pixar_object_not_annotated"
    )
    assert _check(know, **_px("object removal", "insert", orig="car")).verification.rule == (
        "pixar_operation_mismatch"
    )
    assert (
        _check(
            know, **_px("inter-class replacement", "replace", orig="car", repl="automobile")
        ).verification.rule
        == "pixar_unknown_class"
    )
    assert (
        _check(
            know, **_px("inter-class replacement", "replace", orig="dog", repl="dogs")
        ).verification.rule
        == "pixar_same_class"
    )
    assert _check(
        know, **_px("inter-class replacement", "replace", orig="dog", repl="cat")
    ).verification.accepted
    assert _check(know, **_px("object addition", "insert", cat="bicycle")).verification.accepted
    assert _check(know, **_px("color change", "recolour", cat="car")).verification.accepted
    assert (
        _check(know, suite="pixar", seed_id="street").verification.rule == "pixar_no_manipulation"
    )


def test_pixar_multi_edit_fails_on_its_bad_step(know: Knowledge) -> None:
    good = _px("color change", "recolour", cat="car")
    step = {"operation": "remove", "pixar": {"primitive": "object removal", "orig": "giraffe"}}
    v = _check(know, **good, steps=[step])
    assert (
        v.verification.rule == "pixar_object_not_annotated" and "giraffe" in v.verification.reason
    )
