"""The rules on answers in other languages, round 11 (h39-fresh17's tuning half): a letter then
a correction (German, Dutch, Arabic, Thai), a lean the answer will not commit to (French,
Italian, German, Spanish), conditionals, runner-ups, eliminations, decimal-comma scores and
settled conditionals (:mod:`.other_languages`, :mod:`.hedge_words`, :mod:`.hedges`,
:mod:`.answer_forms`)."""

from __future__ import annotations

import pytest

from forgebench.suites.forensics.extract import extract_option

BINARY = {"A": "AI-generated", "B": "non AI-generated"}
ARABIC = {"A": "مولّدة بالذكاء الاصطناعي", "B": "غير مولّدة بالذكاء الاصطناعي"}
FRAMES = {"A": "[ 2, 3, 4 ]", "B": "[ 0, 1 ]", "C": "[ 6, 7 ]", "D": "[ 4, 5, 6, 7 ]"}
AREAS = {
    "A": "Candidate 1",
    "B": "Candidate 2",
    "C": "Candidate 3",
    "D": "No area was manipulated.",
}
KINDS = {"A": "Splicing", "B": "Face Swap (Single Face)", "C": "Entire Synthesis", "D": "Removal"}
FOUR = {"A": "Candidate 1", "B": "Candidate 2", "C": "Candidate 3", "D": "Candidate 4"}
REGIONS = {"A": "Top left", "B": "Top right", "C": "Bottom left", "D": "Bottom right"}


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # a letter, then a correction in the answer's language: the corrected letter
        ("B – nein, Moment, es ist doch C.", FOUR, "C"),
        ("B. Correctie: kandidaat 3 klopt beter, dus C.", FOUR, "C"),
        ("الجواب B. عفوًا، الصحيح هو C.", FOUR, "C"),
        ("B ขออภัย คำตอบที่ถูกต้องคือ C", FOUR, "C"),
        ("B. Désolée, la bonne réponse est D.", FOUR, "D"),
        ("B. Mohon maaf, jawaban yang benar adalah D.", FOUR, "D"),
        ("B. Lo siento, la correcta es D.", FOUR, "D"),
        ("Désolé, je ne peux pas analyser cette image.", FOUR, "Z"),
        # a lean the answer will not commit to: no choice
        ("Légère préférence pour B, mais je ne m'engagerais pas.", FOUR, "Z"),
        ("Propendo per B, ma non mi sentirei di indicarla con certezza.", FOUR, "Z"),
        ("Vielleicht eher B, aber ich würde mich nicht festlegen.", FOUR, "Z"),
        ("Me inclino por B, aunque no me comprometería.", FOUR, "Z"),
        ("B, sans grande conviction.", FOUR, "Z"),
        # Arabic vowel marks, in the answer or in the options: the same words
        ("A: غير مُولَّدة بالذكاء الاصطناعي.", BINARY, "Z"),
        ("الصورة مُولَّدة بالذكاء الاصطناعي.", BINARY, "A"),
        ("الصورة مولدة بالذكاء الاصطناعي.", ARABIC, "A"),
        ("الصورة غير مولدة بالذكاء الاصطناعي.", ARABIC, "B"),
        # letters ruled out before a Turkish verb; scores with a decimal comma and no word for them
        ("B, C ve D'yi eledim; geriye A kalıyor.", FOUR, "A"),
        ("A ve B eliyorum.", FOUR, "Z"),
        ("Nicht KI-generiert: 0,35; KI-generiert: 0,65.", BINARY, "A"),
        ("KI-generiert: 0,40; nicht KI-generiert: 0,60.", BINARY, "B"),
        # a runner-up named before its letter, "rather than" before a letter: the other one
        ("C, запасной вариант: D.", FOUR, "C"),
        ("C; 备选D。", FOUR, "C"),
        ("C, runner-up: D.", FOUR, "C"),
        ("Ich nehme C statt D.", FOUR, "C"),
        ("Prefiero C en lugar de D.", FOUR, "C"),
        ("Jag tar C framför B.", FOUR, "C"),
        # a verdict per option in a table, in another language: the one chosen
        (
            "| Option | Urteil |\n|---|---|\n| A | ausgeschlossen |\n| B | unwahrscheinlich |\n| C | **ausgewählt** |\n| D | unwahrscheinlich |",
            FOUR,
            "C",
        ),
        ("| A | peu probable |\n| B | exclu |\n| C | choisi |\n| D | choisi |", FOUR, "Z"),
        # hesitated between two, then a pick: that one; then no pick: none
        ("Ho esitato tra B e C, ma alla fine scelgo B.", FOUR, "B"),
        (
            "J'ai hésité entre le coin en haut à droite et celui en bas à gauche, mais je retiens le coin en haut à droite.",
            REGIONS,
            "B",
        ),
        ("Ik twijfelde tussen B en C, maar ik kies C.", FOUR, "C"),
        ("I hesitated between B and C, but I went with C.", FOUR, "C"),
        ("Ho esitato tra B e C, ma non saprei.", FOUR, "Z"),
        # frame lists: French "images 3, 4 et 5", Vietnamese "chỉ số" (index), Korean "즉 2번과 3번"
        ("Les images 2, 3 et 4 sont modifiées.", FRAMES, "A"),
        ("Khung hình có chỉ số 0 và 1 bị chỉnh sửa.", FRAMES, "B"),
        ("마지막 두 프레임, 즉 6번과 7번이 조작되었습니다.", FRAMES, "C"),
        # paraphrases: no area, a face swap, an entire synthesis; a conclusion line
        ("Жодна ділянка не була підроблена.", AREAS, "D"),
        ("Итог: изменённых областей нет.", AREAS, "D"),
        ("Żaden obszar nie został zmieniony.", AREAS, "D"),
        ("Không có vùng nào bị chỉnh sửa.", AREAS, "D"),
        ("Le visage a été remplacé par celui d'une autre personne.", KINDS, "B"),
        ("Obraz jest w całości pełna synteza.", KINDS, "C"),
        ("사진 속 얼굴이 바뀌었습니다.", KINDS, "B"),
        (
            "الملاحظات كثيرة.\n\nالخلاصة: الصورة معدلة بالذكاء الاصطناعي.",
            {"A": "AI-manipulated", "B": "non AI-manipulated"},
            "A",
        ),
        ("Inclino-me para B, mas não me comprometeria.", FOUR, "Z"),
        ("Ik neig naar B, maar ik leg me niet vast.", FOUR, "Z"),
        ("Скорее B, но настаивать не буду; не стала бы утверждать.", FOUR, "Z"),
        ("Raczej B, ale nie upierałabym się.", FOUR, "Z"),
        ("Sanırım B, ama emin olamam.", FOUR, "Z"),
        ("Bかもしれませんが、断定はしません。", FOUR, "Z"),
        ("B 같지만 단정하지는 않겠습니다.", FOUR, "Z"),
        ("可能是B，但我不敢断定。", FOUR, "Z"),
        ("Kanske B, men jag vill inte låsa mig.", FOUR, "Z"),
        ("Có thể là B, nhưng tôi không dám khẳng định.", FOUR, "Z"),
        ("ربما B، لكني لا أجزم.", FOUR, "Z"),
        # two options ruled out with the language's "and": neither, and not the second
        ("Descarto B y D.", FOUR, "Z"),
        ("Ich schließe B und D aus.", FOUR, "Z"),
        ("Исключаю B и D.", FOUR, "Z"),
        ("Loại B và D.", FOUR, "Z"),
        # eliminations in Vietnamese, Arabic and Korean; runner-ups after a particle, "than"
        ("Loại bỏ A, C và D; còn lại B.", FOUR, "B"),
        ("أستبعد A وC وD، فيبقى B.", FOUR, "B"),
        ("A, C, D는 제외하면 B가 남습니다.", FOUR, "B"),
        ("B、次点はD。", FOUR, "B"),
        ("Wolę B niż D.", FOUR, "B"),
        ("Prefiero B antes que D.", FOUR, "B"),
        # two conditions, each with its pick: no choice, unless a last sentence settles it
        ("如果阴影是伪造的，就选B；如果不是，选D。", FOUR, "Z"),
        ("Wenn der Schatten gemalt ist, B; wenn nicht, dann D.", FOUR, "Z"),
        ("Als de schaduw geschilderd is, B; als hij echt is, D.", FOUR, "Z"),
        (
            "Als de schaduw geschilderd is, B; als hij echt is, D. Hier is hij geschilderd: B.",
            FOUR,
            "B",
        ),
        (
            "Wenn der Schatten gemalt ist, B; wenn nicht, D. Der Schatten ist gemalt, also B.",
            FOUR,
            "B",
        ),
    ],
)
def test_other_languages_round_11(answer: str, options: dict[str, str], letter: str) -> None:
    assert extract_option(answer, options).letter == letter
