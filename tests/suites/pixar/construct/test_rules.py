"""PIXAR's step rule: manipulation type, classes and the annotated object, for every step."""

from __future__ import annotations

from forgebench.construct.facts import Knowledge
from support.seed_folder import check_spec, pixar_fields


def test_pixar_manipulation_types_are_checked_against_the_annotations(know: Knowledge) -> None:
    car = [50, 50, 200, 150]
    assert check_spec(
        know, **pixar_fields("object removal", "remove", orig="car"), region=car
    ).verification.accepted
    assert check_spec(
        know, **pixar_fields("object removal", "remove", orig="cat")
    ).verification.rule == ("pixar_object_not_annotated")
    assert (
        check_spec(
            know,
            **pixar_fields("object removal", "remove", orig="car"),
            region=[300, 300, 400, 400],
        ).verification.rule
        == "pixar_object_not_annotated"
    )
    assert check_spec(
        know, **pixar_fields("object removal", "insert", orig="car")
    ).verification.rule == ("pixar_operation_mismatch")
    assert (
        check_spec(
            know,
            **pixar_fields("inter-class replacement", "replace", orig="car", repl="automobile"),
        ).verification.rule
        == "pixar_unknown_class"
    )
    assert (
        check_spec(
            know, **pixar_fields("inter-class replacement", "replace", orig="dog", repl="dogs")
        ).verification.rule
        == "pixar_same_class"
    )
    assert check_spec(
        know, **pixar_fields("inter-class replacement", "replace", orig="dog", repl="cat")
    ).verification.accepted
    assert check_spec(
        know, **pixar_fields("object addition", "insert", cat="bicycle")
    ).verification.accepted
    assert check_spec(
        know, **pixar_fields("color change", "recolour", cat="car")
    ).verification.accepted
    assert (
        check_spec(know, suite="pixar", seed_id="street").verification.rule
        == "pixar_no_manipulation"
    )


def test_pixar_multi_edit_fails_on_its_bad_step(know: Knowledge) -> None:
    good = pixar_fields("color change", "recolour", cat="car")
    step = {"operation": "remove", "pixar": {"primitive": "object removal", "orig": "giraffe"}}
    v = check_spec(know, **good, steps=[step])
    assert (
        v.verification.rule == "pixar_object_not_annotated" and "giraffe" in v.verification.reason
    )
