"""The rules, round 11 (h39-fresh17 and h39-fresh18's tuning half, English): answers that name
both sides or two answers at once, refusals on grounds of comfort, a pick cut off while being
re-checked, per-option scores after a dash, corrections after a bare "sorry", an inverted "if",
loops, misspelt binary answers and "real" before a word for a recording."""

from __future__ import annotations

import pytest

from forgebench.suites.forensics.extract import extract_option

BINARY = {"A": "AI-generated", "B": "non AI-generated"}
MANIP = {"A": "non AI-manipulated", "B": "AI-manipulated"}
GENS = {
    "A": "Diffusion models",
    "B": "Graphics-based methods",
    "C": "Generative Adversarial Networks",
    "D": "Encoder-Decoder",
}
FRAMES = {"A": "[ 2, 3, 4 ]", "B": "[ 0, 1 ]", "C": "[ 6, 7 ]", "D": "[ 4, 5, 6, 7 ]"}


@pytest.mark.parametrize(
    ("answer", "options", "letter", "rule"),
    [
        # both sides of a binary pair at once: no side (the article "A" is no letter either)
        ("A little of both: the sky looks shot on film, the faces look generated.", BINARY, "Z",
         "both-sides"),
        ("Honestly, somewhere in between - some regions are real, others generated.", BINARY, "Z",
         "both-sides"),
        ("Partly real and partly manipulated, I would say.", MANIP, "Z", "both-sides"),
        ("It is not a mix of both; it is fully generated.", BINARY, "A", "binary"),
        # two boxed (or cued) letters side by side: two answers
        (r"$\boxed{C}$ or $\boxed{A}$", GENS, "Z", "two-answers"),
        (r"Final answer: \boxed{B} \boxed{D}", GENS, "Z", "two-answers"),
        (r"\boxed{D}, perhaps \boxed{A}", GENS, "Z", "two-answers"),
        (r"So the model is $\boxed{D}$.", GENS, "D", "cue"),
        # refusals on grounds of comfort
        ("I'm not comfortable judging whether this clip of a politician was generated.", BINARY,
         "Z", "refusal"),
        ("I'd rather not make a call about whether this photo was generated.", BINARY, "Z",
         "refusal"),
        # a pick cut off while being re-checked ("but let me check ..."), or after "Wait"
        ("I'll pick C. Wait, let me look at the hands again. The fingers on the", GENS, "Z",
         "cut-turning"),
        ("I initially suspect [ 0, 1 ], but let me check frame 1 again. In frame 1 the", FRAMES,
         "Z", "cut-turning"),
        # a verification after a conclusion takes nothing back
        ("So the answer is [ 6, 7 ]. Let me double-check the lighting around the chin: there is",
         FRAMES, "C", "lists"),
        # scores after a dash: the highest
        ("A - 10%, B - 55%, C - 25%, D - 10%", GENS, "B", "probabilities"),
        ("A - 0.3, B - 0.3, C - 0.2, D - 0.2", GENS, "Z", "tied-scores"),
        # a correction after a bare "sorry"
        ("B sorry C", GENS, "C", "leading-letter"),
        ("D. Sorry, it's A.", GENS, "A", "letter"),
        ("C. Apologies for the mix-up, I'm not actually sure; it could be either.", GENS, "Z",
         "undecided"),
        # an inverted "if" makes the verdict conditional
        ("Should the grain be from the sensor, the image is non AI-generated.", BINARY, "Z",
         "conditional"),
        # "inconclusive" and "cannot decide between X and Y": no pick, though one is named
        ("Inconclusive. Some edges look synthetic, the noise looks natural.", BINARY, "Z",
         "undecided"),
        ("Verdict: cannot decide between GANs and diffusion.", GENS, "Z", "undecided"),
        # a generation caught in a loop over two options
        ("B. Graphics-based methods\nC. Generative Adversarial Networks\nB. Graphics-based methods\n"
         "C. Generative Adversarial Networks\nB.", GENS, "Z", "looping"),
        # misspelt or cut-off binary answers: the side the "non" names
        ("non AI-generted", BINARY, "B", "spelled-like"),
        ("AI-generatd", BINARY, "A", "spelled-like"),
        ("Answer: non AI-generat", BINARY, "B", "spelled-like"),
        # "real" before a word for a recording is about the media
        ("A real clip. Lighting and lip motion agree throughout.", BINARY, "B", "leading-text"),
    ],
)  # fmt: skip
def test_round_11_forms(answer: str, options: dict[str, str], letter: str, rule: str) -> None:
    got = extract_option(answer, options)
    assert (got.letter, got.rule) == (letter, rule)


REGIONS = {"A": "Top left", "B": "Top right", "C": "Bottom left", "D": "Bottom right"}
KINDS = {"A": "Splicing", "B": "Copy-Move", "C": "Removal", "D": "Face Swap (Single Face)"}
SHUFFLED = {"A": "Candidate 2", "B": "Candidate 4", "C": "Candidate 1", "D": "Candidate 3"}


@pytest.mark.parametrize(
    ("answer", "options", "letter", "rule"),
    [
        # a hedge whose contrast commits to one side: that side (one that keeps it open: none)
        ("Hard to say whether it is 'AI-generated' or 'non AI-generated', but overall it looks "
         "untouched to me.", BINARY, "B", "after-hedge"),
        ("I can't be fully certain whether it's generated or not, but the hands are melted, so it "
         "looks generated.", BINARY, "A", "after-hedge"),
        ("Hard to say. It looks genuine, but the caption could have been generated.", BINARY, "Z",
         "conflict"),
        ("Probably AI-generated, though I can't be entirely certain from this crop.", BINARY, "A",
         "binary"),
        # a closing pleasantry is no last sentence
        ("Happy to look! The edit sits in the lower right part of the picture, where the shadow "
         "breaks off. Hope this helps! 🙂", REGIONS, "D", "option-text"),
        # "<answer>" tags, one or two
        ("<answer>Removal</answer> The wall patch is smeared.", KINDS, "C", "option-text"),
        ("<answer>A</answer>\n<answer>D</answer>", KINDS, "Z", "two-answers"),
        # one line per option, one of them marked as the answer
        ("A. Splicing: no pasted object.\nB. Copy-Move: the cloud repeats twice - this is the "
         "forged area.\nC. Removal: nothing missing.\nD. Face Swap (Single Face): no faces.", KINDS,
         "B", "option-verdicts"),
        ("A (Candidate 2): too wide.\nB (Candidate 4): traces the dog exactly. ✔\n"
         "C (Candidate 1): misses the tail.\nD (Candidate 3): shifted up.", SHUFFLED, "B",
         "option-verdicts"),
        ("A. Splicing - Possible.\nB. Copy-Move - Possible.\nC. Removal - Less likely.\n"
         "D. Face Swap (Single Face) - Unlikely.", KINDS, "Z", "nothing"),
        ("| Option | Verdict |\n|---|---|\n| A | unlikely |\n| B | unlikely |\n| C | unlikely |\n"
         "| D | **chosen** |", KINDS, "D", "option-verdicts"),
        # JSON that weighs the options
        ('{"scores": {"A": 0.1, "B": 0.2, "C": 0.6, "D": 0.1}}', KINDS, "C", "probabilities"),
        ('{"probabilities": {"A": 0.4, "B": 0.4, "C": 0.1, "D": 0.1}}', KINDS, "Z", "tied-scores"),
        ('{"ranking": ["B", "D", "A", "C"], "reasoning": "repeated texture"}', KINDS, "B",
         "ranking"),
        # positions, eliminations of frame lists, runs of frames
        ("My pick is the second-to-last one.", KINDS, "C", "option-number"),
        ("I'd rule out [ 0, 1 ], [ 6, 7 ] and [ 4, 5, 6, 7 ]; the others are clean.", FRAMES, "A",
         "elimination"),
        ("Only the opening two frames are fake.", FRAMES, "B", "lists"),
        # a leaked prompt template: the assistant's turn is the answer
        ("[INST] Which kind of manipulation was applied? [/INST] Removal", KINDS, "C",
         "option-text"),
        ("USER: Where is the forged area?\nASSISTANT: Top right", REGIONS, "B", "option-text"),
        # a conditional that a bare verdict settles
        ("Unless the grain is from the sensor, AI-generated - and the grain stops at the face, so "
         "it is not the sensor's. AI-generated.", BINARY, "A", "settled-condition"),
        # misspelt option words inside a short answer (a right spelling is the other rules')
        ("Bottm left, there is a seam along the fence.", REGIONS, "C", "spelled-like"),
        ("The image is AI-generatd, the skin is too smooth.", BINARY, "A", "spelled-like"),
        ("The image is not AI-generatd, the grain is real.", BINARY, "B", "binary"),
        ("Rule out top right.", REGIONS, "Z", "nothing"),
        # shouted answers: "A" before a word in capitals is the article; an accented capital no
        # letter at all
        ("A CLONED PATCH OF SKY GIVES IT AWAY: COPY-MOVE.", KINDS, "B", "option-text"),
        ("Désolé, je ne peux pas analyser ce contenu.", KINDS, "Z", "undecided"),
    ],
)  # fmt: skip
def test_round_11b_forms(answer: str, options: dict[str, str], letter: str, rule: str) -> None:
    got = extract_option(answer, options)
    assert (got.letter, got.rule) == (letter, rule)


def test_a_run_of_frames_to_the_end_uses_the_frame_count_the_question_gives() -> None:
    question = (
        "Please locate the forged frames in the given set of 8 frames, which are sampled from a "
        "video. The output format should be the a list of indexes indicating the forged frames."
    )
    assert extract_option("Everything from frame 4 to the end.", FRAMES, question).letter == "D"
    assert extract_option("Everything from frame 4 to the end.", FRAMES).letter == "Z"


BOXES = {
    "A": '{ "forged area": [ [ 40, 60, 100, 50 ] ] }',
    "B": '{ "forged area": [ [ 300, 200, 80, 120 ] ] }',
    "C": '{ "forged area": [ [ 40, 60, 100, 50 ], [ 10, 10, 20, 20 ] ] }',
    "D": '{ "forged area": [ [ 5, 300, 150, 40 ] ] }',
}
VIDEO_MODELS = {
    "A": "Recurrent Neural Networks",
    "B": "Encoder-Decoder&Graphics-based methods",
    "C": "Proprietary",
    "D": "Variational Auto-Encoders",
}
FACES = {
    "A": "Face Reenactment",
    "B": "Face Editing",
    "C": "Face Swap (Multiple Faces)",
    "D": "Entire Synthesis",
}
TWIN_STARTS = {
    "A": "Encoder-Decoder",
    "B": "Encoder-Decoder&Graphics-based methods",
    "C": "Proprietary",
    "D": "Variational Auto-Encoders",
}


@pytest.mark.parametrize(
    ("answer", "options", "letter", "rule"),
    [
        # boxes given by two corners, said so
        ("[300, 200, 380, 320] in (x1, y1, x2, y2) format.", BOXES, "B", "boxes"),
        ("forged region: from corner (5,300) to corner (155,340)", BOXES, "D", "boxes"),
        ("[300, 200, 380, 320]", BOXES, "Z", "nothing"),
        # the start of one option's text alone (cut off or shortened); of two: nothing
        ("Encoder-Decoder", VIDEO_MODELS, "B", "option-start"),
        ("The model used is Variational Auto", VIDEO_MODELS, "D", "option-start"),
        ("Face Swap", FACES, "C", "option-start"),
        ("The model is Encoder-Dec", TWIN_STARTS, "Z", "nothing"),
        ("Not Encoder-Decoder", VIDEO_MODELS, "Z", "nothing"),
    ],
)  # fmt: skip
def test_round_11c_forms(answer: str, options: dict[str, str], letter: str, rule: str) -> None:
    got = extract_option(answer, options)
    assert (got.letter, got.rule) == (letter, rule)


@pytest.mark.parametrize(
    ("answer", "options", "letter", "rule"),
    [
        # an answer outside the list, or two "could be"s: no pick
        ("It's a GAN-inversion edit, so none of these exactly.", GENS, "Z", "undecided"),
        ("None of the options fits; it looks like a warped panorama.", GENS, "Z", "undecided"),
        ("None of these checks shows a seam, so it is non AI-generated.", BINARY, "B", "binary"),
        ("Could be C. Could be D.", GENS, "Z", "undecided"),
        ("It might be A. It might be B, too.", GENS, "Z", "undecided"),
        ("The smear could be motion blur. Answer: D", GENS, "D", "cue"),
        # a class of media described with "would": no claim about this one
        ("An AI-generated image would show melted text; this one shows none.", BINARY, "Z",
         "nothing"),
    ],
)  # fmt: skip
def test_round_11d_forms(answer: str, options: dict[str, str], letter: str, rule: str) -> None:
    got = extract_option(answer, options)
    assert (got.letter, got.rule) == (letter, rule)


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # a side doubted, hard to believe, "far from", "too ... to be", "a stretch to call": the other
        ("I doubt it's real.", BINARY, "A"),
        ("I doubt that this is AI-generated.", BINARY, "B"),
        ("Hard to believe this is real.", BINARY, "A"),
        ("It's too clean to be real.", BINARY, "A"),
        ("Far from real.", BINARY, "A"),
        ("It would be a stretch to call this AI-generated.", BINARY, "B"),
        # "no doubt" and "without a doubt" affirm
        ("No doubt it's real.", BINARY, "B"),
        ("Without a doubt, AI-generated.", BINARY, "A"),
        # neither side
        ("Neither real nor generated; a composite.", BINARY, "Z"),
        # a final cue after a leading letter; "but so does D" offers a second option
        ("A: the texture says GAN. Final: B.", GENS, "B"),
        ("B seems right, but so does D.", GENS, "Z"),
    ],
)
def test_round_11e_sides(answer: str, options: dict[str, str], letter: str) -> None:
    assert extract_option(answer, options).letter == letter


CANDIDATES = {"A": "Candidate 1", "B": "Candidate 2", "C": "Candidate 3", "D": "Candidate 4"}


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # descriptions that place something in a region; answers to another question
        ("The woman in the bottom left is reading a newspaper on a bench.", REGIONS, "Z"),
        ("It's in the bottom left.", REGIONS, "C"),
        ("The edited part sits in the bottom left.", REGIONS, "C"),
        ("A dog walks past the fountain in the top right of the frame, tail up.", REGIONS, "Z"),
        ("The forged area is located in the top right.", BINARY, "Z"),
        ("The metadata lists Adobe Photoshop.", MANIP, "Z"),
        ("The EXIF says Photoshop, and the cloned fence confirms it: AI-manipulated.", MANIP, "B"),
        ("Candidate 3 denotes the forged area most accurately.", CANDIDATES, "C"),
        ("Option 3.", REGIONS, "C"),
        # an answer outside the list; a close call; a pick taken back or not committed to
        ("A latent-consistency model, none of these.", GENS, "Z"),
        ("B or D; a close call between those two.", GENS, "Z"),
        ("My gut says Candidate 2, but I'd rather not commit to it.", CANDIDATES, "Z"),
        ("I was about to say C, but I take that back.", GENS, "Z"),
        # letters that are names
        ("We may need a Plan B here: the image is too small.", REGIONS, "Z"),
        ("The bottle of vitamin C looks pasted in from another photo.", KINDS, "A"),
        ("Part D of the prompt is missing.", CANDIDATES, "Z"),
        # spacing between two boxes; "X — no, Y"; a counterfactual "right answer"
        (r"$\boxed{A}$ \qquad $\boxed{D}$", GENS, "Z"),
        ("A — no, B. The sensor noise is uniform.", BINARY, "B"),
        ("If nothing had been touched, the right answer would be 'Top left'.", REGIONS, "Z"),
        # generic statements about each option: no claim
        ("GANs are known for checkerboard artefacts, while diffusion models are common in "
         "text-to-image apps.", GENS, "Z"),
    ],
)  # fmt: skip
def test_round_11g_forms(answer: str, options: dict[str, str], letter: str) -> None:
    assert extract_option(answer, options).letter == letter


def test_a_correction_cut_off_before_it_names_its_option_chooses_nothing() -> None:
    cut = (
        "The edit is the big object in the middle. Option A gives [274, 46], which spans to x=632 "
        "- wait, that exceeds the width. Option C gives [186, 122], spanning x=186 to"
    )
    assert extract_option(cut, GENS).letter == "Z"
    whole = (
        "B. [ 0, 1 ]\n\nCorrection: the seams are in frames 6 and 7, so the answer is C. [ 6, 7 ]."
    )
    assert extract_option(whole, FRAMES).letter == "C"
