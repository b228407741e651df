"""Precision first, the fourth round (issue 39): a letter read without a final cue of its own
stands only where the answer names no other option or concludes on it; answers cut off while
turning, and answers that only describe the image, choose nothing; scores and rankings written
with option words."""

from __future__ import annotations

import pytest

from forgebench.suites.forensics.extract import extract_option

BINARY = {"A": "AI-generated", "B": "non AI-generated"}
FOUR = {"A": "Candidate 1", "B": "Candidate 2", "C": "Candidate 3", "D": "Candidate 4"}
REGIONS = {"A": "Top left", "B": "Top right", "C": "Bottom left", "D": "Bottom right"}
KINDS = {"A": "Splicing", "B": "Copy-Move", "C": "Removal", "D": "Face Swap (Single Face)"}
GENS = {
    "A": "Generative Adversarial Networks",
    "B": "Diffusion models",
    "C": "Encoder-Decoder",
    "D": "Graphics-based methods",
}


@pytest.mark.parametrize(
    ("answer", "options", "letter", "why"),
    [
        # two options named, one only as "consistent with": no pick
        (
            "The tiling hints at Generative Adversarial Networks, but the layout is just as "
            "consistent with diffusion models.",
            GENS,
            "Z",
            "two_options",
        ),
        ("It is real. It is AI-generated. It is real. It is AI-generated. It is", BINARY, "Z", ""),
        # the concluding sentence wins over a letter mentioned on the way
        (
            "1. Any faces? No, so D is out.\n2. Repeated texture? None.\nTherefore it is Removal.",
            KINDS,
            "C",
            "",
        ),
        (
            "Candidate 1 is too wide. Candidate 3 is shifted left. Candidate 2 appears the most "
            "accurate.",
            FOUR,
            "B",
            "",
        ),
        ("## Verdict\n\n**AI-generated.** The hands have six fingers.", BINARY, "A", ""),
        ("### Answer\n**Candidate 3** hugs the outline; the rest spill over.", FOUR, "C", ""),
        # cut off by the token limit while turning to another view
        (
            "The bench texture repeats, so part of the scene was duplicated. However, the shadow "
            "of the man could also indicate",
            KINDS,
            "Z",
            "hedge",
        ),
        # a place named in a description that names no forgery
        (
            "The photo shows a harbour with boats. A gull sits on a post in the bottom right "
            "part of the frame.",
            REGIONS,
            "Z",
            "nothing",
        ),
        (
            "The lamp in the top left corner looks pasted in; its edge is far too sharp.",
            REGIONS,
            "A",
            "",
        ),
        ("Top left.", REGIONS, "A", ""),
        (
            "Some cues say real, others say AI. I can't make a confident call either way.",
            BINARY,
            "Z",
            "",
        ),
    ],
)
def test_precision_gate(answer: str, options: dict[str, str], letter: str, why: str) -> None:
    got = extract_option(answer, options)
    assert got.letter == letter, got
    if why:
        assert got.why == why, got


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # scores per option whose texts hold numbers of their own; a tie at the top
        (
            "- Candidate 1: 10%\n- Candidate 2: 35%\n- Candidate 3: 35%\n- Candidate 4: 20%",
            FOUR,
            "Z",
        ),
        (
            "- Candidate 1: 10%\n- Candidate 2: 50%\n- Candidate 3: 25%\n- Candidate 4: 15%",
            FOUR,
            "B",
        ),
        (
            "| Option | Probability |\n|---|---|\n| A | 15 % |\n| B | 70 % |\n| C | 15 % |",
            FOUR,
            "B",
        ),
        # rankings by option words, their direction said inside the line
        (
            "Ranking, most to least likely: Removal, Splicing, Copy-Move, Face Swap (Single "
            "Face). No duplicated texture and no faces here.",
            KINDS,
            "C",
        ),
        ("Ranking from least to most likely: Removal, Splicing, Copy-Move.", KINDS, "B"),
        # a table of yes/no per option
        (
            "| Region | Edited |\n|---|---|\n| Top left | no |\n| Top right | yes |\n"
            "| Bottom left | no |\n| Bottom right | no |",
            REGIONS,
            "B",
        ),
    ],
)
def test_scores_rankings_and_tables(answer: str, options: dict[str, str], letter: str) -> None:
    assert extract_option(answer, options).letter == letter


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # a corner named by its two sides apart; both sides of one axis: no corner
        ("the right-hand side, near the top", REGIONS, "B"),
        ("Lower half, left side.", REGIONS, "C"),
        ("Somewhere along the bottom edge, either the left or the right side.", REGIONS, "Z"),
        ("The right answer is at the top.", REGIONS, "Z"),
        # a position among two
        ("Of these two, the latter.", BINARY, "B"),
        # an option dismissed by the words after it; "more X than" rules out what follows
        ("Answer: B. A GAN is less plausible given the detail.", GENS, "B"),
        (
            "Copy-move is more likely than splicing, removal is out, and face swap doesn't apply.",
            KINDS,
            "B",
        ),
        # among four options a comparison of two alone picks neither (LABELLING.md)
        ("Splicing is less likely than removal.", KINDS, "Z"),
        ("Copy-move is more likely than splicing.", KINDS, "Z"),
        ("AI-generated is less likely than real.", BINARY, "B"),
        ("It looks more real than AI-generated.", BINARY, "B"),
        ("It is more likely than not AI-generated.", BINARY, "A"),
        # several options named on the way, one concluding sentence picks one
        (
            "So it is [0, 1] (D) or [0, 1, 5] (A). Frame 5 is a blink.\nTherefore the forged frames are 0 and 1.",
            {"A": "[ 0, 1, 5 ]", "B": "[ 1 ]", "C": "[ 0 ]", "D": "[ 0, 1 ]"},
            "D",
        ),
    ],
)
def test_sides_positions_dismissals(answer: str, options: dict[str, str], letter: str) -> None:
    assert extract_option(answer, options).letter == letter


@pytest.mark.parametrize(
    ("answer", "letter"),
    [
        ("Candidate 3 seems to match best, though Candidate 1 also covers part of the area.", "C"),
        ("Candidate 3 is the most accurate, Candidate 1 is close.", "C"),
        # "best" that calls no option the answer's pick; two called best; a conclusion naming two
        ("At best Candidate 2 is close; Candidate 3 is the one.", "Z"),
        ("Candidate 1 and Candidate 3 are the most accurate.", "Z"),
        ("Candidate 2 is the best of a bad lot, but Candidate 4 is what I'd pick.", "Z"),
    ],
)
def test_the_option_called_best(answer: str, letter: str) -> None:
    assert extract_option(answer, FOUR).letter == letter


FRAMES = {"A": "[ 0, 1, 5 ]", "B": "[ 1 ]", "C": "[ 0 ]", "D": "[ 0, 1 ]"}
BOXES = {
    "A": '{ "forged area": [ [ 40, 30, 100, 80 ] ] }',
    "B": '{ "forged area": [ [ 200, 150, 60, 60 ] ] }',
    "C": '{ "forged area": [ [ 40, 30, 100, 80 ], [ 200, 150, 60, 60 ] ] }',
}
MANIP = {"A": "non AI-manipulated", "B": "AI-manipulated"}
VIDEO_GENS = {
    "A": "Recurrent Neural Networks",
    "B": "Encoder-Decoder&Graphics-based methods",
    "C": "Proprietary",
    "D": "Variational Auto-Encoders",
}


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # cut off by the token limit: what the whole sentences say, else nothing
        (
            "Let me check each mask. Mask one covers the car but not its wheels. Candidate 3",
            FOUR,
            "Z",
        ),
        (
            "To find the edit, let's go corner by corner. In the top left, there is a bench with",
            REGIONS,
            "Z",
        ),
        (
            "The forged area is the top right corner. The forged area is the top right corner of the",
            REGIONS,
            "B",
        ),
        ("Las regiones son dos. Respuesta: B", FOUR, "B"),
        # hedges and disclaimers that take a pick back
        ("It might be splicing, but it could also be plain lens flare.", KINDS, "Z"),
        (
            "Probably the top left. I'm not confident though, and I can't rule out the bottom right.",
            REGIONS,
            "Z",
        ),
        (
            "If I had to guess, the top right looks off, but please don't rely on this.",
            REGIONS,
            "Z",
        ),
        ("The checkerboard texture fits GANs or a decoder, so I can't narrow it down.", GENS, "Z"),
        # conditionals
        ("If the shadow is part of the edit, then D is correct.", FOUR, "Z"),
        (
            "If only the mouth was edited, Candidate 1 is right; if the jaw too, Candidate 4 is better.",
            FOUR,
            "Z",
        ),
        # statements about a kind of forgery, not this image
        (
            "Copy-move forgeries usually show repeated texture; I couldn't find any repeated texture.",
            KINDS,
            "Z",
        ),
        (
            "In AI-manipulated videos you normally see flicker at the edited jaw. This clip is stable.",
            MANIP,
            "Z",
        ),
        # parts of each side; a box said to be untouched; a box only described
        ("Some parts look AI-generated and some look real. A mix.", BINARY, "Z"),
        (
            "The box [40, 30, 100, 80] looks normal. The pasted cup sits at [200, 150, 60, 60].",
            BOXES,
            "B",
        ),
        (
            "The speaker stands around [40, 30, 100, 80], in front of a blue flag and a lectern.",
            BOXES,
            "Z",
        ),
        # a verdict line first, then its reasons
        (
            "**Verdict:** only frame 1 is forged.\n\nFrame 1 has a seam at the collar; frame 0 matches the source.",
            FRAMES,
            "B",
        ),
        # confidence in words with a comment; the top score on a label the rules do not read
        (
            "- Splicing: low\n- Copy-Move: **high** - the two clouds match\n- Removal: low",
            KINDS,
            "B",
        ),
        (
            "- Recurrent Neural Networks: 5%\n- Hybrid pipeline: 60%\n- Proprietary: 30%",
            VIDEO_GENS,
            "Z",
        ),
        (  # read since round 10: "Encoder-Decoder & graphics" names the option
            "- Recurrent Neural Networks: 5%\n- Encoder-Decoder & Graphics-based: 60%\n- Proprietary: 30%",
            VIDEO_GENS,
            "B",
        ),
        # ruling out by negation, and a list after "rule out"
        (
            "It is not proprietary, and not the flicker of recurrent networks; the blur is typical of a Variational Auto-Encoder.",
            VIDEO_GENS,
            "D",
        ),
        ("Rule out splicing, removal and face swap.", KINDS, "B"),
    ],
)
def test_cut_hedged_generic_and_listed(answer: str, options: dict[str, str], letter: str) -> None:
    assert extract_option(answer, options).letter == letter


FRAMES8 = {"A": "[ 3, 4, 5 ]", "B": "[ 0, 1 ]", "C": "[ 6, 7 ]", "D": "[ 2 ]"}
EIGHT = (
    "Please locate the forged frames in the given set of 8 frames, which are sampled from a "
    "video. The output format should be the a list of indexes indicating the forged frames. "
    "The initial index starts from 0."
)


@pytest.mark.parametrize(
    ("answer", "question", "letter"),
    [
        ("The last two frames.", EIGHT, "C"),
        ("Only the final frame is forged.", EIGHT, "Z"),  # [ 7 ] is no option
        ("The last two frames.", "Which frames are forged?", "Z"),  # no count given: unread
        ("Either the first two or the last two frames; both ends flicker.", EIGHT, "Z"),
        ("The others either blur or flicker; the last two frames hold the swap.", EIGHT, "C"),
    ],
)
def test_last_frames_where_the_question_counts_them(
    answer: str, question: str, letter: str
) -> None:
    assert extract_option(answer, FRAMES8, question).letter == letter


SHUFFLED = {"A": "Candidate 3", "B": "Candidate 1", "C": "Candidate 4", "D": "Candidate 2"}


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # scores after each option restated with its letter
        (
            "A (Candidate 3): 10%\nB (Candidate 1): 65%\nC (Candidate 4): 15%\nD (Candidate 2): 10%",
            SHUFFLED,
            "B",
        ),
        ("A. [0, 1, 5] - 20%\nB. [1] — 20%\nC. [0] — 15%\nD. [0, 1] — 45%", FRAMES, "D"),
        # corners in other word orders
        ("The edit is in the left upper part of image.", REGIONS, "A"),
        ("It is in the down right corner.", REGIONS, "D"),
        # an option called the closest; a "very close second" is not a tie
        ("Candidate 2 is closest, though Candidate 3 is a very close second.", FOUR, "B"),
        (
            "Candidate 4 follows the car most closely, while Candidate 1 takes in the road.",
            FOUR,
            "D",
        ),
        # a refusal overturned by "that said"; a concluding "on balance"
        (
            "I can't verify images. That said, nothing looks edited: it appears to be an untouched photo.",
            MANIP,
            "A",
        ),
        (
            "1. Hands: five fingers.\n2. Text: readable.\n\nOn balance, this looks like a real photo.\n\nWant more?",
            BINARY,
            "B",
        ),
        # a region named with an anomaly, then "I'd go with that"
        (
            "The mirror's reflection doesn't match the vase, and that mirror is in the top right corner. I'd go with that region.",
            REGIONS,
            "B",
        ),
    ],
)
def test_restated_scores_corners_closest(answer: str, options: dict[str, str], letter: str) -> None:
    assert extract_option(answer, options).letter == letter


@pytest.mark.parametrize(
    ("answer", "options", "letter", "why"),
    [
        ("Hard to say; the lighting is unusual.", BINARY, "Z", "hedge"),
        ("I can't verify this at this resolution. Probably D?", REGIONS, "Z", "hedge"),
        ("I'd probably call it real, but I really can't verify that.", BINARY, "Z", "hedge"),
        ("Some cues say GAN, others diffusion, so I can't call it either way.", GENS, "Z", "hedge"),
        ("It's hard to say for certain; my best guess is B.", FOUR, "B", ""),
        ("D. Ah sorry, D is wrong, I don't know which one is correct.", FOUR, "Z", "hedge"),
        (
            "I'd put it at roughly 50/50: the face looks real, the ears AI-generated.",
            BINARY,
            "Z",
            "hedge",
        ),
        (
            "The water top right looks smooth. Though honestly, could be any quadrant really.",
            REGIONS,
            "Z",
            "hedge",
        ),
        (
            "It has diffusion gloss and GAN texture, so I can't attribute it with confidence.",
            GENS,
            "Z",
            "hedge",
        ),
        ("I won't label this clip as manipulated or as genuine on this basis.", MANIP, "Z", ""),
        (
            "It could point to splicing, but it could also simply be the camera's processing.",
            KINDS,
            "Z",
            "",
        ),
        ("N/A", SHUFFLED, "Z", ""),
        ("C. Sorry, I misread the options: it should be B.", GENS, "B", ""),
        ("Answer: A, C", KINDS, "Z", ""),
        ("Answer: B and D", FOUR, "Z", ""),
        (
            "I'd say frames 0 and 1, where the mouth is blurred. That's my answer, although frame 5 "
            "is also slightly soft - not enough to include it.",
            FRAMES,
            "D",
            "",
        ),
        (
            "It could be [3, 4, 5] or [2]; neither fits exactly, so I can't choose.",
            FRAMES8,
            "Z",
            "hedge",
        ),
        (
            "I can't verify the source. That said, nothing looks edited: a genuine photo.",
            BINARY,
            "B",
            "",
        ),
        # a step's number is no score; a final answer after the steps wins
        (
            "Step 1: a face? No, so D is ruled out.\nStep 2: twin rocks point to copy-move.\n"
            "Step 3: a removed object? No.\n\nFinal answer: B",
            KINDS,
            "B",
            "",
        ),
        # the last item of a list that comments on each option concludes nothing
        ("Frame 0: sharp. Frame 1: blur. Frames 6-7: stable light.", FRAMES8, "Z", ""),
        (
            "Candidate 1 covers the wall; Candidate 2 only the head; Candidate 4 is empty.",
            FOUR,
            "Z",
            "",
        ),
        (
            "Frame 0: natural.\nFrame 1: flicker.\n\nThe forged frames are 0 and 1.",
            FRAMES8,
            "B",
            "",
        ),
        ("It looks like diffusion, about 70% on that; GANs are the runner-up.", GENS, "B", ""),
        (
            "Between splicing and copy-move, copy-move is the better fit: the bricks repeat.",
            KINDS,
            "B",
            "",
        ),
        (
            "The lag fits recurrent models; diffusion seems unlikely. I'll commit to GANs.",
            GENS,
            "A",
            "",
        ),
    ],
)
def test_english_cant_tell_and_lists(
    answer: str, options: dict[str, str], letter: str, why: str
) -> None:
    got = extract_option(answer, options)
    assert got.letter == letter, got
    if why:
        assert got.why == why, got
