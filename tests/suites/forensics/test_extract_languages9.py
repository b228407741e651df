"""The rules on answers in other languages, round 9 (h39-fresh12 and h39-fresh13's tuning
half): conditionals, hedges and refusals, comparisons among four options and letters before a
verb in the other languages (:mod:`.other_languages`, :mod:`.hedges`, :mod:`.wordings`)."""

from __future__ import annotations

import pytest

from forgebench.suites.forensics.extract import extract_option

BINARY = {"A": "AI-generated", "B": "non AI-generated"}
MANIP = {"A": "non AI-manipulated", "B": "AI-manipulated"}
FOUR = {"A": "Candidate 1", "B": "Candidate 2", "C": "Candidate 3", "D": "Candidate 4"}
REGIONS = {"A": "Top left", "B": "Top right", "C": "Bottom left", "D": "Bottom right"}
FRAMES = {"A": "[ 2, 3, 4 ]", "B": "[ 0, 1 ]", "C": "[ 6, 7 ]", "D": "[ 4, 5, 6, 7 ]"}
KINDS = {
    "A": "Face Reenactment",
    "B": "Splicing",
    "C": "Face Swap (Multiple Faces)",
    "D": "Removal",
}
SHUFFLED = {"A": "Candidate 3", "B": "Candidate 1", "C": "Candidate 4", "D": "Candidate 2"}
GENS = {
    "A": "Generative Adversarial Networks",
    "B": "Diffusion models",
    "C": "Encoder-Decoder",
    "D": "Graphics-based methods",
}


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # conditionals: "if ..., otherwise X" in each language is no choice
        ("Se l'ombra è originale, C; altrimenti sceglierei B.", FOUR, "Z"),
        ("Si l'ombre est d'origine, C ; sinon B.", FOUR, "Z"),
        ("Si la sombra es original, C; de lo contrario, B.", FOUR, "Z"),
        ("Wenn der Schatten echt ist, C, sonst B.", FOUR, "Z"),
        ("Falls der Schatten echt ist, dann C; andernfalls B.", FOUR, "Z"),
        ("Se a sombra for original, C; caso contrário, B.", FOUR, "Z"),
        ("Если тень настоящая, то C, иначе B.", FOUR, "Z"),
        ("Jeśli cień jest oryginalny, to C, w przeciwnym razie B.", FOUR, "Z"),
        ("Eğer gölge orijinalse C, aksi halde B.", FOUR, "Z"),
        ("もし影が本物ならC、そうでなければBです。", FOUR, "Z"),
        ("조작된 영역이 있다면 후보 2가 가장 정확하지만, 조작이 없을 수도 있습니다.", FOUR, "Z"),
        ("Wenn ich mich entscheiden muss: C.", FOUR, "C"),
        # hedges and refusals
        ("Δεν είμαι σίγουρος. Θα μπορούσε να είναι GAN ή μοντέλο διάχυσης.", GENS, "Z"),
        ("Πιθανώς A, αλλά δεν μπορώ να το επιβεβαιώσω.", FOUR, "Z"),
        ("Δεν είμαι σίγουρος, αλλά μάλλον είναι η απάντηση C.", FOUR, "C"),
        ("Yeterli bilgiye sahip değilim. Hem GAN hem de difüzyon olabilir.", GENS, "Z"),
        ("Hem GAN hem de difüzyon modelleri bu sonuçları üretebilir.", GENS, "Z"),
        ("Es tut mir leid, aber ich kann keine Aussagen darüber treffen.", MANIP, "Z"),
        ("Ich kann keine Einschätzung dazu abgeben, ob das Bild echt ist.", MANIP, "Z"),
        ("판단하기 어렵지만, 실제 사진처럼 보입니다.", BINARY, "B"),
        ("Zarówno GAN, jak i dyfuzja są możliwe.", GENS, "Z"),
        # "A is more likely than D" among four names two options; on a binary pair, one
        ("A ist wahrscheinlicher als D.", REGIONS, "Z"),
        ("A est plus probable que D.", REGIONS, "Z"),
        ("A è più probabile di D.", REGIONS, "Z"),
        ("GAN보다는 확산 모델일 가능성이 높습니다.", GENS, "Z"),
        ("GANよりも拡散モデルの可能性が高いと思います。", GENS, "Z"),
        ("GAN보다는 확산 모델일 가능성이 높습니다. 답: B", GENS, "B"),
        ("Ist A wahr? A ist die Antwort.", FOUR, "A"),
        # concluding cues of the other languages pick among options discussed before
        ("Kandidat 1 ist zu groß, Kandidat 3 passt. Meine Antwort lautet C.", FOUR, "C"),
        ("Le candidat 1 est trop grand. Donc, le candidat 3.", FOUR, "C"),
        ("El candidato 1 es demasiado grande. Respuesta: C", FOUR, "C"),
        ("Il candidato 1 è troppo grande; quindi il candidato 3.", FOUR, "C"),
        (
            "候補1と候補3はどちらも顔を覆っていますが、より正確なのは候補1です。答えはAです。",
            FOUR,
            "A",
        ),
        ("후보 1은 너무 큽니다. 따라서 후보 3입니다.", FOUR, "C"),
        ("Kandidat 1 ist zu groß. Daher Kandidat 1 oder Kandidat 3.", FOUR, "Z"),
        ("Antwort: (A) Diffusionsmodelle.", GENS, "Z"),
        # rankings "from most to least likely" (the first); "from least to most" is not read
        ("Ordenando las opciones de más a menos probable: D, A, C, B.", FOUR, "D"),
        ("Classement du plus probable au moins probable : D, C, A, B.", FOUR, "D"),
        ("Classifica dalla migliore alla peggiore: C, A, D, B.", FOUR, "C"),
        ("Vom wahrscheinlichsten zum unwahrscheinlichsten: B, D, A, C.", FOUR, "B"),
        ("可能性の高い順に：GAN ＞ 拡散モデル ＞ エンコーダ・デコーダ", GENS, "A"),
        ("Classement du moins probable au plus probable : D, C, A, B.", FOUR, "Z"),
        # corrections: "on second look" wins over what it corrects
        ("정답은 A입니다. 아니, 다시 보니 D가 맞습니다.", FOUR, "D"),
        ("La respuesta es A. Pensándolo mejor, es D.", FOUR, "D"),
        ("答えはAです。よく見ると、Dです。", FOUR, "D"),
        # frame lists and ranges in Japanese, Korean and French
        ("偽造フレームは6と7です。", FRAMES, "C"),
        ("위조된 프레임은 인덱스 2부터 4까지입니다.", FRAMES, "A"),
        ("Les trames falsifiées vont de 4 à 7.", FRAMES, "D"),
        ("偽造フレームは6か7です。", FRAMES, "Z"),
        # option nouns with a number in Russian, Greek, Hebrew; the option text "Candidate n"
        ("Вариант 3.", KINDS, "C"),
        ("Υποψήφιος 2.", KINDS, "B"),
        ("Απάντηση: Υποψήφιος 3.", SHUFFLED, "A"),
        ("לכן אני בוחר במועמד 2.", SHUFFLED, "D"),
        ("Ο υποψήφιος 3 ή ο υποψήφιος 1 ταιριάζουν.", SHUFFLED, "Z"),
        # Japanese and Korean binary wordings, with their negations
        ("AIによる改ざんはされていないと判断します。", MANIP, "A"),
        ("AIによる改ざんが行われています。", MANIP, "B"),
        ("改ざんの痕跡は見当たりません。", MANIP, "A"),
        ("改ざんされているかどうかは判断できません。", MANIP, "Z"),
        ("실제 영상", BINARY, "B"),
        # "probably A, but I can't confirm it": a hedge in each language
        ("Ймовірно, A, але я не можу це підтвердити.", FOUR, "Z"),
        ("Waarschijnlijk A, maar ik kan het niet bevestigen.", FOUR, "Z"),
        ("Troligen A, men jag kan inte bekräfta det.", FOUR, "Z"),
        ("शायद A, लेकिन मैं पुष्टि नहीं कर सकता।", FOUR, "Z"),
        ("可能是A，但我无法确认。", FOUR, "Z"),
        ("אולי A, אבל אני לא יכול לאשר.", FOUR, "Z"),
        ("شاید A باشد، اما نمی‌توانم تأیید کنم.", FOUR, "Z"),
        ("อาจเป็น A แต่ฉันไม่แน่ใจ", FOUR, "Z"),
        ("לא בטוח, אבל התשובה היא C.", FOUR, "C"),
        ("مطمئن نیستم، اما پاسخ C است.", FOUR, "C"),
        # eliminations: the one option left
        ("Descarto A, B y C, así que queda D.", FOUR, "D"),
        ("J'élimine A, B et C ; il reste D.", FOUR, "D"),
        ("Ich schließe A, B und C aus, also bleibt D.", FOUR, "D"),
        ("Исключаю A, B и C, остаётся D.", FOUR, "D"),
        ("A、B、Cを除外すると、残るのはDです。", FOUR, "D"),
        ("A, B, C를 제외하면 D가 남습니다.", FOUR, "D"),
        ("排除A、B和C，剩下D。", FOUR, "D"),
        ("Descarto A y B; entre C y D no sabría decir.", FOUR, "Z"),
        ("B. Scusa, la risposta corretta è C.", FOUR, "C"),
        # letters written in another script, with a Turkish suffix, after "answer:" in lower case
        ("С.", REGIONS, "C"),
        ("Β", BINARY, "B"),
        ("В", FOUR, "Z"),
        ("Doğru seçenek B'dir.", KINDS, "B"),
        ("Cevap C'dir, ama emin değilim.", FOUR, "Z"),
        ("antwoord: b", MANIP, "B"),
        ("respuesta: a o b", FOUR, "Z"),
        # two letters joined by another language's "and": both named, no article "A"
        ("A ve D eşit derecede olası.", FOUR, "Z"),
        ("A och D är lika troliga.", FOUR, "Z"),
        ("A en D zijn even waarschijnlijk.", FOUR, "Z"),
        ("A và D đều có khả năng như nhau.", FOUR, "Z"),
        ("A dan D sama-sama mungkin.", FOUR, "Z"),
        ("Диффузия вероятнее, чем GAN.", GENS, "Z"),
        ("Αν είναι συμπίεση, καμία· αλλιώς A.", FOUR, "Z"),
        ("압축 때문이라면 해당 없음, 아니라면 A입니다.", FOUR, "Z"),
        # Greek and Hebrew binary wordings and their negators
        ("Η εικόνα είναι δημιουργημένη από AI.", BINARY, "A"),
        ("Η εικόνα δεν είναι δημιουργημένη από AI.", BINARY, "B"),
        ("Δεν είναι πάνω αριστερά, είναι κάτω δεξιά.", REGIONS, "D"),
        ("התמונה נוצרה על ידי בינה מלאכותית.", BINARY, "A"),
        ("התמונה לא נוצרה על ידי בינה מלאכותית.", BINARY, "B"),
        ("זו לא תמונה אמיתית.", BINARY, "A"),
        ("קשה לומר. ייתכן שהתמונה נוצרה על ידי בינה מלאכותית, וייתכן שלא.", BINARY, "Z"),
        ("Δεν είμαι σίγουρος αν είναι δημιουργημένη από AI ή όχι.", BINARY, "Z"),
        # a negated option number names no option ("it is not candidate 1")
        ("No es el candidato 1.", GENS, "Z"),
        ("It is not candidate 1.", GENS, "Z"),
        ("Non è il candidato 1; è il candidato 3.", GENS, "C"),
        # a letter that contradicts the option text it quotes
        ("A: AI로 조작됨", MANIP, "Z"),
        ("B: AI로 조작됨", MANIP, "B"),
    ],
)
def test_round9_languages(answer: str, options: dict[str, str], letter: str) -> None:
    """Each language's standard forms added in round 9, with the hedged, conditional and
    two-option forms that must stay ``Z``."""
    assert extract_option(answer, options).letter == letter
