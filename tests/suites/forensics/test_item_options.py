"""A Forensics item's options: letters A, B, ... in order, none empty; each mistake named in its
own words (``forensics/contract.py``), whichever check finds it first."""

from __future__ import annotations

import re
from typing import Any

import pytest
from pydantic import ValidationError

from forgebench.suites.forensics.contract import LETTERS, ForensicsItem


def _item(options: dict[str, str], answer: str = "A") -> dict[str, Any]:
    return {
        "id": "1", "images": ["images/a.png"], "question": "Which region was edited?",
        "options": options, "answer": answer, "semantic": "HS", "modality": "RGB",
        "task": "BC", "type": "REAL", "model": "REAL",
    }  # fmt: skip


def test_letters_in_order_pass_up_to_y() -> None:
    for n in (2, 4, 25):
        options = {k: f"option {k}" for k in LETTERS[:n]}
        assert list(ForensicsItem.model_validate(_item(options)).options) == list(LETTERS[:n])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"A": "x", "b": "y"}, "option keys must be letters A..Y, got ['A', 'b']"),
        ({"A": "x", "Z": "y"}, "option keys must be letters A..Y, got ['A', 'Z']"),
        ({"A": "x", "BB": "y"}, "option keys must be letters A..Y, got ['A', 'BB']"),
        # a letter and a newline passes the letter check and fails the order one, as before
        ({"A": "x", "B\n": "y"}, "option letters must run A, B, ... without gaps"),
        ({"A": "x", "C": "y"}, "option letters must run A, B, ... without gaps, got ['A', 'C']"),
        ({"B": "x", "A": "y"}, "option letters must run A, B, ... without gaps, got ['B', 'A']"),
        ({"A": "x", "B": "  "}, "an option text is empty (leave unused options out)"),
        ({**{k: "x" for k in LETTERS}, "Z": "y"}, "option keys must be letters A..Y"),
    ],
)
def test_each_mistake_is_named(options: dict[str, str], message: str) -> None:
    with pytest.raises(ValidationError, match=re.escape(message)):
        ForensicsItem.model_validate(_item(options))
