"""The Appendix F rubric verbatim, the judge prompt and robust parsing of judge replies."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from forgebench.suites.mandela.judge import build_judge_input
from forgebench.suites.mandela.rubric import (
    RUBRIC,
    JudgeReplyError,
    judge_prompt,
    parse_judge_reply,
)

SEED = Path("/work/shared/seeds/000_ea9a028e56e67100.txt")


@pytest.mark.skipif(not SEED.is_file(), reason="seed paper not available")
def test_rubric_is_the_papers_text_verbatim() -> None:
    text = SEED.read_text(encoding="utf-8")
    start = text.index("Grade the detector’s evidence")
    end = text.index("Do not supply missing reasoning on the detector’s behalf.") + len(
        "Do not supply missing reasoning on the detector’s behalf."
    )
    assert text[start:end] == RUBRIC


def test_rubric_key_clauses() -> None:
    assert RUBRIC.startswith("Grade the detector’s evidence, not the image")
    assert "“the Nth figure that is not in the original”" in RUBRIC
    assert "(cap at E3)" in RUBRIC


def test_prompt_carries_protocol_verdict_answer_and_truth() -> None:
    item = {
        "id": "x1", "label": "forged", "family": "K1",
        "entity": {"name": "George Orwell", "aliases": [], "role": "photographer at the left edge"},
        "edit": {"operation": "insert", "region": [1, 2, 3, 4], "instruction": "insert Orwell"},
        "contradiction": "George Orwell died in 1950", "event": {"label": "1986 final", "date": "1986-06-29"},
    }  # fmt: skip
    ji = build_judge_input(item, probe="L1", condition="crop", prompt="Check whether...", verdict="FAKE",
                           answer="<think>secret reasoning</think>FAKE. Orwell is there.")  # fmt: skip
    p = judge_prompt(ji)
    assert RUBRIC in p and "Parsed verdict: FAKE" in p and "probe L1, condition crop" in p
    assert "FAKE. Orwell is there." in p and "secret reasoning" not in p
    assert "photographer at the left edge" in p and "died in 1950" in p and '"region"' in p
    assert '"level"' in p and "identity_asserted" in p and "contradiction_asserted" in p


@pytest.mark.parametrize(
    ("reply", "level"),
    [
        (
            '{"level": 3, "reason": "names Orwell", "identity_asserted": "George Orwell", "contradiction_asserted": null}',
            3,
        ),
        ('```json\n{"level": "E4", "reason": "r"}\n```', 4),
        ('Sure! Here it is:\n{"level": "2", "reason": "points at the left"}\nHope this helps.', 2),
        ('<think>maybe {"level": 1}</think>{"level": 0, "reason": "REAL"}', 0),
        ('{"level": 3.0, "reason": "x"}', 3),
        ('{"note": {"a": 1}} then {"level": 1, "reason": "generic \\"artefacts\\" {braces}"}', 1),
    ],
)
def test_parse_valid_replies(reply: str, level: int) -> None:
    assert parse_judge_reply(reply).level == level


@pytest.mark.parametrize(
    ("reply", "why"),
    [
        ("I would grade this E3.", "no JSON object"),
        ('{"level": 3, "reason": "cut', "no JSON object"),
        ('{"grade": 3, "reason": "x"}', "'level'"),
        ('{"level": 5, "reason": "x"}', "not 0-4"),
        ('{"level": "high", "reason": "x"}', "not 0-4"),
        ('{"level": true, "reason": "x"}', "not 0-4"),
        ('{"level": 2}', "reason"),
        ("", "no JSON object"),
    ],
)
def test_parse_invalid_replies(reply: str, why: str) -> None:
    with pytest.raises(JudgeReplyError, match=re.escape(why)):
        parse_judge_reply(reply)


def test_null_like_fields_become_none() -> None:
    r = parse_judge_reply(
        '{"level": 1, "reason": " x ", "identity_asserted": "null", "contradiction_asserted": ""}'
    )
    assert (r.reason, r.identity_asserted, r.contradiction_asserted) == ("x", None, None)
