"""Answers that weigh every option, written in the other languages: a ranking's heading
("Reihenfolge: D, B, A, C", "du plus probable au moins probable : ..."), scores with a decimal
comma or listed with "、", and eliminations ("Descarto A, B y C, así que queda D", "A、B、Cを
除外すると、残るのはD"), as the English forms :mod:`.answer_forms` reads (re-exported by
:mod:`.other_languages`)."""

from __future__ import annotations

import re

_RANKING_OTHER = re.compile(
    r"(?:(?<!\w)(?:rangfolge|reihenfolge|classement|clasificación|orden\s+de\s+probabilidad|classifica|"
    r"classificação|ordem\s+de\s+probabilidade|kolejność|rangschikking|volgorde|sıralama|peringkat|urutan|"
    r"рейтинг|порядок|xếp\s+hạng|thứ\s+tự|rangsor|järjestys|clasament|ordine\s+di\s+probabilità|rangiranje|"
    r"рангирање|класиране|poradie|rangering|rangordning|rangiran\w*)(?:\s+[^\W\d_]+){0,2}|"
    r"(?:可能性)?(?:排序|排名)|可能性の高い順|順位|ランキング|순위|가능성\s*순)\s*[:：]|"
    r"(?:\b(?=[dDvVoOeEfFоО])(?:de\s+(?:la\s+|lo\s+)?más\s+(?:\w+\s+)?a\s+(?:la\s+|lo\s+)?menos|du\s+plus\s+\w+\s+au\s+moins|da(?:l|lla|llo)\s+(?:più|migliore)\s+(?:\w+\s+)?"
    r"a(?:l|lla|llo)\s+(?:meno|peggiore)|vom\s+(?:wahrscheinlichsten|besten)\s+zum|do\s+mais\s+(?:\w+\s+)?ao\s+menos|"
    r"от\s+наиболее|от\s+самого|od\s+najbardziej|van\s+meest|en\s+olasıdan|från\s+mest|od\s+nejv|od\s+najv|"
    r"od\s+naj|от\s+най|fra\s+mest|fra\s+den\s+mest)|"
    r"(?=[可가从])(?:可能性の高い順|可能性が高い順|가능성이?\s*높은\s*순|从最\w{1,4}到最))[^:：\n]{0,60}[:：]",
    re.I,
)


_PROBABILITY_WORD = re.compile(
    r"probabilit|wahrscheinlichkeit|probabilidad|probabilidade|confiance|pravděpodob|вероятн|імовірн|ймовірн|"
    r"prawdopodob|olasılık|kemungkinan|xác\s+suất|valószínűség|todennäköisyy|waarschijnlijkheid|sannolikhet|(?<!\w)(?:stime|stima|schätzung|estimaci|estimation)",
    re.I,
)
_PERCENT_FIRST = re.compile(r"(?<![\w%])%\s?(\d+(?:[.,]\d+)?)(?![\d%])")
_DECIMAL_COMMA = re.compile(r"(?<![\d,.])0,(\d{1,3})(?![\d,])")
_LABELLED_COMMA = re.compile(r"[:=—–]\s*0,\d{2,3}(?![\d,])")
"""A score after a label with a decimal comma ("nicht KI-generiert: 0,28"): two of them are scores
even with no word for probability (a frame list "0,1" has one digit after its comma)."""


def forms_in_english(text: str) -> str:
    """A ranking's heading in another language ("可能性排序：B > C > A > D", "Reihenfolge: D, B,
    A, C") as English "ranking:", scores listed with "、" ("候補1: 10%、候補2: 15%") with
    commas and eliminations (:func:`eliminations_in_english`), for the readers of answers that weigh every option (:mod:`.answer_forms`)."""
    if "%、" in text:
        text = text.replace("%、", "%, ")
    if "%" in text:  # Turkish "%60": the percent sign before the number
        text = _PERCENT_FIRST.sub(r"\1%", text)
    if "0," in text and (
        _PROBABILITY_WORD.search(text) or len(_LABELLED_COMMA.findall(text)) > 1
    ):  # "B 0,7"
        text = _DECIMAL_COMMA.sub(r"0.\1", text).replace(" / ", "; ")  # "Kandidat 1: 0,1 / ..."
    text = eliminations_in_english(text)
    if _RUNNER_UP_OTHER.search(text):  # "B, com D como segunda opção": "D as runner-up"
        text = _RUNNER_UP_OTHER.sub(" as runner-up", text)
    if ":" not in text and "：" not in text:
        return text
    return _RANKING_OTHER.sub(" ranking: ", text)


_RUNNER_UP_OTHER = re.compile(
    r"\s+(?:como|comme|als|come|jako|как|som)\s+(?:(?:mi|minha|ma|mon|mijn|meine?|moja|mój|il\s+mio|la\s+mia)\s+)?"
    r"(?:segund[ao]\s+(?:opção|opción|escolha|elección|alternativa|opzione)|(?:second|deuxième)\s+choix|"
    r"tweede\s+(?:keus|keuze)|second[ao]\s+(?:scelta|opzione)|zweite\s+wahl|drug(?:i|a)\s+(?:wybór|opcja)|"
    r"втор(?:ой|ым)\s+вариант(?:ом)?|andra\s+val|the\s+second\s+option)(?!\w)",
    re.I,
)
"""A runner-up after its letter ("com D como segunda opção", "met B als tweede keus"), read as
English "as runner-up" (that letter is not the answer; "segunda opção" may already read "the
second option" here)."""
_RULE_OUT_OTHER = re.compile(
    r"\b(?=[dDeEjJoOsSiIwWoOkKиИвВαΑuUvVкКlLaApPmMмМ])(?:(?:ausschlussverfahren|per\s+esclusione|por\s+eliminación|"
    r"par\s+élimination|por\s+eliminação|metodą\s+eliminacji|методом\s+исключения|методом\s+виключення|"
    r"eleme\s+yoluyla)\s*[:：]?\s*(?=\w)|loại(?:\s+bỏ|\s+trừ)?(?=\s+[A-Y](?![^\W\d_]))|descart(?:o|amos)|excluyo|elimino|j'(?:élimine|exclus|écarte)|on\s+peut\s+(?:écarter|exclure|éliminer)|"
    r"escludo|scarto|excluo|eliminando|schließe|исключаю|исключаем|виключаю|wykluczam|odrzucam|eliminuję|sluit|ik\s+sluit|"
    r"eleme|vylučuji|vylučujem|utesluter|utelukker|isključujem|искључујем|изключвам|αποκλείω|αποκλείουμε|kizárom|"
    r"exclou|exclouc|saya\s+tolak|ondoa|el(?:iyorum|iyoruz|edim|edik|eriz))\b|排除|除外(?:すると|して)?|제외하면|제외하고|(?<!\w)(?:أستبعد|نستبعد|استبعدت)(?!\w)",
    re.I,
)
"""Ruling-out verbs of the other languages ("Descarto A, B y C", "Ich schließe A, B und C
aus", "排除A、B和C"), read as English "rule out"."""
_LEAVES_OTHER = re.compile(
    r"\s*[,;，、]?\s*(?:(?:así\s+que|por\s+lo\s+que|donc|alors|also|daher|quindi|perciò|então|"
    r"поэтому|więc|dus|yani|οπότε|så)\s+)?\b(?=[qQiIbBrRoOzZkKfFåÅsSpPоОзЗμΜαΑgGmMтТ])(?:queda|quedan|il\s+reste|reste|bleibt|resta|rimane|"
    r"fica|sobra|остаётся|остается|остаются|залишається|zostaje|pozostaje|zostają|pozostają|blijft\s+over|blijft|kalır|zbývá|återstår|"
    r"μένουν|μένει|απομένει|απομένουν|zostáva|ostaje|остаје|остава|gjenstår|står\s+igjen|marad|rămâne|rămân|"
    r"romanen|resten|tinggal|còn\s+lại)\b|\s*[,،]?\s*(?:فيبقى|ويبقى|يبقى|يتبقى)|"
    r"\s*[,，、]?\s*(?:残るのは|残りは|剩下|剩余|남는\s*것은)",
    re.I,
)
"""What is left after them ("así que queda D", "also bleibt D", "残るのは"), read as ", leaving"."""
_LEFT_KO = re.compile(r"\s*(?<![A-Za-z])([A-Y])\s*(?:가|이|만)\s*남(?:습니다|는다|아요|음)")
_RULED_BEFORE_VERB = re.compile(
    r"((?<![A-Za-z])[A-Y](?:(?:\s*[、,，和与及과와]|\s+ve)\s*[A-Y](?![A-Za-z]))+)\s*(?:를|을|는|은|を|は)?\s*"
    r"(?:除外(?:すると|して|し)?|제외하면|제외하고|el(?:iyorum|iyoruz|edim|edik|eriz)\b)"
)
"""Letters ruled out before the verb (Japanese, Korean, Turkish "A, B ve D'yi eliyorum")."""


def eliminations_in_english(text: str) -> str:
    """An elimination in another language ("Descarto A, B y C, así que queda D", "A、B、Cを除外
    すると、残るのはDです") as English ("rule out A, B y C, leaving D") for the reading of
    eliminations (:mod:`.answer_forms`); letters ruled out before a Japanese, Korean or Turkish
    verb are put after it."""
    if not _RULE_OUT_OTHER.search(text):
        return text
    text = _RULED_BEFORE_VERB.sub(
        lambda m: f" rule out {m.group(1).replace(' ve ', ' and ')} ", text
    )
    text = _RULE_OUT_OTHER.sub(" rule out ", text)
    text = _LEFT_KO.sub(r", leaving \1 ", text)  # "D가 남습니다"
    return _LEAVES_OTHER.sub(", leaving ", text)
