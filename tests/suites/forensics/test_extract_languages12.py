"""The rules on answers in other languages, round 12 (h39-fresh18 and h39-fresh19's tuning
halves): "I can't commit" and "I withhold judgement" after a lean, corrections ("Koreksi",
"Ralat", "Oprava"), decimal-comma and percent-first scores, paraphrases of generators, kinds,
corners, frames and the binary sides, per-option "richtig"/"falsch", settled conditionals,
eliminations under a "by elimination" heading, "Cを選びます", a "both X and Y" inside one option
(:mod:`.hedge_words`, :mod:`.hedges`, :mod:`.other_languages`, :mod:`.other_forms`,
:mod:`.wordings`, :mod:`.wordings_more`, :mod:`.answer_checks`, :mod:`.final_cue`)."""

from __future__ import annotations

import pytest

from forgebench.suites.forensics.extract import extract_option

FOUR = {"A": "Candidate 1", "B": "Candidate 2", "C": "Candidate 3", "D": "Candidate 4"}
KINDS = {"A": "Splicing", "B": "Copy-Move", "C": "Removal", "D": "Face Swap (Single Face)"}
GENS = {
    "A": "Variational Auto-Encoders",
    "B": "Proprietary",
    "C": "Recurrent Neural Networks",
    "D": "Encoder-Decoder&Graphics-based methods",
}
FACES = {
    "A": "Face Reenactment",
    "B": "Face Swap (Multiple Faces)",
    "C": "Face Editing",
    "D": "Face Swap (Single Face)",
}
REGIONS = {"A": "Top left", "B": "Top right", "C": "Bottom left", "D": "Bottom right"}
GENERATED = {"A": "non AI-generated", "B": "AI-generated"}
MANIPULATED = {"A": "non AI-manipulated", "B": "AI-manipulated"}
FRAMES = {"A": "[ 3, 4, 5 ]", "B": "[ 0, 1 ]", "C": "[ 0 ]", "D": "[ 6, 7 ]"}


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # a lean, then "I can't commit" / "I withhold judgement" / "not sure": no choice
        ("Kandidat 2. Oder vielleicht Kandidat 3? Da kann ich mich nicht festlegen.", FOUR, "Z"),
        ("Candidato 2. ¿O quizás el candidato 3? No puedo comprometerme.", FOUR, "Z"),
        ("아마 스플라이싱(A)일 것 같지만 확실하지는 않아서 판단을 보류합니다.", KINDS, "Z"),
        ("たぶんスプライシング(A)ですが、判断を保留します。", KINDS, "Z"),
        ("可能是拼接(A)，但我保留判断。", KINDS, "Z"),
        ("ربما B؟ لست متأكدا.", REGIONS, "Z"),
        # a letter, then a correction: the corrected letter
        ("Jawaban: A. Ralat — ini lebih cocok dengan metode berbasis grafis, jadi D.", GENS, "D"),
        ("Odpověď: A. Oprava: správně je D.", GENS, "D"),
        # scores with a decimal comma after a dash, percent signs first, "Stime"
        ("Ймовірність: A — 0,1; B — 0,15; C — 0,25; D — 0,5.", FACES, "D"),
        ("Kandidat 1: 0,20 / Kandidat 2: 0,10 / Kandidat 3: 0,60 / Kandidat 4: 0,10", FOUR, "C"),
        (
            "Stime: Splicing 0,20; Copia-Sposta 0,10; Rimozione 0,60; Miglioramento 0,10.",
            KINDS,
            "C",
        ),
        ("Olasılıklar: Ekleme %10, Kopyala-Taşı %70, Kaldırma %15, Yüz Değiştirme %5.", KINDS, "B"),
        ("ימין למטה: 70%, שמאל למעלה: 10%, ימין למעלה: 10%, שמאל למטה: 10%.", REGIONS, "D"),
        ("A — 0,5; B — 0,5.", KINDS, "Z"),
        # paraphrases of the options in the answer's language
        ("El vídeo parece hecho con una herramienta comercial de código cerrado.", GENS, "B"),
        ("Video kapalı kaynaklı bir yazılımla üretilmiş.", GENS, "B"),
        ("Il video sembra generato con encoder-decoder e tecniche di grafica.", GENS, "D"),
        ("Nella foto sono stati scambiati i volti di più persone.", FACES, "B"),
        ("Na zdjęcie wklejono obiekt z innego zdjęcia.", KINDS, "A"),
        ("הזיוף נמצא בפינה השמאלית העליונה.", REGIONS, "A"),
        ("الصورة أصلية وغير مولدة بالذكاء الاصطناعي.", GENERATED, "A"),
        ("התמונה עברה מניפולציה באמצעות בינה מלאכותית.", MANIPULATED, "B"),
        ("Η φωτογραφία έχει δημιουργηθεί από τεχνητή νοημοσύνη.", GENERATED, "B"),
        ("Μόνο το πρώτο καρέ (δείκτης 0) έχει αλλοιωθεί.", FRAMES, "C"),
        ("Manipulerade bildrutor: 3, 4 och 5.", FRAMES, "A"),
        ("Các khung hình bị chỉnh sửa là khung 3, 4 và 5.", FRAMES, "A"),
        # a hedge, then "but it looks like ...": the claim after the turn
        ("Важко сказати напевно, але схоже на копіювання та переміщення фрагмента.", KINDS, "B"),
        # one line per option, one marked right
        ("A. Splicing – falsch\nB. Copy-Move – richtig, kopiert.\nC. Removal – falsch", KINDS, "B"),
        ("A. Splicing – errado\nB. Copy-Move – correto, copiado.\nC. Removal – errado", KINDS, "B"),
        # a conditional that the last sentence settles
        (
            "Om kanterna är suddiga är bilden AI-genererad, annars inte. Kanterna är suddiga, "
            "så svaret är B.",
            GENERATED,
            "B",
        ),
        (
            "만약 경계가 흐릿하다면 스플라이싱(A), 없다면 제거(C)입니다. 경계가 분명히 흐릿하므로 A입니다.",
            KINDS,
            "A",
        ),
        # eliminations under a "by elimination" heading; "I choose C" after two named
        (
            "Ausschlussverfahren: VAEs (A) passen nicht, ein proprietäres System (B) und RNNs (C) "
            "ebenfalls nicht. Es bleibt D.",
            GENS,
            "D",
        ),
        ("候補2と候補3で迷いましたが、輪郭まで覆っているのは候補3なので、Cを選びます。", FOUR, "C"),
        (
            "후보 2와 후보 3이 비슷하지만 윤곽을 다 덮는 것은 후보 3이므로 C를 선택합니다.",
            FOUR,
            "C",
        ),
        # "both X and Y" inside one option's description; naming two options stays Z
        (
            "A. Das Bild zeigt sowohl den Himmel als auch das Meer aus einem anderen Foto.",
            KINDS,
            "A",
        ),
        ("Es zeigt sowohl Splicing als auch Removal.", KINDS, "Z"),
    ],
)
def test_other_languages_round_12(answer: str, options: dict[str, str], letter: str) -> None:
    assert extract_option(answer, options).letter == letter
