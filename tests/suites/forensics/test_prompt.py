"""The release's MCQ prompt, byte for byte."""

from __future__ import annotations

from forgebench.suites.forensics.prompt import PAPER_PREFIX, mcq_prompt


def test_prompt_as_the_release_builds_it() -> None:
    p = mcq_prompt(
        ["images/a.png", "images/b.png"],
        "Please locate the forged frames.",
        {"A": "[ 0 ]", "B": "[ 1 ]"},
        hint="Frames are uniform.",
    )
    assert p.images == ("images/a.png", "images/b.png")
    assert p.text == (
        "Hint: Frames are uniform.\n"
        "Question: Please locate the forged frames.\n"
        "Options:\nA. [ 0 ]\nB. [ 1 ]\n"
        "Please select the correct answer from the options above. \n"
    )
    assert p.version == "MCQ/v1"


def test_no_hint_line_without_hint_and_prefix_changes_version() -> None:
    plain = mcq_prompt(["x.png"], "Q?", {"A": "a", "B": "b"})
    assert plain.text.startswith("Question: Q?\n")
    pre = mcq_prompt(["x.png"], "Q?", {"A": "a", "B": "b"}, prefix=PAPER_PREFIX)
    assert pre.text == PAPER_PREFIX + "\n" + plain.text and pre.version == "MCQ/v1+prefix-v1"
    own = mcq_prompt(["x.png"], "Q?", {"A": "a", "B": "b"}, prefix="Look closely.")
    assert own.version.startswith("MCQ/v1+prefix-") and own.version != pre.version
