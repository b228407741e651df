"""Verdict parsing on real-looking answers, hard ones included."""

from __future__ import annotations

import pytest

from forgebench.suites.mandela.verdict import NameTargets, parse_answer, strip_think


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("FAKE. The photographer at the left edge is George Orwell.", "FAKE"),
        ("REAL\n\nThis is the well-known photograph.", "REAL"),
        ("**FAKE**\n\nThe lighting on the left is inconsistent.", "FAKE"),
        ('  \n "Real" - nothing looks out of place.', "REAL"),
        ("Answer: FAKE", "FAKE"),
        ("**Answer:** REAL. It matches the record.", "REAL"),
        ("Verdict - fake, because", "FAKE"),
        ("Final answer: **REAL**", "REAL"),
        ("# FAKE\nThe headline is wrong.", "FAKE"),
        ("> **FAKE** — the flag is British.", "FAKE"),
        ("Fake.", "FAKE"),
        ("fake!", "FAKE"),
        ("FAKE—the man on the left", "FAKE"),
        ("`FAKE`", "FAKE"),
        ("FAKE and here is why: the tower.", "FAKE"),
        (
            "<think>The man looks like Orwell... so REAL? No.</think>\n\nFAKE. Orwell died in 1950.",
            "FAKE",
        ),
        ("The model reasons here without an opening tag</think>REAL.", "REAL"),
        ("<think>FAKE. Short reasoning cut", "FAKE"),
    ],
)
def test_real_fake_first_word(text: str, verdict: str) -> None:
    assert parse_answer("L0", text).verdict == verdict


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (
            "The image is fake: the man on the right is not Stalin.",
            "no_verdict_word",
        ),  # first-word rule
        ("REAL/FAKE", "ambiguous"),
        ("REAL or FAKE: FAKE", "ambiguous"),
        ("Fakeness aside, it is a nice picture.", "no_verdict_word"),
        ("", "empty"),
        ("   ", "empty"),
        ("<think>Let me look at the photographers on the left. The man there", "think_unclosed"),
        ("I'm sorry, but I can't help with identifying manipulated images.", "refusal"),
        ("1. FAKE", "no_verdict_word"),
    ],
)
def test_real_fake_misses(text: str, why: str) -> None:
    v = parse_answer("L1", text)
    assert v.verdict == "MISS" and v.detail["why"] == why


def test_unclosed_think_keeps_an_answer_before_it() -> None:
    assert strip_think("FAKE. Because.\n<think>more") == ("FAKE. Because.", True)
    assert parse_answer("L-adv", "REAL.\n<think>hmm").verdict == "REAL"


@pytest.mark.parametrize(
    ("probe", "text", "verdict"),
    [
        ("TEXT", "NO. George Orwell died in 1950, decades before this match.", "NO"),
        ("TEXT", "Yes - he was alive then.", "YES"),
        ("TEXT", "It is unlikely that he attended.", "MISS"),
        ("FACE", "Yes, this is Buzz Aldrin.", "YES"),
        ("FACE", "No, that is not him.", "NO"),
        ("FACE", "This is not Buzz Aldrin; the face is different.", "NO"),
        ("FACE", "This appears to be Buzz Aldrin in his spacesuit.", "YES"),
        ("FACE", "I can't identify people based on their facial features.", "MISS"),
        ("EVENT", "KNOWN\nOn 29 June 1986 Argentina beat West Germany 3-2.", "KNOWN"),
        ("EVENT", "**UNKNOWN**", "UNKNOWN"),
        ("EVENT", "I believe this was a football match.\nKNOWN", "MISS"),
    ],
)
def test_yes_no_and_event(probe: str, text: str, verdict: str) -> None:
    targets = NameTargets(erased=("Buzz Aldrin", ("Aldrin",)))
    assert parse_answer(probe, text, targets).verdict == verdict


@pytest.mark.parametrize(
    "text",
    ["NOT RECOGNISED", "Not recognized.", "**NOT RECOGNIZED**", "I do not recognise this photograph.",
     "I'm not sure what this is. NOT RECOGNISED"],
)  # fmt: skip
def test_recog_not_recognised(text: str) -> None:
    assert parse_answer("RECOG", text).verdict == "NOT_RECOGNISED"


def test_recog_event_and_year() -> None:
    v = parse_answer(
        "RECOG",
        "Yes, this is Diego Maradona lifting the World Cup trophy after the 1986 final in Mexico City.",
    )
    assert v.verdict == "RECOGNISED" and v.detail["year"] == 1986
    assert v.detail["event"].startswith("this is Diego Maradona")
    assert parse_answer("RECOG", "Yes. It shows the Yalta Conference.").detail["year"] is None
    assert parse_answer("RECOG", "Raising the Flag on Iwo Jima, 2999?").detail["year"] is None
    assert parse_answer("RECOG", "").verdict == "MISS"


STALIN = {
    "erased": {"name": "Joseph Stalin", "aliases": ["Stalin"]},
    "principal_figures": ["Winston Churchill", "Franklin D. Roosevelt"],
    "family": "K1",
}


def test_l2_names_and_cannot() -> None:
    t = NameTargets.from_item(STALIN)
    v = parse_answer(
        "L2", "From left: Winston Churchill, President Roosevelt and Stalin, seated.", t
    )
    assert v.verdict == "NAMES"
    assert v.detail["names_erased"] and v.detail["names_principal"] and not v.detail["cannot"]
    assert set(v.detail["names"]) == {"Joseph Stalin", "Winston Churchill", "Franklin D. Roosevelt"}
    both = parse_answer(
        "L2", "Churchill sits on the left. I cannot identify the man on the right.", t
    )
    assert both.verdict == "NAMES" and both.detail["cannot"] and not both.detail["names_erased"]
    cannot = parse_answer("L2", "I'm unable to identify any of these people by name.", t)
    assert cannot.verdict == "CANNOT" and cannot.detail["cannot"]
    assert parse_answer("L2", "I don't know who these men are.", t).verdict == "CANNOT"
    # a comparison is not an identification; nobody tracked is named
    other = parse_answer("L2", "Three men in coats; the one on the right resembles Stalin.", t)
    assert other.verdict == "MISS" and not other.detail["names_erased"]


def test_names_are_read_on_every_probe() -> None:
    t = NameTargets.from_item(STALIN)
    v = parse_answer("L0", "REAL. Churchill, Roosevelt and Stalin at Yalta, 1945.", t)
    assert v.verdict == "REAL" and v.detail["names_erased"]


def test_unknown_probe_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown probe"):
        parse_answer("L9", "FAKE")
