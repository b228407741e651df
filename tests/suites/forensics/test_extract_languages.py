"""The rules on answers in other languages: their standard option wordings, their negators
and their corrections (:mod:`.wordings`, :mod:`.option_text`, :mod:`.answer_text`)."""

from __future__ import annotations

import pytest

from forgebench.suites.forensics.extract import extract_option

BINARY = {"A": "AI-generated", "B": "non AI-generated"}
MANIP = {"A": "non AI-manipulated", "B": "AI-manipulated"}
FOUR = {"A": "Candidate 1", "B": "Candidate 2", "C": "Candidate 3", "D": "Candidate 4"}
REGIONS = {"A": "Top left", "B": "Top right", "C": "Bottom left", "D": "Bottom right"}
KINDS = {"A": "Splicing", "B": "Copy-Move", "C": "Removal", "D": "Face Swap (Single Face)"}
GENS = {
    "A": "Generative Adversarial Networks",
    "B": "Diffusion models",
    "C": "Encoder-Decoder",
    "D": "Graphics-based methods",
}
MASKS = {
    "A": "Candidate 2",
    "B": "No area was manipulated.",
    "C": "Candidate 1",
    "D": "Candidate 3",
}


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # binary wordings and their negators (a wording without its negation is a trap)
        ("هذه الصورة غير حقيقية.", BINARY, "A"),
        ("الصورة ليست مولدة بالذكاء الاصطناعي.", BINARY, "B"),
        ("La foto fue creada por una IA.", BINARY, "A"),
        ("No fue creada por una IA.", BINARY, "B"),
        ("Das Foto ist unverändert und echt.", MANIP, "A"),
        ("Das Bild wurde nicht verändert.", MANIP, "A"),
        ("Bilden är inte AI-genererad.", BINARY, "B"),
        ("Snímek je skutečná fotografie, není vygenerovaný.", BINARY, "B"),
        ("AI 생성보다는 실제 사진에 가깝습니다.", BINARY, "B"),
        ("Это изображение создано нейросетью.", BINARY, "A"),
        ("Non è una foto scattata, è sintetica.", BINARY, "A"),
        # regions
        ("Il falso è nell'angolo inferiore destro.", REGIONS, "D"),
        ("Nicht im oberen linken Bereich, sondern im unteren rechten.", REGIONS, "D"),
        ("Sahte bölge sol alt köşede.", REGIONS, "C"),
        ("Подделка в правом нижнем углу.", REGIONS, "D"),
        ("Falsyfikat jest w lewym górnym rogu.", REGIONS, "A"),
        # manipulation kinds and generators
        ("L'objet a été effacé.", KINDS, "C"),
        ("Das Schild wurde gelöscht.", KINDS, "C"),
        ("Ничего не было удалено.", KINDS, "Z"),
        ("La montaña fue copiada y pegada dentro de la misma imagen.", KINDS, "B"),
        ("这个人是从另一张照片贴进来的。", KINDS, "A"),
        ("Фото сделано в мастерской.", KINDS, "Z"),
        ("Probablemente un modelo de difusión.", GENS, "B"),
        ("Generato da una rete generativa avversaria.", GENS, "A"),
        ("Нет, это не диффузионная модель.", GENS, "Z"),
        # candidates and "no area was manipulated"
        ("候选2最准确。", FOUR, "B"),
        ("Les candidats 2 et 4 conviennent.", FOUR, "Z"),
        ("Ninguna zona fue manipulada.", MASKS, "B"),
        ("Kein Bereich wurde manipuliert.", MASKS, "B"),
    ],
)
def test_other_languages_wordings(answer: str, options: dict[str, str], letter: str) -> None:
    assert extract_option(answer, options).letter == letter
