"""The rules on answers in other languages, round 10 (h39-fresh14's tuning half: 27 rarer
languages): hedges, "or maybe", conditionals, corners, binary wordings with their negators,
frame lists, option nouns with numbers and eliminations (:mod:`.hedge_words`, :mod:`.hedges`,
:mod:`.other_languages`, :mod:`.other_numbers`, :mod:`.other_forms`, :mod:`.wordings`)."""

from __future__ import annotations

import pytest

from forgebench.suites.forensics.extract import extract_option

BINARY = {"A": "AI-generated", "B": "non AI-generated"}
MANIP = {"A": "non AI-manipulated", "B": "AI-manipulated"}
FOUR = {"A": "Candidate 1", "B": "Candidate 2", "C": "Candidate 3", "D": "Candidate 4"}
REGIONS = {"A": "Top left", "B": "Top right", "C": "Bottom left", "D": "Bottom right"}
FRAMES = {"A": "[ 2, 3, 4 ]", "B": "[ 0, 1 ]", "C": "[ 6, 7 ]", "D": "[ 4, 5, 6, 7 ]"}
GENS = {
    "A": "Diffusion models",
    "B": "Graphics-based methods",
    "C": "Generative Adversarial Networks",
    "D": "Encoder-Decoder",
}


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # a pick taken back by a hedge, and hedges naming two options: no choice
        ("Možno C? Neviem to presne určiť.", FOUR, "Z"),
        ("Mislim da je C, ali ne mogu sa sigurnošću da kažem.", FOUR, "Z"),
        ("Sannsynligvis C, men jeg er ikke helt sikker.", FOUR, "Z"),
        ("Saya tidak pasti, mungkin C atau D.", FOUR, "Z"),
        ("Siguro C, pero hindi ako sigurado.", FOUR, "Z"),
        ("Не съм сигурен дали е C или D.", FOUR, "Z"),
        ("شاید C؟ یقین سے نہیں کہہ سکتا۔", FOUR, "Z"),
        ("Nem vagyok benne biztos, talán C.", FOUR, "Z"),
        ("Kandidat 2 au labda kandidat 3.", FOUR, "Z"),
        ("Kandidat 2 eller kanskje kandidat 3.", FOUR, "Z"),
        # paired sides ("neither ... nor", "both ... and", "either ... or"): two options named
        ("Ni GAN ni difuzija.", GENS, "Z"),
        ("Både GAN og diffusjon er mulige.", GENS, "Z"),
        ("Enten GAN eller diffusjon.", GENS, "Z"),
        ("Kako GAN, tako i difuzijski model.", GENS, "Z"),
        # Swahili "ni" is "it is" at a clause start, and after "hii" ("this is")
        ("Ni picha iliyotengenezwa na AI.", BINARY, "A"),
        ("Hii ni picha halisi.", BINARY, "B"),
        # conditionals
        ("Hvis skyggen er ekte, C; hvis ikke, B.", FOUR, "Z"),
        ("Ako je sjena originalna, C, inače B.", FOUR, "Z"),
        ("Dacă umbra este originală, C, altfel B.", FOUR, "Z"),
        ("Kama kivuli ni halisi, C, vinginevyo B.", FOUR, "Z"),
        # corners; a letter that contradicts the corner it quotes
        ("Подправената зона е горе вдясно.", REGIONS, "B"),
        ("Отговор: A (долу вдясно).", REGIONS, "Z"),
        ("Falšovaná oblasť je vľavo dole.", REGIONS, "C"),
        ("Krivotvoreno je u donjem lijevom kutu.", REGIONS, "C"),
        ("Не горе лево, него доле десно.", REGIONS, "D"),
        ("Øverst til venstre.", REGIONS, "A"),
        ("Ні, не верхньому лівому; у нижньому правому куті.", REGIONS, "D"),
        ("جعلی حصہ نیچے بائیں کونے میں ہے۔", REGIONS, "C"),
        ("Saxta hissə yuxarı sağ küncdədir.", REGIONS, "B"),
        ("Sa kaliwang ibaba ng larawan.", REGIONS, "C"),
        ("พื้นที่ปลอมอยู่มุมซ้ายบนของภาพ", REGIONS, "A"),
        # binary wordings, positive and negated
        ("Bildet er generert av kunstig intelligens.", BINARY, "A"),
        ("Bildet er ikke generert av kunstig intelligens.", BINARY, "B"),
        ("Slika je generisana veštačkom inteligencijom.", BINARY, "A"),
        ("Slika nije generisana.", BINARY, "B"),
        ("Videoen er manipuleret.", MANIP, "B"),
        ("Videoen er ikke manipuleret.", MANIP, "A"),
        ("Ang larawan ay hindi gawa ng AI.", BINARY, "B"),
        ("Ni AI-manipulated.", MANIP, "B"),
        ("یہ تصویر مصنوعی ذہانت سے بنائی گئی ہے۔", BINARY, "A"),
        ("התמונה אמיתית ולא נוצרה על ידי בינה מלאכותית.", BINARY, "B"),
        # model kinds, eliminations and rankings
        ("Slika je nastala difuzijskim modelom.", GENS, "A"),
        (
            "Αποκλείω τα GAN, τα γραφικά και τον κωδικοποιητή-αποκωδικοποιητή. Μένουν τα μοντέλα διάχυσης.",
            GENS,
            "A",
        ),
        ("Rangiranje od najverovatnijeg ka najmanje verovatnom: D, A, C, B.", GENS, "D"),
        # frame lists and option nouns with numbers
        ("Krivotvoreni su okviri 6 i 7.", FRAMES, "C"),
        ("Фалшифицирани са кадри 0 и 1.", FRAMES, "B"),
        ("Faltsututako fotogramak 2, 3 eta 4 dira.", FRAMES, "A"),
        ("เฟรมที่ปลอมคือเฟรมที่ 4 ถึง 7", FRAMES, "D"),
        ("শেষ দুটি ফ্রেম (৬ ও ৭) জাল।", FRAMES, "C"),
        ("Ehdokas 3 on tarkin.", FOUR, "C"),
        ("Najpresnejší je kandidát 4.", FOUR, "D"),
        ("Жауап — үшінші нұсқа.", FOUR, "C"),
    ],
)
def test_round10_languages(answer: str, options: dict[str, str], letter: str) -> None:
    """Each language's standard forms added in round 10, with the hedged, conditional and
    contradicting forms that must stay ``Z``."""
    assert extract_option(answer, options).letter == letter
