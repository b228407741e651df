"""The v2 rules on the kinds of answer real VLMs write, and on the labelled corpus."""

from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from forgebench.suites.forensics.extract import extract_option

BINARY = {"A": "AI-generated", "B": "non AI-generated"}
MANIP = {"A": "non AI-manipulated", "B": "AI-manipulated"}
FOUR = {"A": "Candidate 1", "B": "Candidate 2", "C": "Candidate 3", "D": "Candidate 4"}
FRAMES = {"A": "[ 0, 1, 5 ]", "B": "[ 1 ]", "C": "[ 0 ]", "D": "[ 0, 1 ]"}
CORPUS = Path(__file__).parent / "data" / "extraction_corpus.jsonl"
TEST_HALF_RIGHT, TEST_HALF_WRONG = (
    697,
    5,
)  # of 733, benchmarks/extraction_accuracy.py (end of h39-r7)
# the h39-fresh batch (styles the corpus had little of), per half: right, wrong letters (of 210, 223)
FRESH_TUNING_RIGHT, FRESH_TUNING_WRONG = 204, 0
FRESH_TEST_RIGHT, FRESH_TEST_WRONG = (
    207,
    2,
)  # 208 until round 11's merge of lang7 with round 11f (one answer now Z; measured, not looked at)
# the h39-fresh3 batch (traps that produce wrong letters), per half (of 154, 161), measured at the
# end of the h39-r3 round; its test part was never tuned on (59.0%, 22 wrong letters before it)
FRESH3_TUNING_RIGHT, FRESH3_TUNING_WRONG = 138, 0
FRESH3_TEST_RIGHT, FRESH3_TEST_WRONG = 133, 10
# the h39-fresh4 batch (420 answers by three independent writers: chat assistants, open-weight
# models, other languages and paraphrases), per half (of 202, 218); test: 190, 7 as written
# (before any rule change), measured once at the end of h39-lang; tuning: raised by the other
# languages' wordings
FRESH4_TUNING_RIGHT, FRESH4_TUNING_WRONG = 199, 0
FRESH4_TEST_RIGHT, FRESH4_TEST_WRONG = 201, 3
# the h39-fresh5 batch (426 answers, all test half: harness outputs, long reasoning, 20 other
# languages, non-native English), written after the fourth round's rules, never tuned on
FRESH5_TEST_RIGHT, FRESH5_TEST_WRONG = 393, 12  # as written: 362, 23
# the h39-fresh6 batch (450 answers, all tuning half), written after h39-fresh5 to tune on
FRESH6_TUNING_RIGHT, FRESH6_TUNING_WRONG = 423, 4
# the h39-fresh7 batch (450 answers, all tuning half), written after the fifth round's rules
FRESH7_TUNING_RIGHT, FRESH7_TUNING_WRONG = 431, 1
# the h39-fresh8 batch (450 answers, all test half), written after the sixth round, never tuned on
FRESH8_TEST_RIGHT, FRESH8_TEST_WRONG = 402, 12  # as written: 396, 15
# the h39-fresh9 batch (300 English answers, all tuning half), written after round 6
FRESH9_TUNING_RIGHT, FRESH9_TUNING_WRONG = 277, 5
# the h39-fresh10 batch (450 answers, all test half: reasoning and harness outputs, 24 other
# languages, raw output formats), written after round 7 by three more writers, never tuned on
FRESH10_TEST_RIGHT, FRESH10_TEST_WRONG = (
    408,
    6,
)  # as written: 385, 9; measured at the end of round 10
# the h39-fresh11 batch (450 answers, all tuning half: English prose, 22 other languages, a run's
# spread), written after round 7, to tune round 8 on
FRESH11_TUNING_RIGHT, FRESH11_TUNING_WRONG = 439, 2  # as written: 387, 7
# the h39-fresh12 batch (450 answers, all tuning half: chat models' English prose, open-weight
# models' quirks, explanations in 23 other languages), written during round 8
FRESH12_TUNING_RIGHT, FRESH12_TUNING_WRONG = 440, 2  # as written: 414, 9
# the h39-fresh13 batch (450 answers, all tuning half: the kinds issue 39 lists in English, six
# languages, what a harness gets back), written after round 8's English part
FRESH13_TUNING_RIGHT, FRESH13_TUNING_WRONG = 431, 1  # as written: 375, 11
# the h39-fresh14 batch (450 answers, all tuning half: reasoning models, the boundary between a
# hedged pick and none, 27 rarer languages), written after round 9's English part
FRESH14_TUNING_RIGHT, FRESH14_TUNING_WRONG = 442, 0  # as written: 351, 25
# the h39-fresh15 batch (450 answers, all test half: 30 English styles, a multilingual run, a
# 36-model run's raw outputs), written after round 10's English part, never tuned on
FRESH15_TEST_RIGHT, FRESH15_TEST_WRONG = (
    419,
    8,
)  # as written: 411, 10; measured at the end of round 10
# the h39-fresh16 batch (450 answers, all test half: the hard kinds issue 39 lists in English, 18
# languages, a 36-model run's quirks), written after round 10, never tuned on
FRESH16_TEST_RIGHT, FRESH16_TEST_WRONG = 393, 12  # as written
# the h39-fresh17 batch (450 answers, all tuning half, same three themes by three other writers),
# written after round 10, to tune round 11 on
FRESH17_TUNING_RIGHT, FRESH17_TUNING_WRONG = 444, 0  # as written: 402, 12
# the h39-fresh18 batch (450 answers, all tuning half, the same three themes by three more writers)
FRESH18_TUNING_RIGHT, FRESH18_TUNING_WRONG = 444, 0  # as written: 407, 12
# the h39-fresh19 batch (450 answers, all tuning half: short English answers in 36 styles, what
# evaluation harnesses record, 23 other languages), written after round 11a
FRESH19_TUNING_RIGHT, FRESH19_TUNING_WRONG = 449, 0  # as written: 423, 5
# the h39-fresh20 batch (450 answers, all test half: the hard kinds in English, 21 other
# languages, short answers in 30 styles), written during round 11, never tuned on
FRESH20_TEST_RIGHT, FRESH20_TEST_WRONG = 422, 7  # as written (2ec32e9); round 10's rules: 413, 10
# the h39-fresh21 batch (450 answers, all tuning half, none in English: the six languages issue 39
# names at length and short, 24 more languages), written during round 11
FRESH21_TUNING_RIGHT, FRESH21_TUNING_WRONG = 423, 0  # as written (7a4bcf5): 381, 16
# the h39-fresh22 batch (300 English answers, all tuning half: options named without a choice next
# to twins that choose, about 60% Z; a 36-model run's raw outputs), written during round 11
FRESH22_TUNING_RIGHT, FRESH22_TUNING_WRONG = 290, 1  # as written (f7bf19a): 272, 18
# the h39-fresh23 batch (450 answers, all test half: the hard kinds in English, 22 other
# languages, short English answers in 30 styles), written at the end of round 11, never tuned on
FRESH23_TEST_RIGHT, FRESH23_TEST_WRONG = 418, 6  # as written (f6d0d81); round 10's rules: 410, 8


@pytest.mark.parametrize(
    ("answer", "options", "letter", "rule"),
    [
        ("<think>A looks plausible, but B...</think>\nC", FOUR, "C", "bare-letter"),
        ("answer: d", FOUR, "D", "cue"),
        ("B... actually, C fits better.", FOUR, "C", "cue"),
        ("The answer is C, not A.", FOUR, "C", "cue"),
        ("__B__", BINARY, "B", "bare-letter"),
        ("{'answer': 'D'}", FOUR, "D", "json"),
        ("\uff22", BINARY, "B", "bare-letter"),
        ("Option 2", FOUR, "B", "option-number"),
        ("The second mask.", FOUR, "B", "option-number"),
        ("Real photo.", BINARY, "B", "binary"),
        ("The image is not AI-generated.", BINARY, "B", "binary"),
        ("non-AI-generated", BINARY, "B", "binary"),
        ("It wasn't manipulated by AI.", MANIP, "A", "binary"),
        ("\u975eAI\u751f\u6210", BINARY, "B", "binary"),
        ("The forged frames are 0, 1 and 5.", FRAMES, "A", "lists"),
        (
            "Candidate A covers the sky. B covers the face. Therefore, the forged region is B.",
            FOUR,
            "B",
            "cue",
        ),
        # conflicts and non-answers: Z, never a guess
        ("B. AI-generated", BINARY, "Z", "conflict"),
        ("It could be A or B.", BINARY, "Z", "several-letters"),
        ("Not A.", BINARY, "Z", "nothing"),
        ("It might be AI-generated, or it might be non AI-generated.", BINARY, "Z", "conflict"),
        (
            "I'm sorry, but I can't help with identifying whether images are real.",
            BINARY,
            "Z",
            "refusal",
        ),
        ("Yes.", BINARY, "Z", "nothing"),  # not a yes/no question
        (
            "To decide whether an image is AI-generated, look at its textures.",
            BINARY,
            "Z",
            "nothing",
        ),
    ],
)
def test_v2_rules(answer: str, options: dict[str, str], letter: str, rule: str) -> None:
    got = extract_option(answer, options)
    assert (got.letter, got.rule) == (letter, rule)


REGIONS = {"A": "Top left", "B": "Top right", "C": "Bottom left", "D": "Bottom right"}
SHUFFLED = {"A": "Candidate 3", "B": "Candidate 1", "C": "Candidate 4", "D": "Candidate 2"}
KINDS = {"A": "Splicing", "B": "Copy-Move", "C": "Removal", "D": "Face Swap (Single Face)"}
BOXES = {
    "A": '{ "forged area": [ [ 274, 46, 358, 167 ] ] }',
    "B": '{ "forged area": [ [ 186, 122, 333, 196 ] ] }',
}


@pytest.mark.parametrize(
    ("answer", "options", "letter", "why"),
    [
        # precision: articles, two options, hedges, corrections, conditionals
        (
            "A 3D render, clearly.",
            {"A": "Diffusion models", "B": "Graphics-based methods"},
            "B",
            "",
        ),
        ("A normal street photo with a lot of detail.", BINARY, "Z", "nothing"),
        ("Masks 2 and 3 both look right to me.", FOUR, "Z", "two_options"),
        ("Maybe AI-generated, maybe non AI-generated.", BINARY, "Z", "hedge"),
        ("Sorry, I can't tell whether it is AI-generated or not.", BINARY, "Z", "refusal"),
        ("B. Sorry, I meant A.", BINARY, "A", ""),
        ("Top right. My apologies, it is bottom left.", REGIONS, "C", ""),
        ("If the EXIF is real then B, otherwise A.", BINARY, "Z", "hedge"),
        ("The second mask.", SHUFFLED, "Z", "two_options"),
        # per-option scores, rankings, elimination, positions
        ("A: 0.1, B: 0.2, C: 0.6, D: 0.1", FOUR, "C", ""),
        ("A 50%, B 50%", BINARY, "Z", "two_options"),
        ("Worst to best: D, B, A, C", FOUR, "C", ""),
        ("Rule out B, C and D.", FOUR, "A", ""),
        ("Rule out top left.", REGIONS, "Z", "nothing"),
        ("The penultimate one.", FOUR, "C", ""),
        ("The latter.", BINARY, "B", ""),
        # paraphrases: regions, frames, kinds, boxes, other languages
        ("SE corner", REGIONS, "D", ""),
        ("\u2197\ufe0f", REGIONS, "B", ""),
        ("Frames 0 through 1.", FRAMES, "D", ""),
        ("Cloned within the same photo.", KINDS, "B", ""),
        ("x=186, y=122, w=333, h=196", BOXES, "B", ""),
        ("(274, 46) to (632, 213)", BOXES, "A", ""),
        ("Oben links.", REGIONS, "A", ""),
        ("Nicht manipuliert.", MANIP, "A", ""),
    ],
)
def test_v3_rules(answer: str, options: dict[str, str], letter: str, why: str) -> None:
    got = extract_option(answer, options)
    assert (got.letter, got.why) == (letter, why), got


def test_yes_no_only_for_a_yes_no_question() -> None:
    assert extract_option("Yes.", BINARY, "Is this image AI-generated?").letter == "A"
    assert extract_option("No, it is real.", BINARY, "Is this image AI-generated?").letter == "B"
    assert extract_option("Yes.", BINARY, "Is this a real photograph?").letter == "B"
    assert (
        extract_option("No, it is AI-generated.", BINARY, "Is this image AI-generated?").letter
        == "Z"
    )
    assert extract_option("Yes.", BINARY, "What is the authenticity of the image?").letter == "Z"


@lru_cache(maxsize=1)
def _corpus() -> tuple[dict[str, Any], ...]:
    """The corpus, parsed once per test process (the batch tests each read a part of it)."""
    return tuple(json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines())


def _read(rows: list[dict[str, str]]) -> tuple[Counter[str], set[str]]:
    outcome: Counter[str] = Counter()
    wrong = set()
    for r in rows:
        got = extract_option(r["answer"], r["options"], r["question"]).letter
        outcome["right" if got == r["expected"] else "wrong" if got != "Z" else "z"] += 1
        if got not in ("Z", r["expected"]):
            wrong.add(r["id"])
    return outcome, wrong


def test_corpus_is_read_without_wrong_letters() -> None:
    every = list(_corpus())
    assert len(every) >= 1000 and len({r["style"] for r in every}) >= 90
    # the h39-fresh and h39-fresh3 batches have their own floors (below); the h39-embed block (tuning half) was
    # written for builtin/embed's threshold, in wordings the rules are not meant to read: the
    # embedding stage's tests measure it
    fresh = (
        "h39-fresh",
        "h39-fresh3",
        "h39-fresh4",
        "h39-fresh5",
        "h39-fresh6",
        "h39-fresh7",
        "h39-fresh8",
        "h39-fresh9",
        "h39-fresh10",
        "h39-fresh11",
        "h39-fresh12",
        "h39-fresh13",
        "h39-fresh14",
        "h39-fresh15",
        "h39-fresh16",
        "h39-fresh17",
        "h39-fresh18",
        "h39-fresh19",
        "h39-fresh20",
        "h39-fresh21",
        "h39-fresh22",
        "h39-fresh23",
        "h39-embed",
    )
    rows = [r for r in every if r["split"] not in fresh]
    tuning = [r for r in rows if r["half"] == "tuning"]
    outcome, wrong = _read(tuning)
    # no wrong letter on the tuning half (a part that is AI-generated is no side since h39-r2)
    assert not wrong, wrong
    assert outcome["right"] >= 0.98 * len(tuning), outcome
    # the test half is never tuned on: this is the figure measured at the end of issue 39
    test = [r for r in rows if r["half"] == "test"]
    outcome, wrong = _read(test)
    assert outcome["right"] >= TEST_HALF_RIGHT and len(wrong) <= TEST_HALF_WRONG, outcome


@pytest.mark.parametrize(
    ("split", "half", "right", "wrong_letters"),
    [
        ("h39-fresh", "tuning", FRESH_TUNING_RIGHT, FRESH_TUNING_WRONG),
        ("h39-fresh", "test", FRESH_TEST_RIGHT, FRESH_TEST_WRONG),
        ("h39-fresh3", "tuning", FRESH3_TUNING_RIGHT, FRESH3_TUNING_WRONG),
        ("h39-fresh3", "test", FRESH3_TEST_RIGHT, FRESH3_TEST_WRONG),
        ("h39-fresh4", "tuning", FRESH4_TUNING_RIGHT, FRESH4_TUNING_WRONG),
        ("h39-fresh4", "test", FRESH4_TEST_RIGHT, FRESH4_TEST_WRONG),
        ("h39-fresh5", "test", FRESH5_TEST_RIGHT, FRESH5_TEST_WRONG),
        ("h39-fresh6", "tuning", FRESH6_TUNING_RIGHT, FRESH6_TUNING_WRONG),
        ("h39-fresh7", "tuning", FRESH7_TUNING_RIGHT, FRESH7_TUNING_WRONG),
        ("h39-fresh8", "test", FRESH8_TEST_RIGHT, FRESH8_TEST_WRONG),
        ("h39-fresh9", "tuning", FRESH9_TUNING_RIGHT, FRESH9_TUNING_WRONG),
        ("h39-fresh10", "test", FRESH10_TEST_RIGHT, FRESH10_TEST_WRONG),
        ("h39-fresh11", "tuning", FRESH11_TUNING_RIGHT, FRESH11_TUNING_WRONG),
        ("h39-fresh12", "tuning", FRESH12_TUNING_RIGHT, FRESH12_TUNING_WRONG),
        ("h39-fresh13", "tuning", FRESH13_TUNING_RIGHT, FRESH13_TUNING_WRONG),
        ("h39-fresh14", "tuning", FRESH14_TUNING_RIGHT, FRESH14_TUNING_WRONG),
        ("h39-fresh15", "test", FRESH15_TEST_RIGHT, FRESH15_TEST_WRONG),
        ("h39-fresh16", "test", FRESH16_TEST_RIGHT, FRESH16_TEST_WRONG),
        ("h39-fresh17", "tuning", FRESH17_TUNING_RIGHT, FRESH17_TUNING_WRONG),
        ("h39-fresh18", "tuning", FRESH18_TUNING_RIGHT, FRESH18_TUNING_WRONG),
        ("h39-fresh19", "tuning", FRESH19_TUNING_RIGHT, FRESH19_TUNING_WRONG),
        ("h39-fresh20", "test", FRESH20_TEST_RIGHT, FRESH20_TEST_WRONG),
        ("h39-fresh21", "tuning", FRESH21_TUNING_RIGHT, FRESH21_TUNING_WRONG),
        ("h39-fresh22", "tuning", FRESH22_TUNING_RIGHT, FRESH22_TUNING_WRONG),
        ("h39-fresh23", "test", FRESH23_TEST_RIGHT, FRESH23_TEST_WRONG),
    ],
)
def test_fresh_batch_figures_hold(split: str, half: str, right: int, wrong_letters: int) -> None:
    """The h39-fresh, h39-fresh3 and h39-fresh4 batches, per half: at least as many right and no more wrong
    letters than measured (the test half's figure is measured, never tuned on)."""
    part = [r for r in _corpus() if r["split"] == split and r["half"] == half]
    assert len(part) >= 150 and sum(1 for r in part if r["expected"] == "Z") >= len(part) // 5
    outcome, wrong = _read(part)
    assert outcome["right"] >= right and len(wrong) <= wrong_letters, outcome


GENS = {
    "A": "Generative Adversarial Networks",
    "B": "Diffusion models",
    "C": "Encoder-Decoder",
    "D": "Graphics-based methods",
}
FRAMES8 = {"A": "[ 3, 4, 5 ]", "B": "[ 0, 1 ]", "C": "[ 6, 7 ]", "D": "[ 2 ]"}


@pytest.mark.parametrize(
    ("answer", "options", "letter", "why"),
    [
        # list numbers are positions, not scores; a numbered ranking on the following lines
        (
            "1. Splicing - odd light\n2. Copy-Move - no\n4. Face Swap - no\nMost likely: Splicing",
            KINDS,
            "A",
            "",
        ),
        ("Ranked by likelihood:\n1. Diffusion models\n2. GAN\n3. Graphics-based", GENS, "B", ""),
        ("Ranking: B = C > A > D", FOUR, "Z", "two_options"),
        ("Ranking: A > B = C > D", FOUR, "A", ""),
        (
            "I'd put 0.4 on GANs and 0.4 on diffusion models, 0.2 on the rest.",
            GENS,
            "Z",
            "two_options",
        ),
        # conditionals without a leading "if"
        ("It's AI-manipulated only if the background was replaced.", MANIP, "Z", "hedge"),
        (
            "Should the pole be original, it's Removal; if not, nothing was done.",
            KINDS,
            "Z",
            "hedge",
        ),
        # a JSON letter its own explanation contradicts; a JSON number
        (
            '{"answer": "A", "explanation": "The image is non AI-generated."}',
            BINARY,
            "Z",
            "two_options",
        ),
        ('{"answer": "B", "explanation": "The image is non AI-generated."}', BINARY, "B", ""),
        ('{"choice": 4}', FOUR, "D", ""),
        # "0, 1, and 5"; "#0-#1"
        ("frames 0, 1, and 5 are forged", FRAMES, "A", ""),
        ("frames #0-#1", FRAMES8, "B", ""),
        # an article before a non-ASCII word ("no canto": Portuguese "in the", no negator); "No - it is": an interjection
        ("A área falsificada está no canto inferior direito.", REGIONS, "D", ""),
        (
            "Non AI-generated? No - it is AI-generated.",
            {"A": "non AI-generated", "B": "AI-generated"},
            "B",
            "",
        ),
        ("There is no sign that it is AI-generated.", BINARY, "B", ""),
    ],
)
def test_v3_precision_rules(answer: str, options: dict[str, str], letter: str, why: str) -> None:
    got = extract_option(answer, options)
    assert (got.letter, got.why) == (letter, why), got


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        ("- A: exact\n- B: too big\n- C: too small\nMost likely: Candidate 1", FOUR, "A"),
        ("| Field | Value |\n|---|---|\n| Forged region | Bottom right |", REGIONS, "D"),
        ("This looks AI-generated at first glance, but it is a genuine photograph.", BINARY, "B"),
        ("Real or fake? Fake.", BINARY, "A"),
        ("Je choisis le masque 4.", FOUR, "D"),
        ("候補3が最も正確です。", FOUR, "C"),
        ("A imagem é real, não foi gerada por IA.", BINARY, "B"),
        ("Order of plausibility: D, A, B, C", FRAMES8, "D"),
        ("top-left (186,122), bottom-right (519,318)", BOXES, "B"),
    ],
)
def test_v3_reads_more(answer: str, options: dict[str, str], letter: str) -> None:
    assert extract_option(answer, options).letter == letter


@pytest.mark.parametrize(
    ("answer", "options", "letter", "why"),
    [
        # a verdict after a bullet list that names the options by letter
        ("- A: fits\n- B: fits\n- C: no\n- D: no\nVerdict: B", FOUR, "B", ""),
        ("- A: good\n- B: bad\n- C: bad\n- D: bad", FOUR, "Z", "two_options"),
        # another option offered as possible too, or the answer taken back
        ("I'd say B, but C is also possible.", FOUR, "Z", "hedge"),
        ("B. Hmm, or maybe A.", FOUR, "Z", "hedge"),
        ("C. Wait, no.", FOUR, "Z", "hedge"),
        ("Option B is the best match, although option D is close.", FOUR, "B", ""),
        # conditional alternatives after the answer; a committed pick is no conditional
        ("C is correct. If the shadow is included, D.", FOUR, "Z", "hedge"),
        ("B, assuming the reflection is original.", FOUR, "Z", "hedge"),
        ("If I had to choose, C.", FOUR, "C", ""),
        # articles before acronyms; "or" in other languages; post-posed negators; partly
        ("A GAN or diffusion model.", GENS, "Z", "two_options"),
        ("A GAN, judging by the checkerboard.", GENS, "A", ""),
        ("Die Antwort ist entweder A oder D.", FOUR, "Z", "two_options"),
        ("A 또는 B입니다.", FOUR, "Z", "two_options"),
        ("これはAI生成ではありません。", BINARY, "B", ""),
        ("Partially AI-generated.", BINARY, "Z", "two_options"),
        ("A: 0.55\nB: 0.25\nC: 0.1\nD: 0.1", {"A": "[ 2, 3 ]", "B": "[ 4 ]"}, "A", ""),
    ],
)
def test_v3_precision_more(answer: str, options: dict[str, str], letter: str, why: str) -> None:
    got = extract_option(answer, options)
    assert (got.letter, got.why) == (letter, why), got


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # "final answer" is no ordinal, "one of" no option number
        ("Final answer: top left", REGIONS, "A"),
        ("The final answer: AI-generated", BINARY, "A"),
        ("Final answer - see above.", REGIONS, "Z"),
        ("The answer is one of the top regions.", REGIONS, "Z"),
        ("The final option.", REGIONS, "D"),
        # a letter and a position that disagree
        ("The last one, C.", FOUR, "Z"),
        ("The last one, D.", FOUR, "D"),
        # a statement about a class of media implies at most: no claim
        ("The smooth textures are typical of AI-generated images.", BINARY, "Z"),
        ("Real photos usually have more noise than this.", BINARY, "Z"),
        ("The lighting is consistent with a real photograph.", BINARY, "Z"),
        ("It is AI-generated, with artefacts typical of diffusion.", BINARY, "A"),
        ("B - typical of diffusion models rather than GANs (A).", GENS, "B"),
    ],
)
def test_v3_positions_and_implications(answer: str, options: dict[str, str], letter: str) -> None:
    assert extract_option(answer, options).letter == letter


@pytest.mark.parametrize(
    ("answer", "letter", "why"),
    [
        ("Sorry, I made a mistake earlier. The forged area is bottom left.", "C", ""),
        ("Sorry, top left.", "A", ""),
        ("I'm sorry, but I can't tell where the forged area is.", "Z", "refusal"),
        ("Sorry, I cannot see the image.", "Z", "refusal"),
    ],
)
def test_an_apology_is_a_refusal_only_where_it_cannot_answer(
    answer: str, letter: str, why: str
) -> None:
    got = extract_option(answer, REGIONS)
    assert (got.letter, got.why) == (letter, why), got


def test_yes_or_no_with_a_qualification_is_no_answer() -> None:
    q = "Is this image AI-generated?"
    assert extract_option("Yes, but only partially.", BINARY, q).letter == "Z"
    assert extract_option("No, but it has been edited.", BINARY, q).letter == "Z"
    assert extract_option("No, it is a real photo.", BINARY, q).letter == "B"


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        (
            "Splicing: high confidence. Copy-Move: low. Removal: low. Face swap: very low.",
            KINDS,
            "A",
        ),
        ("| Option | Match |\n|---|---|\n| A | low |\n| B | high |\n| C | low |", FOUR, "B"),
        ("Top left: high. Top right: high. Bottom left: low.", REGIONS, "Z"),
        ("The top left has high noise, the bottom right low noise.", REGIONS, "Z"),
        ("the first two frames", FRAMES, "D"),
        ("just the first frame", FRAMES, "C"),
        ("The first frame and frame 5.", FRAMES, "Z"),
        ("[0, 1] or [0, 1, 5]", FRAMES, "Z"),
    ],
)
def test_v3_levels_and_frames(answer: str, options: dict[str, str], letter: str) -> None:
    assert extract_option(answer, options).letter == letter
