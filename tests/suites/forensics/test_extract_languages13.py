"""The rules on answers in other languages, round 12 (h39-fresh21's tuning half): a letter then
a correction (Norwegian, Polish, Hungarian, Greek, Hebrew, Bengali, Arabic), an elided French
"D'" opening the answer, "not sure at all" and cut-off answers in Japanese and Chinese, a
binary side "that can be ruled out", eliminations and option paraphrases
(:mod:`.other_languages`, :mod:`.hedge_words`, :mod:`.hedges`, :mod:`.other_forms`,
:mod:`.wordings_more`, :mod:`.final_cue`)."""

from __future__ import annotations

import pytest

from forgebench.suites.forensics.extract import extract_option

KINDS = {"A": "Splicing", "B": "Copy-Move", "C": "Removal", "D": "Face Swap (Single Face)"}
MODELS = {
    "A": "Generative Adversarial Networks",
    "B": "Diffusion models",
    "C": "Encoder-Decoder",
    "D": "Graphics-based methods",
}
REGIONS = {"A": "Top left", "B": "Top right", "C": "Bottom left", "D": "Bottom right"}
MANIPULATED = {"A": "non AI-manipulated", "B": "AI-manipulated"}
GENERATED = {"A": "AI-generated", "B": "non AI-generated"}


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # a letter, then a correction in the answer's language: the corrected letter
        ("C. Unnskyld, jeg mente B.", KINDS, "B"),
        ("A. Właściwie nie, to usunięcie: C.", KINDS, "C"),
        ("B. Javítom: a helyes válasz C.", KINDS, "C"),
        ("A... όχι, διόρθωση: D.", KINDS, "D"),
        ("C. Συγγνώμη, η σωστή απάντηση είναι A.", KINDS, "A"),
        ("A. עכשיו אני רואה, טעיתי — התשובה היא C.", KINDS, "C"),
        ("উত্তর B। দুঃখিত, সঠিক উত্তর D।", KINDS, "D"),
        ("C. عذرا، الإجابة الصحيحة هي A.", KINDS, "A"),
        # an elided "D'" / "L'" opening a sentence of prose is no letter
        ("D'après l'ombre, c'est une suppression.", KINDS, "C"),
        ("D'istinto direi un modello di diffusione.", MODELS, "B"),
        # a pick the answer is not sure of: no choice; a contrast after a hedge: its claim
        ("Direi C, ma non ne sono per niente sicura.", KINDS, "Z"),
        ("D인 것 같지만 확실하지는 않아요.", KINDS, "Z"),
        ("Je dirais A, mais je ne suis plus sûre.", KINDS, "Z"),
        ("Ik kies B. Zeker weten doe ik het niet.", KINDS, "Z"),
        ("Usunięcie albo splicing, trudno rozstrzygnąć.", KINDS, "Z"),
        ("Saya tidak yakin, tapi menurut saya ini difusi: B.", MODELS, "B"),
        ("Трудно сказать, но фото выглядит настоящим.", GENERATED, "B"),
        # a binary side that "can be ruled out": the other side
        ("«AI-manipulated» kan udelukkes.", MANIPULATED, "A"),
        ("Die Antwort non AI-manipulated kann ausgeschlossen werden.", MANIPULATED, "B"),
        ("L'option « non AI-generated » peut être exclue.", GENERATED, "A"),
        # eliminations and paraphrases
        ("On peut exclure A, C et D ; il reste B.", KINDS, "B"),
        ("Wykluczam A, C i D, zostają modele dyfuzyjne.", MODELS, "B"),
        ("To są metody graficzne.", MODELS, "D"),
        # rankings, runner-ups and "instead of" after the letter
        ("Do mais ao menos plausível: C, A, D, B.", KINDS, "C"),
        ("Рейтинг ответов: B, D, A, C.", KINDS, "B"),
        ("可能性の高い順に：C、D、A、B。", KINDS, "C"),
        ("从最可信到最不可信：A、C、B、D。", KINDS, "A"),
        ("C, con B como segunda opción.", KINDS, "C"),
        ("A, met D als tweede keuze.", KINDS, "A"),
        ("D'yi seçiyorum; ikinci tercihim C.", KINDS, "D"),
        ("Wybieram A zamiast D.", KINDS, "A"),
        # corners and eliminations
        ("Manipüle edilen bölge sol üstte.", REGIONS, "A"),
        ("Het probleem zit in de linkeronderhoek.", REGIONS, "C"),
        ("הבעיה נמצאת בפינה השמאלית התחתונה.", REGIONS, "C"),
        ("Исключаем A, C и D — остаются модели диффузии.", MODELS, "B"),
        # a step list cut off mid-sentence in Japanese or Chinese: no choice
        (
            "順に見ます。\n\n1. 影の向き：右側から、\n2. 縁のぼやけ：右上の建物の輪郭が",
            REGIONS,
            "Z",
        ),
        ("逐步分析。\n\n1. 阴影方向：来自右侧，\n2. 边缘：右上角建筑的轮廓", REGIONS, "Z"),
    ],
)
def test_other_languages_round_12(answer: str, options: dict[str, str], letter: str) -> None:
    assert extract_option(answer, options).letter == letter
