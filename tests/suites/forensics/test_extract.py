"""Option extraction on realistic answers (seed 002 §4.1 order)."""

from __future__ import annotations

import pytest

from forgebench.suites.forensics.extract import (
    Extraction,
    combine,
    extract_batch,
    extract_option,
)
from forgebench.suites.forensics.llm_extractor import extractor_prompt, parse_extractor_reply

BINARY = {"A": "AI-generated", "B": "non AI-generated"}
FOUR = {"A": "Candidate 1", "B": "Candidate 2", "C": "Candidate 3", "D": "Candidate 4"}
FRAMES = {"A": "[ 0, 1, 5 ]", "B": "[ 1 ]", "C": "[ 0 ]", "D": "[ 0, 1 ]"}


@pytest.mark.parametrize(
    ("answer", "options", "expected"),
    [
        ("B", BINARY, Extraction("B", "letter")),
        ("B. non AI-generated", BINARY, Extraction("B", "letter")),
        ("**Answer:** (A)", BINARY, Extraction("A", "letter")),
        ("The correct answer is C.", FOUR, Extraction("C", "letter")),
        ("A close look at the edges suggests option D is right.", FOUR, Extraction("D", "letter")),
        (
            "B\n\nB is correct because the lighting is consistent.",
            BINARY,
            Extraction("B", "letter"),
        ),
        ("non AI-generated", BINARY, Extraction("B", "text")),
        ("The image is non AI-generated.", BINARY, Extraction("B", "text")),
        ("This looks AI-generated to me.", BINARY, Extraction("A", "text")),
        ("It is NON AI-GENERATED", BINARY, Extraction("B", "text")),
        ("candidate 3", FOUR, Extraction("C", "text")),
        ("[ 0, 1 ]", FRAMES, Extraction("D", "text")),
        (
            "I'm sorry, but I can't determine whether this image was manipulated.",
            BINARY,
            Extraction("Z", "refusal"),
        ),
        ("Sorry, I can't help with images of people yet.", BINARY, Extraction("Z", "refusal")),
        ("I cannot be certain, but I would pick B.", BINARY, Extraction("B", "letter")),
        ("Either A or B could be right.", BINARY, Extraction("Z", "none")),
        ("It is AI-generated, or perhaps non AI-generated.", BINARY, Extraction("Z", "none")),
        ("", BINARY, Extraction("Z", "none")),
        ("E", FOUR, Extraction("Z", "none")),  # not an option of this item
    ],
)
def test_rules(answer: str, options: dict[str, str], expected: Extraction) -> None:
    got = extract_option(answer, options)
    assert (got.letter, got.step) == (expected.letter, expected.step)


def test_long_explanation_is_not_text_matched() -> None:
    long = (
        "To judge whether an image is AI-generated one looks at textures, lighting and the "
        "consistency of reflections. Here the skin texture is natural, the shadows agree with "
        "the light source, and nothing in the background repeats."
    )
    assert extract_option(long, BINARY).letter == "Z"
    assert extract_option(long + " Final answer: B", BINARY) == Extraction("B", "letter", "cue")


def test_extractor_reply_and_combination() -> None:
    assert parse_extractor_reply("B", BINARY) == "B"
    assert parse_extractor_reply("The answer matches option A.", BINARY) == "A"
    assert parse_extractor_reply("Z", BINARY) == "Z"
    assert parse_extractor_reply("C", BINARY) == "Z"  # not an option here
    assert parse_extractor_reply("A or B", BINARY) == "Z"
    assert parse_extractor_reply("", BINARY) == "Z"
    rules = extract_option("Either A or B.", BINARY)
    assert combine(rules, "B") == Extraction("B", "extractor")
    assert combine(rules, None) == rules and rules.letter == "Z"
    assert combine(rules, "A", embed_letter="B") == Extraction("B", "embed")
    assert combine(rules, "A", embed_letter="Z") == Extraction("A", "extractor")
    decided = extract_option("B", BINARY)
    assert combine(decided, "A") == decided  # the extractor never overrides the rules
    prompt = extractor_prompt("What is the authenticity of the image?", BINARY, "  Either.  ")
    assert "A. AI-generated\nB. non AI-generated" in prompt and "Answer: Either." in prompt


def test_batch_equals_one_by_one() -> None:
    answers = ["B", "non AI-generated", "B", "Either A or B.", "candidate 2", "B", "I'm sorry."]
    sets = [BINARY, BINARY, FOUR, BINARY, FOUR, dict(BINARY), BINARY]
    letters, steps, rules = extract_batch(answers, sets)
    for a, o, lt, st, ru in zip(answers, sets, letters, steps, rules, strict=True):
        got = extract_option(a, o)
        assert (got.letter, got.step, got.rule) == (lt, st, ru)
