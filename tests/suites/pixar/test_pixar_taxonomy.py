"""Taxonomy: primitives x 81 classes, the Table 14 templates verbatim, multi-edit sentences."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from forgebench.suites.pixar.taxonomy import (
    CLASS_INDEX,
    CLASSES,
    COCO_CLASSES,
    TABLE14_PRIMITIVES,
    Edit,
    Primitive,
    canonical_class,
    describe,
    describe_all,
    taxonomy_cells,
)

P = Primitive


def test_81_classes_with_background_last() -> None:
    assert len(COCO_CLASSES) == 80 and len(set(COCO_CLASSES)) == 80
    assert CLASSES[-1] == "background" and CLASS_INDEX["background"] == 80
    assert CLASS_INDEX["person"] == 0 and CLASS_INDEX["toothbrush"] == 79
    assert len(taxonomy_cells()) == 10 * 81


@pytest.mark.parametrize(
    ("edit", "sentence"),
    [  # the "Example" column of seed 003 Table 14
        (Edit(primitive=P.BACKGROUND_CHANGE),
         "The background was changed while keeping the foreground unchanged."),
        (Edit(primitive=P.REMOVAL, orig="car"), "The car was removed from the image."),
        (Edit(primitive=P.ADDITION, cat="bicycle"), "A bicycle was added to the image."),
        (Edit(primitive=P.INTRA_CLASS_REPLACEMENT, orig="dog"),
         "The dog was replaced with a different-looking dog."),
        (Edit(primitive=P.INTER_CLASS_REPLACEMENT, orig="chair", repl="sofa"),
         "The chair was replaced with a sofa."),
        (Edit(primitive=P.COLOR_CHANGE, cat="shirt"), "The color of the shirt was changed."),
    ],
)  # fmt: skip
def test_table14_examples_verbatim(edit: Edit, sentence: str) -> None:
    assert describe(edit) == sentence
    assert edit.primitive in TABLE14_PRIMITIVES


def test_multi_edit_concatenates_in_applied_order() -> None:
    edits = [
        Edit(primitive=P.REMOVAL, orig="car"),
        Edit(primitive=P.COLOR_CHANGE, cat="bus"),
    ]
    assert describe_all(edits) == (
        "The car was removed from the image. The color of the bus was changed."
    )
    assert describe_all(edits[::-1]).startswith("The color of the bus")


def test_missing_metadata_is_refused() -> None:
    with pytest.raises(ValidationError, match="repl"):
        Edit(primitive=P.INTER_CLASS_REPLACEMENT, orig="chair")
    with pytest.raises(ValidationError):
        Edit(primitive="teleport", cat="dog")  # type: ignore[arg-type]


def test_semantic_class_of_an_edit() -> None:
    assert Edit(primitive=P.INTER_CLASS_REPLACEMENT, orig="chair", repl="sofa").semantic_class == (
        "couch"
    )
    assert Edit(primitive=P.REMOVAL, orig="Cars").semantic_class == "car"
    assert Edit(primitive=P.BACKGROUND_CHANGE).semantic_class == "background"


@pytest.mark.parametrize(
    ("name", "cls"),
    [("Dining Table", "dining table"), ("dogs", "dog"), ("TV monitor", "tv"), ("a horse", "horse"),
     ("hot_dog", "hot dog"), ("spaceship", None), ("", None)],
)  # fmt: skip
def test_canonical_class(name: str, cls: str | None) -> None:
    assert canonical_class(name) == cls
