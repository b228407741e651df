"""The LOC probe: prompt, tolerant parser of model replies, rasterizer."""

from __future__ import annotations

import numpy as np
import pytest

from forgebench.suites.pixar.probe import (
    PROMPT_VERSION,
    parse_reply,
    rasterize,
    render_prompt,
)


def test_prompt_names_size_classes_and_json_shape() -> None:
    p = render_prompt(640, 480)
    assert "640 x 480 pixels" in p and '"regions"' in p and "toothbrush, background" in p
    assert PROMPT_VERSION.startswith("loc-")


def test_fenced_reply_with_prose_is_read() -> None:
    r = parse_reply(
        "Here is my analysis.\n```json\n"
        '{"tampered": true, "regions": [{"box": [10, 20, 30, 40]}, '
        '{"polygon": [[50, 50], [60, 50], [60, 60], [50, 60]]}], '
        '"classes": ["Sofa", "dog", "unicorn"], "description": "The couch was replaced."}\n```'
    )
    assert r.parsed and r.tampered is True
    assert r.boxes == [(10, 20, 30, 40)]
    assert len(r.polygons) == 1
    assert r.classes == ["couch", "dog"]
    assert r.description == "The couch was replaced."
    assert r.problems == ["unknown class 'unicorn'"]


def test_alternative_shapes_are_read() -> None:
    r = parse_reply(
        'I think {"boxes": [{"x": 5, "y": 6, "w": 10, "h": 4}, [30, 30, 20, 20]], '
        '"polygons": [[0, 0, 8, 0, 0, 8]], "class": "person", "description": "x {y}"} done'
    )
    assert r.boxes == [(5, 6, 15, 10), (20, 20, 30, 30)]  # corners are re-ordered
    assert r.polygons == [[(0, 0), (8, 0), (0, 8)]]
    assert r.classes == ["person"] and r.description == "x {y}"


@pytest.mark.parametrize(
    "reply", ["", "No tampering visible.", "{'tampered': True}", '{"regions": [1, 2', "[1, 2]"]
)
def test_unreadable_replies_are_empty_predictions(reply: str) -> None:
    r = parse_reply(reply)
    assert not r.parsed and r.problems == ["no JSON object in the reply"]
    assert not rasterize(r, 10, 10).any()


def test_bad_regions_are_reported_not_fatal() -> None:
    r = parse_reply(
        '{"tampered": "yes", "regions": [{"box": [1, 2, 3]}, {"polygon": [[1, 1]]}, '
        '{"box": [0, 0, 2, 2]}], "description": 7}'
    )
    assert r.parsed and r.boxes == [(0, 0, 2, 2)] and r.polygons == []
    assert len(r.problems) == 4  # tampered, box, polygon, description


def test_rasterize_boxes_half_open_and_clipped() -> None:
    r = parse_reply(
        '{"tampered": true, "regions": [{"box": [2, 1, 5, 3]}, {"box": [8, 8, 99, 99]}]}'
    )
    m = rasterize(r, 10, 10)
    expected = np.zeros((10, 10), bool)
    expected[1:3, 2:5] = True
    expected[8:10, 8:10] = True
    assert np.array_equal(m, expected)


def test_rasterize_polygon_and_tampered_false() -> None:
    r = parse_reply('{"tampered": true, "polygons": [[[0, 0], [9, 0], [9, 9], [0, 9]]]}')
    assert rasterize(r, 20, 20)[:10, :10].all() and not rasterize(r, 20, 20)[10:, :].any()
    neg = parse_reply('{"tampered": false, "regions": [{"box": [0, 0, 5, 5]}]}')
    assert not rasterize(neg, 10, 10).any()
