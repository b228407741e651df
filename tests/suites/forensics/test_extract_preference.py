"""The eighth round of the rules (issue 39, the h39-fresh11 batch's tuning half): a choice stated
against another option, eliminations written in words, rankings and scores in other notations,
conditionals over two sentences, counterfactuals, and mentions that only say what is looked for."""

from __future__ import annotations

import pytest

from forgebench.suites.forensics.extract import extract_option

BINARY = {"A": "AI-generated", "B": "non AI-generated"}
MANIP = {"A": "AI-manipulated", "B": "non AI-manipulated"}
REGIONS = {"A": "Top left", "B": "Top right", "C": "Bottom left", "D": "Bottom right"}
KINDS = {"A": "Splicing", "B": "Copy-Move", "C": "Removal", "D": "Face Swap (Single Face)"}
GENS = {
    "A": "Generative Adversarial Networks",
    "B": "Diffusion models",
    "C": "Encoder-Decoder",
    "D": "Graphics-based methods",
}
FRAMES = {"A": "[ 3, 4, 5 ]", "B": "[ 0, 1 ]", "C": "[ 6, 7 ]", "D": "[ 2 ]"}
FOUR = {"A": "Candidate 1", "B": "Candidate 2", "C": "Candidate 3", "D": "Candidate 4"}


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # a choice against another option: the other one is passed over
        ("I'd choose GANs over diffusion models here: the grid artifacts give it away.", GENS, "A"),
        ("I'd go with the top left rather than the bottom right.", REGIONS, "A"),
        ("Between the two I'd pick AI-generated over non AI-generated.", BINARY, "A"),
        # "more consistent with X than with Y" on a binary pair: X; the compared side ends with
        # its clause ("..., so the pair is AI-manipulated" is not part of it)
        (
            "The bokeh is more consistent with an AI-generated image than with a real photograph.",
            BINARY,
            "A",
        ),
        (
            "That mismatch is more consistent with a swapped word than with an authentic pairing, "
            "so the pair is AI-manipulated.",
            MANIP,
            "A",
        ),
        # a superlative "most consistent with" claims, even cut off after it
        ("The edit is most consistent with Splicing, since the lighting on the person", KINDS, "A"),
        # eliminations in words: the list ends where the answer turns to its pick
        (
            "Eliminating top left, top right and bottom left, the answer is bottom right.",
            REGIONS,
            "D",
        ),
        ("Splicing, copy-move and removal are ruled out, so face swap remains.", KINDS, "D"),
        (
            "Frame 0 is clean, which rules out B, C and D at once. Only frame 1 is swapped.",
            FOUR,
            "A",
        ),
        # a concluding letter after several eliminations is not itself eliminated
        (
            "B is out. The edges rule out C. Frame 2 looks clean, eliminating D. So A.",
            FRAMES,
            "A",
        ),
        # "by elimination" concludes; "no face swapped either" is no "either X or Y"
        (
            "A VAE would be blurrier. There's no source face being swapped either, which rules out "
            "the encoder-decoder. By elimination: Graphics-based methods.",
            GENS,
            "D",
        ),
        # a ranking after "most likely ..., in order:", lists kept whole
        ("Most likely forged sets, in order: [ 2 ], [ 3, 4, 5 ], [ 0, 1 ], [ 6, 7 ]", FRAMES, "D"),
        # scores with a decimal comma
        ("Probabilités : A 0,2 ; B 0,7 ; C 0,05 ; D 0,05", GENS, "B"),
    ],
)
def test_a_choice_written_against_the_others_is_read(
    answer: str, options: dict[str, str], letter: str
) -> None:
    assert extract_option(answer, options).letter == letter


@pytest.mark.parametrize(
    ("answer", "options"),
    [
        # a conditional over two sentences
        (
            "If the shadow under the vase is original, then the pasted object is in the bottom "
            "left. Otherwise the edited area is the window in the top right.",
            REGIONS,
        ),
        # "if anything was edited, X would be the closest": a conditional pick
        (
            "If anything was manipulated, Candidate 2 would be the closest match, but I don't see "
            "clear evidence of tampering.",
            FOUR,
        ),
        # a preference that a doubt takes back
        ("I lean towards bottom right over top left, but I'm not sure.", REGIONS),
        # "it could be either" still hedges
        (
            "Frame 2 stands out. However, frames 6 and 7 also have a colour shift, so it could be "
            "either.",
            FRAMES,
        ),
        # what the answer says it will look for is no claim
        (
            "I'll analyze the video frames for common deepfake artifacts. Frames 1-3: natural. "
            "Frames 4-6: slight jitter. Frames 7-8: The",
            BINARY,
        ),
        # "more likely X than Y" among four options alone picks nothing (LABELLING.md)
        ("Removal is more likely than splicing.", KINDS),
    ],
)
def test_conditionals_hedges_and_searches_pick_nothing(
    answer: str, options: dict[str, str]
) -> None:
    assert extract_option(answer, options).letter == "Z"


def test_a_counterfactual_set_aside_names_nothing() -> None:
    """'If only the last frame were forged, ... Instead ...': the last frame is no pick."""
    answer = (
        "If only the last two frames were forged, the face would jump at frame 6. Instead the "
        "jump happens at frame 3 and lasts until frame 5, so the forged frames are 3, 4 and 5."
    )
    assert extract_option(answer, FRAMES).letter == "A"


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # an option's words alone open the answer as its verdict; what follows explains it
        (
            "Candidate 3. It covers the full face and the blending boundary at the forehead; "
            "Candidate 4 stops at the eyebrows.",
            FOUR,
            "C",
        ),
        (
            "Diffusion models, in my opinion. The hands are correct. I'm reasonably confident, "
            "although the newest GANs have gotten good at this too.",
            GENS,
            "B",
        ),
        ("**Splicing.** The light differs; copy-move would show duplicated texture.", KINDS, "A"),
        # not when a later sentence turns to another option, or the opening is a list's label
        ("Top left. Actually, bottom right.", REGIONS, "D"),
        ("Splicing. Or maybe copy-move.", KINDS, "Z"),
        ("Top left. That said, if the shadow is natural, it is the bottom right.", REGIONS, "Z"),
        ("- Splicing: possible. - Copy-move: possible.", KINDS, "Z"),
        ("**Splicing**: the light differs. **Copy-Move**: duplicated texture.", KINDS, "Z"),
    ],
)
def test_an_opening_verdict_in_words_stands(
    answer: str, options: dict[str, str], letter: str
) -> None:
    assert extract_option(answer, options).letter == letter


BOXES = {
    "A": '{ "forged area": [ [ 274, 46, 358, 167 ] ] }',
    "B": '{ "forged area": [ [ 274, 46, 358, 167 ], [ 220, 35, 330, 169 ] ] }',
    "C": '{ "forged area": [ [ 186, 122, 333, 196 ] ] }',
    "D": '{ "forged area": [ [ 1, 120, 295, 192 ] ] }',
}
VIDEO_GENS = {
    "A": "Proprietary",
    "B": "Variational Auto-Encoders",
    "C": "Recurrent Neural Networks",
    "D": "Encoder-Decoder&Graphics-based methods",
}


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # a runner-up named after the pick: the pick
        (
            "C; B is the runner-up. The texture could also hint at B, but the intent is removal.",
            KINDS,
            "C",
        ),
        (
            "My pick is Encoder-Decoder&Graphics-based methods, with Variational Auto-Encoders as a "
            "second choice.",
            VIDEO_GENS,
            "D",
        ),
        ("I'd choose C over A. The face has a rigid, rendered look.", GENS, "C"),
        ("A rather than B.", KINDS, "A"),
        ("Candidate 3, not Candidate 2. Candidate 2 also takes in a strip of wall.", FOUR, "C"),
        # a binary verdict first, then why
        (
            "AI-manipulated — a close call against non AI-manipulated, but the caption reads edited.",
            MANIP,
            "A",
        ),
        # "nothing about it suggests X": not X
        (
            "A genuine photograph — nothing about it suggests it was made by a generative model.",
            BINARY,
            "B",
        ),
        # a bare number over options numbered in order
        ("1", FOUR, "A"),
        # a verdict in bold with a tick, then a list; "either ... or" between verbs weighs nothing
        (
            "**Candidate 1** ✔️\n\n- Follows the region\n- Candidates 2-4 either overshoot or miss",
            FOUR,
            "A",
        ),
        # "adversarial or diffusion-based": two options named
        (
            "Some neural generator, adversarial or diffusion-based, not a graphics pipeline.",
            GENS,
            "Z",
        ),
        # a letter followed by another option's box; a box list cut off inside
        ('A. { "forged area": [ [ 186, 122, 333, 196 ] ] } is the inserted man.', BOXES, "Z"),
        ('{ "forged area": [ [ 274, 46, 358, 167 ]', BOXES, "Z"),
        # not verdicts: a statement that contradicts itself, a letter list, a sarcastic opening
        ("It is real. It is AI-generated. It is real. It is", BINARY, "Z"),
        ("C; D", FOUR, "Z"),
    ],
)
def test_runner_ups_and_openings(answer: str, options: dict[str, str], letter: str) -> None:
    assert extract_option(answer, options).letter == letter


def test_a_sarcastic_opening_is_no_verdict() -> None:
    """'Totally untouched, sure... if you ignore ...': the opening is not the answer."""
    answer = "Totally untouched, sure... if you ignore the floating shadow. It's manipulated."
    assert extract_option(answer, MANIP).letter != "B"


KINDS_FACE = {
    "A": "Face Reenactment",
    "B": "Image Enhancement",
    "C": "Face Editing",
    "D": "Style Translation",
}
BOX_SET = {
    "A": '{ "forged area": [ [ 512, 0, 300, 260 ] ] }',
    "B": '{ "forged area": [ [ 96, 410, 220, 300 ] ] }',
    "C": '{ "forged area": [ [ 600, 420, 350, 300 ] ] }',
    "D": '{ "forged area": [ [ 1, 120, 295, 192 ] ] }',
}


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # paraphrases of the kinds, generators and sides
        (
            "It's been retouched for quality, sharpened and denoised, nothing added.",
            KINDS_FACE,
            "B",
        ),
        ("The expressions are driven by another actor's facial motion.", KINDS_FACE, "A"),
        ("Only attributes were altered: he looks older and wears glasses.", KINDS_FACE, "C"),
        ("A photo re-rendered to look like a Van Gogh painting.", KINDS_FACE, "D"),
        ("An autoencoder with a shared encoder and per-identity decoders.", GENS, "C"),
        ("Made by a machine.", BINARY, "A"),
        ("This clip was captured by a real camera; the motion blur is plausible.", BINARY, "B"),
        ("The person on the right was cut from a different photograph.", KINDS, "A"),
        # corner pairs with words between them
        ("Top-left corner at (600, 420), bottom-right corner at (950, 720).", BOX_SET, "C"),
        # a numbered list of every option in another order ranks them; in the question's order
        # it only restates them
        (
            "1. Diffusion models\n2. Generative Adversarial Networks\n3. Encoder-Decoder\n"
            "4. Graphics-based methods",
            GENS,
            "B",
        ),
        (
            "1. Generative Adversarial Networks\n2. Diffusion models\n3. Encoder-Decoder\n"
            "4. Graphics-based methods",
            GENS,
            "Z",
        ),
        # a score per frame list
        ("[3,4,5]: 0.30\n[0,1]: 0.10\n[6,7]: 0.45\n[2]: 0.15", FRAMES, "C"),
        # ticks after a restated option list
        ("A. Candidate 1 ✗\nB. Candidate 2 ✗\nC. Candidate 3 ✓\nD. Candidate 4 ✗", FOUR, "C"),
        # a conditional that the last sentence settles; one left open
        (
            "If the shadow is part of the forgery, Candidate 2; if not, Candidate 4. Looking "
            "closely, the shadow is clearly painted in, so Candidate 2.",
            FOUR,
            "B",
        ),
        ("If the shadow is part of the forgery, Candidate 2; if not, Candidate 4.", FOUR, "Z"),
        # Cyrillic and Greek capitals alone
        ("С.", REGIONS, "C"),
        ("Β", BINARY, "B"),
        # hedges: "can't pin down", "X or not", "not actually able to tell" after a correction
        ("Frames 0 and 1, possibly also 2 — I can't pin down whether 2 is tampered.", FRAMES, "Z"),
        ("Fake or not, I'd need the original file and its metadata to check.", MANIP, "Z"),
        ("C. Sorry, that's wrong — I'm not actually able to tell from this image.", FOUR, "Z"),
    ],
)
def test_round_nine_forms(answer: str, options: dict[str, str], letter: str) -> None:
    assert extract_option(answer, options).letter == letter


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # a pick that the answer itself takes back, or never makes
        (
            "Slight lean towards AI-generated, but it's marginal and I wouldn't commit to it.",
            BINARY,
            "Z",
        ),
        ("I'd go with GANs. On second thought, I'll refrain from picking.", GENS, "Z"),
        ("Non AI-manipulated... or is it? I'll leave it undecided.", MANIP, "Z"),
        (
            "AI-manipulated, I think, but I wouldn't put much weight on that. I genuinely don't know.",
            MANIP,
            "Z",
        ),
        (
            "Both are plausible: the light could be natural or edited. Neither fits clearly better.",
            MANIP,
            "Z",
        ),
        (
            "For one side: a flicker. For the other: natural blinking. I weigh these about equally.",
            MANIP,
            "Z",
        ),
        (
            "My best guess would be D, though I'm genuinely unsure whether frame 5 belongs.",
            FRAMES,
            "Z",
        ),
        (
            "If only one region was altered, the answer is A; if both people were edited, it's B.",
            FOUR,
            "Z",
        ),
        # cut off while reconsidering after a conclusion; a check that then concludes stands
        (
            "So Graphics-based methods (D) is my leading hypothesis. But wait, the hair. That's",
            GENS,
            "Z",
        ),
        (
            "So the plane in the top right. B.\n\nWait, the grass? Hmm, not convincing.\n\nFinal: B",
            REGIONS,
            "B",
        ),
        # a letter that glosses another option's words
        ("So the answer is non AI-generated, i.e. \\boxed{A}.", BINARY, "Z"),
        ("So the answer is non AI-generated, i.e. \\boxed{B}.", BINARY, "B"),
        # a pick forced after a hedge, a score "at", a "Best:" line, "either way"
        ("I can't tell for sure. If I had to choose, I'd say AI-generated.", BINARY, "A"),
        ("Given the choice, top left. That corner has less sensor noise.", REGIONS, "A"),
        ("My estimate: C at 65%, A at 20%, B at 10%, D at 5%.", GENS, "C"),
        ("Candidate 1 covers half. Candidate 2 takes in the wall. Best: Candidate 3.", FOUR, "C"),
        ("Whether or not you think so, either way it is the top left. So A.", REGIONS, "A"),
        # a tool named by a kind of forgery claims nothing
        ("I can't determine this. I'd recommend a dedicated deepfake detector.", MANIP, "Z"),
    ],
)
def test_round_ten_hedged_picks(answer: str, options: dict[str, str], letter: str) -> None:
    assert extract_option(answer, options).letter == letter


FACES = {
    "A": "Face Swap (Multiple Faces)",
    "B": "Face Reenactment",
    "C": "Face Editing",
    "D": "Face Swap (Single Face)",
}
FRAMES8_Q = (
    "Please locate the forged frames in the given set of 8 frames, which are sampled from a "
    "video. The output format should be the a list of indexes indicating the forged frames."
)


def test_several_faces_swapped_and_frames_named_as_a_boundary() -> None:
    """'Every face ... swapped' is the multiple-faces option; 'past frame 5' names no frame."""
    assert extract_option("Every face in the group photo has been swapped.", FACES).letter == "A"
    assert extract_option("The faces of both people have been replaced.", FACES).letter == "A"
    answer = "The last two frames are the forged ones, once we get past frame 5."
    assert extract_option(answer, FRAMES, FRAMES8_Q).letter == "C"
