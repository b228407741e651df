"""The shapes of :mod:`forgebench.suites.forensics.answer_checks` through the rules: a last
sentence that takes the choice back, a verdict per option, a binary pair compared, a letter
whose words name another option in another language, "if so" conditionals and corrections
("just kidding", "pardon", "すみません"). Sentences written for these tests, not corpus rows."""

from __future__ import annotations

import pytest

from forgebench.suites.forensics.extract import extract_option

BINARY = {"A": "AI-generated", "B": "non AI-generated"}
MANIP = {"A": "AI-manipulated", "B": "non AI-manipulated"}
FOUR = {"A": "Candidate 1", "B": "Candidate 2", "C": "Candidate 3", "D": "Candidate 4"}
REGION = {"A": "Top left", "B": "Top right", "C": "Bottom left", "D": "Bottom right"}
GENS = {
    "A": "Generative Adversarial Networks",
    "B": "Diffusion models",
    "C": "Encoder-Decoder",
    "D": "Graphics-based methods",
}
FRAMES = {"A": "[ 0, 1, 5 ]", "B": "[ 1 ]", "C": "[ 0 ]", "D": "[ 0, 1 ]"}


@pytest.mark.parametrize(
    ("answer", "options", "letter", "why"),
    [
        # a last sentence that takes the choice back: a hedge, whatever came before
        ("Candidate 2 fits. Still, I'm not sure.", FOUR, "Z", "hedge"),
        ("Rule out A and C, so B? Not certain though.", FOUR, "Z", "hedge"),
        ("Top right, I guess. Hmm, really torn.", REGION, "Z", "hedge"),
        ("Diffusion or GAN. Both seem equally plausible.", GENS, "Z", "hedge"),
        ("Answer: D. Hard to call.", FOUR, "Z", "hedge"),
        ("Candidate 2 fits. I'm sure about it.", FOUR, "B", ""),
        # conditionals opened by "if so" / "if not" (after a question too)
        ("Were GAN tools used? If so, A.", GENS, "Z", "hedge"),
        ("Is frame 0 clean? If not, the answer is [ 0, 1 ].", FRAMES, "Z", "hedge"),
        # corrections
        ("B. Just kidding, D.", FOUR, "D", ""),
        ("Réponse : C. Pardon, je voulais dire A.", FOUR, "A", ""),
        ("答え：D。すみません、Bです。", FOUR, "B", ""),
    ],
)
def test_doubts_conditionals_corrections(
    answer: str, options: dict[str, str], letter: str, why: str
) -> None:
    got = extract_option(answer, options)
    assert (got.letter, got.why) == (letter, why), got


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        ("A: no\nB: no\nC: yes\nD: no", FOUR, "C"),
        ("Candidate 1 - No\nCandidate 2 - Yes\nCandidate 3 - No\nCandidate 4 - No", FOUR, "B"),
        ("Top left ✗ Top right ✓ Bottom left ✗ Bottom right ✗", REGION, "B"),
        ("GAN? No. Diffusion? No. Encoder-Decoder? Yes. Graphics? No.", GENS, "C"),
        ("A: likely, B: unlikely, C: unlikely, D: unlikely", FOUR, "A"),
        ("AI-generated: yes. Non AI-generated: no.", BINARY, "A"),
        ("Candidat 1 : oui. Candidat 2 : non. Candidat 3 : non.", FOUR, "A"),
        # two yeses, a maybe, no yes at all, or a comment per option with no verdict: Z
        ("A: yes\nB: no\nC: yes\nD: no", FOUR, "Z"),
        ("A: maybe, B: no, C: yes, D: no", FOUR, "Z"),
        ("A: no. B: no. C: no. D: no.", FOUR, "Z"),
        ("Top left: clean. Top right: blurred edge. Bottom right: clean.", REGION, "Z"),
        # a list of comments followed by a verdict is read by the verdict
        (
            "Top left: clean.\nTop right: blurred edge.\nBottom right: clean.\nAnswer: B",
            REGION,
            "B",
        ),
    ],
)
def test_per_option_verdicts(answer: str, options: dict[str, str], letter: str) -> None:
    assert extract_option(answer, options).letter == letter


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        ("More likely generated than real.", BINARY, "A"),
        ("More probably a genuine photo than a synthetic one.", BINARY, "B"),
        ("Plutôt réel que généré.", BINARY, "B"),
        ("Eher echt als KI-generiert.", BINARY, "B"),
        ("Raczej prawdziwe niż wygenerowane przez AI.", BINARY, "B"),
        ("Manipulated rather than untouched.", MANIP, "A"),
        # only the disfavoured half names a side: not read as that side
        ("AI 생성보다는 실제에 가깝습니다.", BINARY, "Z"),
        ("与其说是AI生成的，不如说是油画。", BINARY, "Z"),
    ],
)
def test_binary_comparisons(answer: str, options: dict[str, str], letter: str) -> None:
    assert extract_option(answer, options).letter == letter


@pytest.mark.parametrize(
    ("answer", "letter"),
    [
        ("Antwort: (C) Diffusionsmodell.", "Z"),  # C's letter, B's words in German
        ("Respuesta: (B) Diffusion.", "B"),  # its own words
        ("Réponse : (A) Generatives réseaux.", "A"),  # its own first word
        ("Answer: (D) Graphique.", "D"),  # French for D's own first word
        ("Réponse : (D) Diffusion.", "Z"),  # D's letter, B's first word
    ],
)
def test_letter_words_in_another_language(answer: str, letter: str) -> None:
    assert extract_option(answer, GENS).letter == letter


@pytest.mark.parametrize(
    ("answer", "letter"),
    [
        ("Nicht B, sondern D.", "D"),
        ("Ce n'est pas A ; la réponse est C.", "C"),
        ("No es la D; la respuesta es B.", "B"),
        ("Не A, а C.", "C"),
        ("B가 아니라 D입니다.", "D"),
        ("Aではありません。Cです。", "C"),
        ("不是D，是A。", "A"),
        ("D değil, A.", "A"),
        ("Niet A maar B.", "B"),
        ("Nie C, tylko B.", "B"),
        # a "not" that rules nothing out: still two letters
        ("Nicht sicher: B oder D.", "Z"),
    ],
)
def test_letters_ruled_out_in_other_languages(answer: str, letter: str) -> None:
    assert extract_option(answer, FOUR).letter == letter


KINDS = {"A": "Splicing", "B": "Copy-Move", "C": "Removal", "D": "Face Swap (Single Face)"}


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        ("Remvoal", KINDS, "C"),
        ("The answer is Copy-Mvoe.", KINDS, "B"),
        ("Diffusoin model", GENS, "B"),
        ("Candidtae 4", FOUR, "D"),
        ("Botton rihgt", REGION, "D"),
        # too far from every option, two options alike, or negated: not read
        ("Recoloring", KINDS, "Z"),
        ("Candidtae", FOUR, "Z"),
        ("Not Remvoal", KINDS, "Z"),
    ],
)
def test_misspelt_option_text(answer: str, options: dict[str, str], letter: str) -> None:
    assert extract_option(answer, options).letter == letter


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # another option offered as possible after the claim, or "or maybe" a second answer
        ("I'd say B. Then again, D is not impossible.", FOUR, "Z"),
        ("B? Perhaps D.", FOUR, "Z"),
        ("Answer: B\n\nWait, C is also plausible.", FOUR, "Z"),
        ("Frames 0 and 1, or maybe just 1.", FRAMES, "Z"),
        ("Answer: D. Just to be safe, B is second.", FOUR, "D"),
        # counterfactuals and "X if ..., Y if not": conditionals
        ("The answer would be A if the shadows were consistent, but they aren't.", BINARY, "Z"),
        ("B is right if we count the shadow; C if not.", FOUR, "Z"),
        ("B is right, since the shadow counts.", FOUR, "B"),
    ],
)
def test_second_thoughts_and_counterfactuals(
    answer: str, options: dict[str, str], letter: str
) -> None:
    assert extract_option(answer, options).letter == letter
