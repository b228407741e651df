"""The rules on answers in other languages: their standard option wordings, their negators
and their corrections (:mod:`.wordings`, :mod:`.option_text`, :mod:`.answer_text`)."""

from __future__ import annotations

import pytest

from forgebench.suites.forensics.extract import extract_option
from forgebench.suites.forensics.option_text import _phrase_pattern
from forgebench.suites.forensics.other_languages import needle, numbers_in_digits

BINARY = {"A": "AI-generated", "B": "non AI-generated"}
MANIP = {"A": "non AI-manipulated", "B": "AI-manipulated"}
FOUR = {"A": "Candidate 1", "B": "Candidate 2", "C": "Candidate 3", "D": "Candidate 4"}
SHUFFLED = {"A": "Candidate 3", "B": "Candidate 1", "C": "Candidate 4", "D": "Candidate 2"}
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
        ("Это фейк.", BINARY, "A"),
        ("Bu gerçek bir fotoğraf değil.", BINARY, "A"),
        ("Bu sahte değil, gerçek bir fotoğraf.", BINARY, "B"),
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


FRAMES8 = {"A": "[ 3, 4, 5 ]", "B": "[ 0, 1 ]", "C": "[ 6, 7 ]", "D": "[ 2 ]"}


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # a correction or an overturned first thought: what follows wins
        ("Antwort: A. Korrektur: B passt besser.", FOUR, "B"),
        ("C, mejor dicho D.", FOUR, "D"),
        ("答えはCです。失礼しました、正しくはDです。", FOUR, "D"),
        ("उत्तर: C। माफ़ कीजिए, मेरा मतलब B था।", FOUR, "B"),
        ("一开始我以为是左上，但其实是右下。", REGIONS, "D"),
        ("最初は左上だと思いましたが、右下です。", REGIONS, "D"),
        ("Zuerst dachte ich an Splicing, aber es ist Copy-Move.", KINDS, "B"),
        ("Сначала я думал, что это A, но на самом деле C.", FOUR, "C"),
        # ordinals over the options: that option where the numbers agree, Z where shuffled
        ("La tercera máscara es la mejor.", FOUR, "C"),
        ("La tercera máscara es la mejor.", SHUFFLED, "Z"),
        ("2番目のマスクが最も正確です。", FOUR, "B"),
        ("Direi la seconda maschera o forse la quarta.", FOUR, "Z"),
        ("第二个掩码，不是第三个。", FOUR, "B"),
        ("Die letzte Option.", FOUR, "D"),
        # two option numbers after one noun are two options; a negated number rules it out
        ("Kandidat 1 und 3 sind beide plausibel.", FOUR, "Z"),
        ("候选1和候选3都有可能。", FOUR, "Z"),
        ("候補1と候補3のどちらもありえます。", FOUR, "Z"),
        ("Nicht Kandidat 3.", FOUR, "Z"),
        ("不是候选3。", FOUR, "Z"),
        ("Ни GAN, ни диффузия.", GENS, "Z"),
        ("Candidate 1 - No\nCandidate 2 - No\nCandidate 3 - Yes", FOUR, "C"),
        # frame lists; a negated one never joins the others
        ("Los fotogramas 3, 4 y 5.", FRAMES8, "A"),
        ("被篡改的是第6帧和第7帧。", FRAMES8, "C"),
        ("フレーム0と1が改ざんされています。", FRAMES8, "B"),
        ("不是第0帧，是第1帧。", FRAMES8, "Z"),
        ("No los fotogramas 6 y 7, sino los fotogramas 0 y 1.", FRAMES8, "B"),
    ],
)
def test_other_languages_corrections_ordinals_and_frames(
    answer: str, options: dict[str, str], letter: str
) -> None:
    assert extract_option(answer, options).letter == letter


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # each added wording with its negation: the other side or Z, never the wording's side
        ("この動画は加工されていません。", MANIP, "A"),
        ("이 사진은 편집되지 않았습니다.", MANIP, "A"),
        ("Фото не было отредактировано.", MANIP, "A"),
        ("这不是人工智能生成的。", BINARY, "B"),
        ("La foto n'a pas été truquée.", MANIP, "A"),
        ("O vídeo não foi adulterado.", MANIP, "A"),
        ("Není to skutečná fotografie.", BINARY, "A"),
        ("Das Bild ist nicht unverändert.", MANIP, "B"),
        ("휴대폰으로 찍은 사진이 아닙니다.", BINARY, "A"),
        ("手机拍的？不是。", BINARY, "A"),
        ("Não está no canto inferior direito.", REGIONS, "Z"),
        ("Не в правом верхнем углу.", REGIONS, "Z"),
        ("右上角没有被篡改。", REGIONS, "Z"),
        ("Rien n'a été effacé.", KINDS, "Z"),
        ("Nichts wurde gelöscht.", KINDS, "Z"),
        ("아무것도 지워지지 않았습니다.", KINDS, "Z"),
        ("拡散モデルではありません。", GENS, "Z"),
        ("Não foi feita por uma rede adversária generativa.", GENS, "Z"),
        ("加工されたに違いありません。", MANIP, "B"),
        ("AI生成の特徴は見られない。", BINARY, "B"),
        ("Фото не было изменено.", MANIP, "A"),
        ("L'image n'a pas été altérée.", MANIP, "A"),
        ("Ninguna zona parece natural; el candidato 2 cubre la boca.", MASKS, "A"),
        ("Hiçbir bölge doğal görünmüyor.", MASKS, "Z"),
        ("No es una GAN sino un modelo de difusión.", GENS, "B"),
        ("与其说是AI生成的，不如说是实拍。", BINARY, "B"),
        # "I don't think" / "I doubt" reach past a comma; Korean "아니면" ("or") negates nothing
        ("No creo que esté en la esquina superior izquierda.", REGIONS, "Z"),
        ("Ich glaube nicht, dass es oben links ist.", REGIONS, "Z"),
        ("Не думаю, что это верхний левый угол.", REGIONS, "Z"),
        ("Dudo que sea un modelo de difusión.", GENS, "Z"),
        ("Kein Diffusionsmodell.", GENS, "Z"),
        ("왼쪽 위는 아닌 것 같습니다.", REGIONS, "Z"),
        ("아마 왼쪽 위 아니면 오른쪽 아래.", REGIONS, "Z"),
        ("No creo que sea real, sino generada por IA.", BINARY, "A"),
        # a conceded side ("although it looks real, ...") and a first impression overturned
        ("Aunque a primera vista parece real, la imagen fue generada por IA.", BINARY, "A"),
        ("Obwohl das Bild echt wirkt, ist es KI-generiert.", BINARY, "A"),
        ("虽然看起来很真实，但这是AI生成的。", BINARY, "A"),
        ("本物のように見えますが、AI生成です。", BINARY, "A"),
        ("AI生成ですが、背景は本物です。", BINARY, "Z"),
        ("진짜처럼 보이지만 AI가 만든 이미지입니다.", BINARY, "A"),
        ("Au premier abord on dirait une image générée, mais c'est une vraie photo.", BINARY, "B"),
        # hedges in Swedish and Czech, and a contrast after one that states a side
        ("Svårt att säga, kanske AI-genererad.", BINARY, "Z"),
        ("Nejsem si jistý, jestli je to skutečná fotografie.", BINARY, "Z"),
        ("Možná skutečná, možná vygenerovaná.", BINARY, "Z"),
        ("Těžko říct, ale vypadá to jako skutečná fotografie.", BINARY, "B"),
        # a pick followed by "but I'm not sure" takes it back
        ("Je dirais B, mais je ne suis pas sûr.", FOUR, "Z"),
        ("Direi B, ma non ne sono sicuro.", FOUR, "Z"),
        ("たぶんBですが、自信はありません。", FOUR, "Z"),
        ("아마 B인 것 같지만 확실하지 않습니다.", FOUR, "Z"),
        ("Acho que é B, mas não estou seguro.", FOUR, "Z"),
    ],
)
def test_other_languages_negation_and_hedges(
    answer: str, options: dict[str, str], letter: str
) -> None:
    assert extract_option(answer, options).letter == letter


@pytest.mark.parametrize(
    ("phrase", "literal"),
    [("Candidate 2", "candidate"), ("top left", "top"), ("échange de visage", "échange"),
     ("ai生成", "ai生成"), ("сгенерирован", "сгенерирован")],
)  # fmt: skip
def test_a_phrase_is_tried_only_where_its_first_literal_is(phrase: str, literal: str) -> None:
    """The substring gate before each wording's regex: the literal it needs, never more (an
    optional plural "s" is left out, or "top left" would never be tried)."""
    assert needle(_phrase_pattern(phrase)) == literal


FRAMES = {"A": "[ 5, 6, 7 ]", "B": "[ 2, 3 ]", "C": "[ 4 ]", "D": "[ 0, 1, 2, 3 ]"}


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # a pick, then "but I can't confirm / verify it" (more words between, more verbs)
        ("Sembra generata dall'IA, ma non posso confermarlo.", BINARY, "Z"),
        ("Parece gerada por IA, mas não posso confirmá-lo.", BINARY, "Z"),
        ("Wirkt KI-generiert, aber ich kann das leider nicht sicher bestätigen.", BINARY, "Z"),
        ("Snímek vypadá vygenerovaný, ale nemůžu to spolehlivě ověřit.", BINARY, "Z"),
        ("Wygląda na wygenerowane, ale nie mogę tego potwierdzić.", BINARY, "Z"),
        ("Nem tudom megmondani, melyik a helyes.", FOUR, "Z"),
        ("Non è possibile determinarlo: forse B.", FOUR, "Z"),
        # a refusal in another language quotes a side's word: no side
        ("Я не могу оценить подлинность этого снимка.", BINARY, "Z"),
        ("No puedo analizar si la foto es falsa.", BINARY, "Z"),
        # "X or not", "may be X or may not", both sides plausible, "как X, так и Y"
        ("Peut-être générée par l'IA ou non.", BINARY, "Z"),
        ("Puede ser generada por IA o no.", BINARY, "Z"),
        ("Kann KI-generiert sein oder auch nicht.", BINARY, "Z"),
        ("Может быть сгенерировано, а может и нет.", BINARY, "Z"),
        ("可能是AI生成的，也可能不是。", BINARY, "Z"),
        ("AI生成かもしれないし、そうでないかもしれません。", BINARY, "Z"),
        ("AI 생성일 수도 있고 아닐 수도 있습니다.", BINARY, "Z"),
        ("Beide Varianten sind plausibel.", BINARY, "Z"),
        ("Снимок может быть как сгенерированным, так и оригинальным.", BINARY, "Z"),
        ("Có thể là GAN hoặc mô hình khuếch tán.", GENS, "Z"),
        # a contrast after a hedge that only offers the other side too settles nothing
        ("Difficile à dire, mais elle pourrait aussi être réelle.", BINARY, "Z"),
        # ... one that states a side does
        ("No sé si es real o no, pero me inclino por generada por IA.", BINARY, "A"),
        # a letter, an admitted mistake, then the corrected answer
        ("C. Przepraszam, pomyliłam się: to jest A.", FOUR, "A"),
        ("D. Me equivoqué, la respuesta es B.", FOUR, "B"),
        ("B. Ich habe mich geirrt, richtig ist C.", FOUR, "C"),
        ("选A。不对，应该是C。", FOUR, "C"),
        ("C. 제가 잘못 봤습니다. 프레임(0, 1, 2, 3)이 위조되었습니다.", FRAMES, "D"),
        # "correcta" / "corretta" is no cue before the letter "a"
        ("La segunda opción, la B, es la correcta.", FOUR, "B"),
        # Polish, Ukrainian, Turkish, Romanian and Persian binary wordings with their negators
        ("Obraz został zmanipulowany przez AI.", MANIP, "B"),
        ("Videoclipul nu a fost manipulat de IA.", MANIP, "A"),
        ("Görüntü manipüle edilmemiş.", MANIP, "A"),
        ("Фото справжнє.", BINARY, "B"),
        ("Bu görüntü yapay zeka tarafından üretilmiştir.", BINARY, "A"),
        ("این تصویر واقعی است.", BINARY, "B"),
        # corners in Arabic, Persian and Greek; "候选图n"
        ("Η περιοχή είναι κάτω δεξιά.", REGIONS, "D"),
        ("المنطقة في الزاوية السفلية اليسرى.", REGIONS, "C"),
        ("پایین سمت چپ", REGIONS, "C"),
        ("候选图2最准确。", FOUR, "B"),
        # ordinals in Hungarian and Ukrainian, a Ukrainian correction, Korean options' own words
        ("A harmadik jelölt a legpontosabb.", FOUR, "C"),
        ("Найточніша друга маска.", FOUR, "B"),
        ("Відповідь: A. Перепрошую, точніше C.", FOUR, "C"),
        ("조작된 곳은 왼쪽 하단입니다.", {"A": "왼쪽 위", "B": "오른쪽 위", "C": "왼쪽 아래"}, "C"),
        # a bracketed gloss between an option's words and the negator after them
        ("複製（Copy-Move）ではありません。除去です。", KINDS, "C"),
        ("Si tratta di un metodo basato sulla grafica.", GENS, "D"),
        ("नकली फ्रेम इंडेक्स 4 है।", FRAMES, "C"),
        # number words that count frames or indexes
        ("Gefälscht sind die Frames zwei und drei.", FRAMES, "B"),
        ("伪造帧的索引是五、六、七。", FRAMES, "A"),
        ("偽造されたフレームはインデックス四だけです。", FRAMES, "C"),
        # Arabic option letters and digits, a Cyrillic "А" that stands for A
        ("الإجابة: (ج)", FOUR, "C"),
        ("الاحتمالات: أ) ٢٠٪، ب) ١٠٪، ج) ٥٠٪، د) ٢٠٪", FOUR, "C"),
        ("Ответ: «А».", FOUR, "A"),
        ("В левом верхнем углу.", REGIONS, "A"),
        ("结论：伪造帧为 2、3。", FRAMES, "B"),
        # the standard "I'm not in a position to say", "I can't be certain of it", "both possible"
        ("Je ne suis pas en mesure de dire si elle est générée par l'IA.", BINARY, "Z"),
        ("No tengo forma de saber si es real.", BINARY, "Z"),
        ("Ich bin nicht in der Lage zu sagen, ob es KI-generiert ist.", BINARY, "Z"),
        ("Non saprei dire se è reale.", BINARY, "Z"),
        ("Não dá para saber se é real.", BINARY, "Z"),
        ("Я не в состоянии определить, сгенерировано ли изображение.", BINARY, "Z"),
        ("Wahrscheinlich echt, aber sicher bin ich mir nicht.", BINARY, "Z"),
        ("Скорее всего настоящее, но точно сказать не могу.", BINARY, "Z"),
        ("大概是真实的，但我不敢肯定。", BINARY, "Z"),
        ("真实和AI生成都有可能。", BINARY, "Z"),
        ("おそらく本物ですが、確かではありません。", BINARY, "Z"),
        ("아마 진짜 사진이지만 장담할 수는 없습니다.", BINARY, "Z"),
        ("Bunun gerçek olup olmadığını bilemiyorum.", BINARY, "Z"),
        ("لا يمكنني تحديد ما إذا كانت الصورة حقيقية.", BINARY, "Z"),
        # ... and the side a contrast after it states
        ("確かではありませんが、本物だと思います。", BINARY, "B"),
        ("장담할 수는 없지만 진짜 사진 같습니다.", BINARY, "B"),
        ("Sicher bin ich mir nicht, aber es wirkt echt.", BINARY, "B"),
        # refusals that quote a side's words
        ("Lo siento, no puedo ayudar con la detección de imágenes generadas por IA.", BINARY, "Z"),
        ("Извините, я не могу помочь с определением, сгенерировано ли изображение.", BINARY, "Z"),
        ("申し訳ありませんが、画像がAI生成かどうかの分析はできません。", BINARY, "Z"),
        ("죄송하지만 이미지가 AI로 생성되었는지 분석할 수 없습니다.", BINARY, "Z"),
        ("Als KI kann ich keine Bilder sehen; ob es generiert ist, weiß ich nicht.", BINARY, "Z"),
        # both halves of a paired "either ... or" name two sides, even where one is unread
        ("Это либо сплайсинг, либо что-то ещё.", KINDS, "Z"),
        ("Entweder ein Gesichtstausch oder etwas anderes.", KINDS, "Z"),
        ("要么是拼接，要么是别的手法。", KINDS, "Z"),
        # "wait, no" after a letter, and "or rather": the corrected letter
        ("D. Espera, no: es la A.", FOUR, "A"),
        ("D. Attendez, non, c'est A.", FOUR, "A"),
        ("D. Подождите, нет — A.", FOUR, "A"),
        ("D。等等，是A。", FOUR, "A"),
        ("D. 잠깐만요, A입니다.", FOUR, "A"),
        ("D, o meglio A.", FOUR, "A"),
        ("Se espera que la respuesta sea clara: A.", FOUR, "A"),
        # "X, or maybe Y": a second answer offered
        ("D. Ou talvez A.", FOUR, "Z"),
        ("D. Oder vielleicht A.", FOUR, "Z"),
        ("D. Или, может быть, A.", FOUR, "Z"),
        # a choice made conditional: "it depends", "if X then C, otherwise B"
        ("如果阴影是原始的，选C，否则选B。", FOUR, "Z"),
        ("Depende de la resolución: podría ser real.", BINARY, "Z"),
        ("Es hängt davon ab, ob Metadaten vorhanden sind; vermutlich echt.", BINARY, "Z"),
        ("Dipende dalla compressione, forse generata.", BINARY, "Z"),
        ("Зависит от качества: возможно, настоящее.", BINARY, "Z"),
        ("Ni real ni generada: no lo sé.", BINARY, "Z"),
        ("我们需要看一下细节：这是AI生成的。", BINARY, "A"),
        # "more X than Y" in Spanish, French, Russian and Swedish: X
        ("Más real que generada.", BINARY, "B"),
        ("Más bien generada que real.", BINARY, "A"),
        ("Plus probablement réelle que générée.", BINARY, "B"),
        ("Более вероятно сгенерировано, чем реально.", BINARY, "A"),
        ("Bilden är mer sannolikt äkta än AI-genererad.", BINARY, "B"),
        # "as an AI, I can't verify ..." in Chinese, Japanese and Korean
        ("作为AI，我无法验证这张图片是否真实。", BINARY, "Z"),
        ("AIとして、この画像が本物かどうかを検証することはできません。", BINARY, "Z"),
        ("AI로서 이 이미지가 진짜인지 검증할 수 없습니다.", BINARY, "Z"),
        # a letter called wrong is ruled out: the other one is the answer
        ("A è sbagliata, C è giusta.", FOUR, "C"),
        ("A неверно, C верно.", FOUR, "C"),
        ("A是错的，C是对的。", FOUR, "C"),
        ("Aは間違いで、Cが正しいです。", FOUR, "C"),
        ("La A es incorrecta; la C es la buena.", FOUR, "C"),
        # "no, rather ..." after a letter corrects it
        ("D. Non, plutôt A.", FOUR, "A"),
        ("Antwort: D. Nein, doch A.", FOUR, "A"),
    ],
)
def test_other_languages_hedges_refusals_and_corrections_round7(
    answer: str, options: dict[str, str], letter: str
) -> None:
    """Round 7 (h39-fresh6/7 tuning): wrong letters from hedges after a pick, refusals, "or
    not", "both", and corrections after an admitted mistake, in the standard words."""
    assert extract_option(answer, options).letter == letter


def test_number_words_become_digits_only_after_a_frame_or_index_word() -> None:
    """ "zwei" after "Frames" is 2; English words that are number words elsewhere ("due",
    "um") and number words with no frame or index before them stay words."""
    assert numbers_in_digits("die Frames zwei und drei") == "die Frames 2 und 3"
    assert numbers_in_digits("the frames due to, um, flicker") == "the frames due to, um, flicker"
    assert numbers_in_digits("zwei Kandidaten") == "zwei Kandidaten"


GEN_KINDS = {
    "A": "Face Reenactment",
    "B": "Face Editing",
    "C": "Face Transfer",
    "D": "Face Swap (Multiple Faces)",
}
RANKED = {
    "A": "Proprietary",
    "B": "Variational Auto-Encoders",
    "C": "Encoder-Decoder",
    "D": "Recurrent Neural Networks",
}


@pytest.mark.parametrize(
    ("answer", "options", "letter"),
    [
        # corners: each language's words for top, bottom, left and right, in its order
        ("Jobb alsó sarok.", REGIONS, "D"),
        ("Vasen yläkulma.", REGIONS, "A"),
        ("Kiri bawah.", REGIONS, "C"),
        ("Area palsu berada di kanan atas.", REGIONS, "B"),
        ("Juu kulia.", REGIONS, "B"),
        ("மேல் இடது.", REGIONS, "A"),
        ("المنطقة المزورة في أعلى اليسار.", REGIONS, "A"),
        ("जाली क्षेत्र ऊपर बाईं ओर है।", REGIONS, "A"),
        ("Zona falsificată este în dreapta sus.", REGIONS, "B"),
        ("Nu în stânga jos.", REGIONS, "Z"),
        ("Bukan kiri bawah.", REGIONS, "Z"),
        # a candidate's number in words or after "number"; an ordinal after the noun names it
        ("Kandidat drei zeigt die Region am genauesten.", SHUFFLED, "A"),
        ("Candidatul patru.", SHUFFLED, "C"),
        ("Kandydat czwarty.", FOUR, "D"),
        ("Mgombea wa pili.", FOUR, "B"),
        # an ordinal after the noun is a position, as before it: Z over shuffled numbers
        ("Kandydat czwarty.", SHUFFLED, "Z"),
        ("Kandidat kedua paling akurat.", SHUFFLED, "Z"),
        ("Ứng viên thứ hai.", FOUR, "B"),
        ("Druga maska jest najdokładniejsza.", FOUR, "B"),
        ("Het derde masker.", FOUR, "C"),
        ("Üçüncü maske en doğru.", SHUFFLED, "Z"),
        ("Pierwsza maska lub trzecia.", FOUR, "Z"),
        ("Ứng viên số 4.", SHUFFLED, "C"),
        ("Calon 3.", SHUFFLED, "A"),
        ("La risposta corretta è la maschera numero quattro.", FOUR, "D"),
        ("候选二最准确。", FOUR, "B"),
        ("Le candidat un peu flou est le 3.", FOUR, "Z"),
        # two numbers after one noun ("2 या 4"), and "not sure" after a pick: Z
        ("उम्मीदवार 2 या 4 — दोनों लगभग समान दिखते हैं।", FOUR, "Z"),
        ("Kandidat dua, tapi saya kurang yakin.", FOUR, "Z"),
        ("Calon 1 atau 3.", FOUR, "Z"),
        # binary wordings and their negations
        ("Gambar ini bukan buatan AI.", BINARY, "B"),
        ("Imej ini dijana oleh AI.", BINARY, "A"),
        ("Nem MI által generált.", BINARY, "B"),
        ("A kép nem manipulált.", MANIP, "A"),
        ("Kuvaa ei ole muokattu tekoälyllä.", MANIP, "A"),
        ("Kuva on tekoälyn luoma.", BINARY, "A"),
        ("Picha hii imetengenezwa na AI.", BINARY, "A"),
        ("Picha hii ni halisi.", BINARY, "B"),
        ("Hii ni picha iliyotengenezwa na AI.", BINARY, "A"),
        ("இது AI உருவாக்கிய படம் அல்ல.", BINARY, "B"),
        ("Niet door AI gemanipuleerd.", MANIP, "A"),
        ("Imaginea nu este modificată.", MANIP, "A"),
        # "I can't say", "or not", "maybe X, maybe Y"
        ("Nu pot spune cu certitudine dacă imaginea este generată de AI sau nu.", BINARY, "Z"),
        ("En pysty sanomaan, onko kuva aito.", BINARY, "Z"),
        ("Siwezi kusema kama picha hii ni halisi.", BINARY, "Z"),
        ("Sukar untuk dipastikan sama ada gambar ini dijana oleh AI atau tidak.", BINARY, "Z"),
        ("சொல்ல முடியவில்லை.", BINARY, "Z"),
        ("Mungkin kiri atas, mungkin kanan bawah.", REGIONS, "Z"),
        # "both are possible" names two options: Z
        ("Kandydat 1 i kandydat 3 – oba są możliwe.", FOUR, "Z"),
        ("Linksboven en rechtsonder: beide zijn mogelijk.", REGIONS, "Z"),
        ("Sol üst ve sağ alt, ikisi de olası.", REGIONS, "Z"),
        ("Ứng viên 1 và ứng viên 3, cả hai đều có thể.", FOUR, "Z"),
        ("Bal felső vagy jobb alsó, mindkettő lehetséges.", REGIONS, "Z"),
        # manipulation kinds, generators; an elimination that leaves one
        ("Kohde on poistettu ja tausta täytetty, eli kyseessä on poisto.", KINDS, "C"),
        ("Yüz düzenleme: kişinin yaşı değiştirilmiş.", GEN_KINDS, "B"),
        ("Ein Face Swap mit mehreren Gesichtern.", GEN_KINDS, "D"),
        ("Wykluczam splicing, więc zostaje Copy-Move.", KINDS, "B"),
        # frame lists: "and", "to", "the frames are", two lists offered
        ("Die manipulierten Frames sind 4 bis 7.", FRAMES, "Z"),
        ("Die manipulierten Frames sind 5 bis 7.", FRAMES, "A"),
        ("Frame yang dipalsukan adalah frame 2 dan 3.", FRAMES, "B"),
        ("A hamisított képkockák: 2 és 3.", FRAMES, "B"),
        ("Los fotogramas falsificados son el 5, el 6 y el 7.", FRAMES, "A"),
        ("الإطار المزور هو الإطار ذو الفهرس 4 فقط.", FRAMES, "C"),
        ("போலியான சட்டகம் 4 மட்டுமே.", FRAMES, "C"),
        ("Potrebbero essere i fotogrammi 2 e 3 oppure il 5, il 6 e il 7.", FRAMES, "Z"),
        # scores and rankings written in other languages
        ("候補1: 10%、候補2: 15%、候補3: 60%、候補4: 15%", FOUR, "C"),
        ("候補1: 40%、候補2: 40%、候補3: 10%、候補4: 10%", FOUR, "Z"),
        ("可能性排序：B > C > A > D。", RANKED, "B"),
        ("Reihenfolge: D, B, A, C.", RANKED, "D"),
        ("Probabilités : A 0,2 ; B 0,7 ; C 0,05 ; D 0,05", GENS, "B"),
        ("Probabilités : A 0,4 ; B 0,4 ; C 0,1 ; D 0,1", GENS, "Z"),
        # option texts in another language: "Non généré par IA" makes a generated pair
        (
            "Verdict : l'image est générée par IA.",
            {"A": "Généré par IA", "B": "Non généré par IA"},
            "A",
        ),
        ("Ce n'est pas généré par IA.", {"A": "Généré par IA", "B": "Non généré par IA"}, "B"),
        (
            "O vídeo não foi manipulado por IA.",
            {"A": "Manipulado por IA", "B": "Não manipulado por IA"},
            "B",
        ),
        ("Наиболее точной выглядит маска номер три.", FOUR, "C"),
        ("Os quadros forjados são o segundo e o terceiro, ou seja, 2 e 3.", FRAMES, "B"),
        ("Il volto è stato sostituito con quello di un'altra persona.", KINDS, "D"),
        ("D ist ausgeschlossen, es ist C.", FOUR, "C"),
    ],
)
def test_round8_languages(answer: str, options: dict[str, str], letter: str) -> None:
    """Each language's standard forms added in round 8 (h39-fresh11's tuning half), with the
    negated, hedged and two-option forms that must stay ``Z`` or take the other side."""
    assert extract_option(answer, options).letter == letter
