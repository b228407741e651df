"""Options named by their number or position in the languages other than English, written the
way :mod:`.option_numbers` and the option texts' wordings read them: ordinals over the options
("la tercera máscara", "2番目のマスク", "세 번째 마스크": "the third option"), an option noun with
its number in words or after "number" ("Kandidat drei", "Candidatul patru", "Kandydat czwarty",
"Mgombea wa pili", "Ứng viên số 4", "la maschera numero quattro", "候选二": "Kandidat 3"), and
runs of numbers after one noun ("Kandidat 1 und 3", "उम्मीदवार 2 या 4": each with its noun).

Split from :mod:`.other_languages` (which re-exports these functions) to keep each module short.
"""

from __future__ import annotations

import re

_ORDINAL_WORDS = {
    "first": r"бірінші|pierwsz[yaeą]|eerste|birinci|první|primul|första|premier|première|primer|primera|primero|primo|prima|primeiro|primeira|erste[nrs]?|"
             r"első|перша|перший|першу|первая|первый|первую|первой|1番目の|最初の|첫\s*번째|第一(?:个|张|幅)?",
    "second": r"екінші|drug[iaą]|tweede|ikinci|druh[áýé]|al\s+doilea|második|друга|другий|другу|deuxième|seconde?|segund[oa]|second[oa]|zweite[nrs]?|вторая|второй|вторую|"
              r"2番目の|두\s*번째|第二(?:个|张|幅)?",
    "third": r"үшінші|trzeci[aeą]?|derde|üçüncü|třetí|al\s+treilea|tredje|harmadik|третя|третій|третю|troisième|tercer[oa]?|terz[oa]|terceir[oa]|dritte[nrs]?|третья|третий|третью|"
             r"третьей|3番目の|세\s*번째|第三(?:个|张|幅)?",
    "fourth": r"төртінші|czwart[yaeą]|vierde|dördüncü|čtvrt[áýé]|al\s+patrulea|fjärde|negyedik|четверта|четвертий|четверту|quatrième|cuart[oa]|quart[oa]|vierte[nrs]?|четвёртая|четвертая|четвёртый|"
              r"четвертый|четвёртую|четвертую|4番目の|네\s*번째|第四(?:个|张|幅)?",
    "last": r"ostatni[aeą]?|laatste|poslední|ultimul|ultima|sista|utolsó|остання|останній|останню|dernier|dernière|últim[oa]|ultim[oa]|letzte[nrs]?|последняя|последний|последнюю|"
            r"最後の|마지막|最后一?(?:个|张|幅)?",
}  # fmt: skip
_OPTION_NOUN = (
    r"(?:masque|máscara|maschera|maske|маск[аиуы]|マスク|마스크|掩码|掩膜|蒙版|"
    r"(?:segmentierungs)?karte|carte|mapa|mappa|карт[аиуы]|"
    r"option|opción|opzione|opção|вариант|選択肢|옵션|선택지|选项|"
    r"candidat[eoa]?|kandidat|кандидат|候補|候补|候选|후보|jelölt|maszk|opció|lehetőség|варіант|"
    r"mask|masca|mască|kandyd|kandidá|opcj|optie|opțiun|seçenek|aday|možnost|alternativ|нұсқа|svar|ehdokas)"
)
_ORDINAL_OPTION = re.compile(
    r"(?<!\w)(?:(" + ")|(".join(_ORDINAL_WORDS.values()) + r"))\s*" + _OPTION_NOUN + r"\w*",
    re.I,
)


_BARE_ORDINAL = re.compile(
    r"(?<!\w)(?:(?:la|le|il|el|lo|l'|die|der|das|den|a|o|the)\s+)?(?:("
    + ")|(".join(_ORDINAL_WORDS.values())
    + r"))(?!\w)",
    re.I,
)


def _english(m: re.Match[str]) -> str:
    return " the " + list(_ORDINAL_WORDS)[next(i for i, g in enumerate(m.groups()) if g)]


_NUMBERED_NOUN = (
    r"kandidat(?:en)?|candidats?|candidat[oiae]s?|кандидат[ыа]?|optionen|opci[oó]n(?:es)?|"
    r"opzion[ei]|op[cç][aã]o|op[cç][oõ]es|masken?|masques?|m[aá]scaras?|mascher[ae]|маск[аи]|"
    r"候选|候選|候補|候补|후보|选项|選択肢|kandyda(?:t|ci|ta|ty)|kandidaat|kandidaten|candidatul|candida[țt]ii|calon|"
    r"ứng\s+viên|mgombea|wagombea|aday(?:lar)?|jelölt(?:ek)?|उम्मीदवार|उमेदवार|kandidát|ehdokas|வேட்பாளர்|المرشح|المرشحين|maska|maski"
)
_OPTION_RUN = re.compile(
    r"(?<!\w)(" + _NUMBERED_NOUN + r")[ \t]*(\d)((?:[ \t]*(?:,|、|&|und|oder|et|ou|y|o|e|i|и|или|"
    r"veya|ve|和|与|或|と|か|과|와|또는|या|और|atau|dan|na|au|és|vagy|ja|tai|și|sau|lub|albo|oraz|và|hoặc|of|"
    r"أو|و)[ \t]*\d(?!\d))+)",
    re.I,
)


_NEGATED_OPTION = re.compile(
    r"(?:(?<!\w)(?:nicht|pas|não|non|no|не|nie|niet|inte|ليس)|不是|并非)[ \t]*"
    r"(?:(?:es|est|ist|è|é|sea|sia|seja|sei|jest|is|är|это|je)[ \t]+)?"
    r"(?:(?:la|le|el|il|lo|o|a|der|den|die|das|l')[ \t]*)?(?:"
    + _NUMBERED_NOUN
    + r")[ \t]*(\d)(?!\d)",
    re.I,
)


_NAMED_NUMBERS = {
    "c1": r"eins|uno|jeden|unu|yksi|satu|moja|một|één|один|एक|ஒன்று|واحد",
    "c2": r"zwei|dos|due|deux|dois|dwa|doi|kettő|kaksi|dua|mbili|hai|iki|twee|два|दो|இரண்டு|اثنان",
    "c3": r"drei|tres|tre|trois|três|trzy|trei|három|kolme|tiga|tatu|ba|üç|drie|три|तीन|மூன்று|ثلاثة",
    "c4": r"vier|cuatro|quattro|quatre|quatro|cztery|patru|négy|neljä|empat|nne|bốn|dört|четыре|चार|நான்கு|أربعة",
    "o1": r"erste[nrs]?|primer[oa]?|prim[oa]|premier|première|primeir[oa]|pierwsz[yae]|primul|első|ensimmäinen|"
          r"pertama|wa\s+kwanza|thứ\s+nhất|birinci|eerste|первый|पहला|முதல்|الأول",
    "o2": r"zweite[nrs]?|segund[oa]|second[oa]|deuxième|drug[iaie]|al\s+doilea|második|toinen|kedua|"
          r"wa\s+pili|thứ\s+hai|ikinci|tweede|второй|दूसरा|இரண்டாவது|الثاني",
    "o3": r"dritte[nrs]?|tercer[oa]?|terz[oa]|troisième|terceir[oa]|trzec(?:i|ia|ie)|al\s+treilea|harmadik|"
          r"kolmas|ketiga|wa\s+tatu|thứ\s+ba|üçüncü|derde|третий|तीसरा|மூன்றாவது|الثالث",
    "o4": r"vierte[nrs]?|cuart[oa]|quart[oa]|quatrième|czwart(?:y|a|e)|al\s+patrulea|negyedik|neljäs|keempat|"
          r"wa\s+nne|thứ\s+tư|dördüncü|vierde|четвёртый|четвертый|चौथा|நான்காவது|الرابع",
}  # fmt: skip
"""After an option noun, per number 1-4: its cardinals (``c``: "Kandidat drei", the option's
own number) and its ordinals (``o``: "Kandydat czwarty", "Mgombea wa pili", "kandidat kedua",
where the ordinal follows the noun: a position, as "the fourth candidate")."""
_NUMBERED_BY_WORD = re.compile(
    r"(?<!\w)(kandidat(?:en)?|kandidaat|kandidaatti|kandydat|candidat[eoa]?|candidatul|calon|ứng\s+viên|"
    r"mgombea|aday|jelölt|кандидат|उम्मीदवार|வேட்பாளர்|المرشح|masken?|masque|m[aá]scara|maschera|maska|"
    r"маска|маски|вариант|варіант|"
    r"opción|opzione|opção|opcja|opsi|pilihan|seçenek|phương\s+án|vaihtoehto|opțiunea|varianta)"
    r"\s+(?:(?:numero|número|nummer|nr\.?|no\.?|n\.|số|nomor|nomer|numărul|numer|номер)\s*)?(?:"
    + "|".join(f"(?P<{k}>{w})" for k, w in _NAMED_NUMBERS.items())
    + r"|(?P<d>\d))(?!\w)|(?P<zh>候选|候選|候補|候补|选项|選択肢)(?P<zhn>[一二三四])",
    re.I,
)

_NOUN_STEMS = ("kandi", "candi", "kandy", "calon", "viên", "mgombea", "aday", "jelölt", "кандидат",
               "उम्मीदवार", "வேட்பாளர்", "المرشح", "mask", "masque", "scara", "maschera", "opci",
               "opzione", "opção", "opsi", "pilihan", "seçenek", "phương", "vaihtoehto", "opțiunea",
               "varianta", "候", "选项", "選択肢", "маск", "вариант", "варіант")  # fmt: skip
"""A substring of each noun: the answers without one skip the regex (most of them)."""


def named_numbers(text: str) -> str:
    """An option noun with its number in words or after "number" ("Kandidat drei", "Candidatul
    patru", "Ứng viên số 4", "la maschera numero quattro", "候选二") as the noun and the digit
    ("Kandidat 3"), which the option texts' wordings and the reading of option numbers take; an
    ordinal after the noun ("Kandydat czwarty", "Mgombea wa pili") as the English ordinal ("the
    fourth option"): a position, ``Z`` over options whose numbers of their own are in another
    order."""

    def digit(m: re.Match[str]) -> str:
        if m.group("zh"):
            return m.group("zh") + " " + str("一二三四".index(m.group("zhn")) + 1)
        if m.group("d"):
            return m.group(1) + " " + m.group("d")
        k = next(k for k, v in m.groupdict().items() if v and k in _NAMED_NUMBERS)
        if k[0] == "c":
            return m.group(1) + " " + k[1]
        return " the " + ("first", "second", "third", "fourth")[int(k[1]) - 1] + " option "

    low = text.lower()
    if not any(stem in low for stem in _NOUN_STEMS):
        return text
    return _NUMBERED_BY_WORD.sub(digit, text)


def numbered_options(text: str) -> str:
    """Option numbers after another language's noun, each with its noun ("Kandidat 1 und 3":
    "Kandidat 1 und Kandidat 3", "候选1和候选3": "候选 1和 候选 3"), so that the reading of option
    numbers sees every one (two named: two options, not the first); a negated one in English
    ("nicht Kandidat 3": "not candidate 3"), which that reading rules out."""

    def each(m: re.Match[str]) -> str:
        rest = re.sub(r"(\d)", lambda d: " " + m.group(1) + " " + d.group(1), m.group(3))
        return " " + m.group(1) + " " + m.group(2) + rest

    text = _NEGATED_OPTION.sub(lambda m: " not candidate " + m.group(1) + " ", named_numbers(text))
    text = _OPTION_RUN.sub(each, text)
    return re.sub(r"(?<=[和与或、及と])(候选|候選|候補|候补|选项|選択肢)(?=\s*\d)", r" \1 ", text)


def ordinals_in_english(text: str) -> str:
    """An ordinal over the options in the other languages ("le deuxième masque", "die vierte
    Karte", "1番目のマスク", "세 번째 마스크", "第二个选项") as English ("the second option"),
    which the reading of ordinals then takes (options with numbers of their own in another
    order: ``Z``); where there is one, the other ordinals too ("la prima maschera oppure la
    terza": "the first option oppure the third", two options)."""
    if not _ORDINAL_OPTION.search(text):
        return text
    text = _ORDINAL_OPTION.sub(lambda m: _english(m) + " option ", text)
    return _BARE_ORDINAL.sub(lambda m: _english(m) + " ", text)
