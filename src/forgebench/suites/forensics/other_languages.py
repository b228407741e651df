"""What :mod:`.option_text` reads differently in the languages other than English: negators,
clause breaks and runs of numbered options ("candidats 1 et 3").

A wording the rules know in a language is read with that language's negation, or a negated
claim ("ليست حقيقية", "non è generata", "nicht verändert") would count as the claim itself: a
wrong letter. Three kinds:

- :data:`NEG_WORDS_OTHER`: negators written before the words they negate, on whole words ("не"
  inside "стороне" is none): German, Portuguese, French, Dutch, Polish, Russian, Swedish,
  Czech, Spanish, Italian (including "none of" forms: "ninguna", "aucune", "nessuna",
  "nenhuma", "keinerlei"), Arabic ("ليس", "ليست", "لا", "غير", "لم"), Vietnamese ("không",
  "chưa"), Hungarian/Portuguese "nem"; :data:`NEGATOR_ZH`: Chinese "非", "不是", "没有", "未",
  "无", and "比起"/"与其说" (the side compared against);
- :data:`NEGATOR_AFTER`: negators written after the words they negate: Japanese
  ("ではありません", "はない", "がない", "されていません"), Korean ("아니", "않", "없"),
  Turkish "değil", Hindi "नहीं"; the compared-against side of "closer to X than Y" (Korean
  "보다", Japanese "より"); an object "nothing" after the verb ("eliminado nada", "nichts",
  "niente", "ничего");
- :data:`BUT_OTHER`: the other languages' "but" ("aber", "sondern", "mais", "pero", "sino",
  "però", "mas", "maar", "ale", "но", "а", "ama", "nhưng", "بل", "لكن", "लेकिन", "但", "而是",
  "でも", "しかし", "하지만"), which end a negator's reach as English "but" does ("ليست حقيقية،
  بل ..."). Italian "ma" is left out: Polish "nie ma" ("there is no") would lose its "nie".
"""

from __future__ import annotations

import re

NEG_WORDS_OTHER = (
    r"nicht|kein|keine|keinerlei|não|nao|pas|niet|geen|nie|не|нет|inte|ej|icke|není|nejsou|"
    r"ninguna|ninguno|nessuna|nessun|aucune|aucun|nenhuma|nenhum|ليس|ليست|لا|غير|لم|ليسوا|"
    r"không|chưa|nem"
)
"""Negators before the negated words, as a regex alternation (matched on whole words)."""
NEGATOR_ZH = re.compile(r"(?:非|不是|不|没有|没|未|并非|无|比起|与其说)[^，。；,.;]{0,3}$")
"""A Chinese negator at most three characters before the negated words."""
NEGATOR_AFTER = re.compile(
    r"[^.,;!?。，；！？、]{0,8}?(?:ではありません|ではない|じゃない|されていません|されてない|ではなく|"
    r"はありません|がありません|はない|がない|아닙니다|아니|않|없|değil|नहीं)"
    r"|[^\s.,;!?。，；！？、]{0,3}\s?(?:보다|より)|\s+(?:nada|nichts|niente|nulla|nic|ничего|nothing)(?!\w)"
)
"""Matched right after the negated words (``re.match`` at their end)."""
BUT_OTHER = (
    r"(?<!\w)(?:aber|sondern|mais|pero|sino|però|mas|porém|maar|ale|но|а|ama|fakat|ancak|nhưng|"
    r"بل|لكن|ولكن|लेकिन|बल्कि)(?!\w)|但是|但|而是|不过|でも|しかし|けど|하지만"
)
"""Clause breaks of the other languages, as a regex alternation."""


_NUMBERED_RUN = re.compile(
    r"(?<!\w)([^\W\d_]{4,})\s+(\d+)((?:\s*(?:,|&|and|et|und|y|e|i|и|ve|en|och|a)\s*\d+)+)(?![\d\w])"
)


def each_numbered(text: str) -> str:
    """ "candidats 1 et 3" as "candidats 1 et candidats 3" (in any language): each number then
    names its option, and two named options are two, not the first one."""
    return _NUMBERED_RUN.sub(
        lambda m: m.group(1) + " " + m.group(2) + re.sub(r"(\d+)", m.group(1) + r" \1", m.group(3)),
        text,
    )
