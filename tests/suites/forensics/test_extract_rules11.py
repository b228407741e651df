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
