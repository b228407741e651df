"""Answers that decline or do not decide: refusals, hedges, conditionals, retractions.

The rules (:mod:`.extract`) read no letter from these; each gives ``Z`` with its reason
(``refusal`` or ``hedge``). English first (VLMEvalKit's refusal strings, refusal openings,
"I can't tell", conditionals such as "if X then C, otherwise B"), then the same kinds in the
eighteen other languages the rules know (fr, es, de, it, pt, ja, ko, ru, zh, nl, tr, pl, vi, ar,
hi, sv, cs, hu, and since h39-fresh14 sk, sr, hr, bg, no/da, ms, tl, ca, eu, az, kk, ur, bn, mr, te), in
:data:`CANT_TELL` (the word tables live in :mod:`.hedge_words`) ("I can't tell", "I don't know", "I can't confirm / verify /
analyse it", "both are plausible": ``refusal`` where it opens the answer or follows an apology;
"hard to say", "I can't decide", "not sure": ``hedge``), :data:`OR_NOT` ("X or not", "may be X
or may not": a binary pair's two sides at once), :data:`MAYBE` / :data:`EITHER` ("maybe X,
maybe Y", "either X or Y") and :data:`PAIRED` ("entweder X oder Y", "либо X, либо Y", "как X,
так и Y": two sides even where one is unread). Refusals in the other languages' words ("no puedo
ayudar", "не могу помочь", "分析はできません", "분석할 수 없") are among the "I can't tell".

English "I can't tell" (h39-r5): "can't tell / say / determine / verify / confirm / settle /
distinguish / call it / narrow it down", "hard to say", "not (really) sure / certain /
confident", "can't rule it out", "don't rely on this", "don't have enough information", "can't
make a call", "can't single out one": each a settled hedge (it was read as "nothing", and sent
on, before).

A hedge followed by a contrast ("hard to say, but it looks real", "that said, ...", "my best
guess is B"; "mais", "aber", "pero",
"但", "でも", "하지만", "но", Japanese "...ませんが、", Korean "...없지만") that names one option is no hedge: what follows is read; one
that only offers another option too ("but it could also be real", :data:`ALSO_POSSIBLE`) is.
"""

from __future__ import annotations

import re

from forgebench.suites.forensics.hedge_words import CANT_TELL as CANT_TELL
from forgebench.suites.forensics.hedge_words import MAYBE as MAYBE
from forgebench.suites.forensics.hedge_words import OR_NOT as OR_NOT
from forgebench.suites.forensics.other_languages import CONDITIONAL_OTHER

RELEASE_REFUSALS = (
    "Sorry, I can't help with images of people yet.",
    "I can't process this file.",
    "I'm sorry, but without the image provided",
    "Cannot determine the answer",
)
"""VLMEvalKit's ``can_infer_option`` refusal strings (matched anywhere)."""

REFUSAL_OPENING = re.compile(
    r"^\W*(?:i['’]?m sorry|i am sorry|sorry|i can(?:no|['’])t|i can not|i['’]?m unable|"
    r"i am unable|i['’]?m not able|i am not able|i won['’]?t|as an ai|"
    r"i(?:['’]?m| am| do not| don['’]?t)(?: feel)? (?:not )?comfortable|i(?:['’]d| would) rather not|"
    r"抱歉|对不起|我无法|无法)",
    re.IGNORECASE,
)
APOLOGY = re.compile(r"^\W*(?:i['’]?m sorry|i am sorry|sorry|抱歉|对不起)", re.I)
REFUSAL_VERB = re.compile(
    r"\b(?:can['’]?t|cannot|can not|unable|not able|won['’]?t|will not|not possible|impossible|"
    r"(?:don['’]?t|do not) know|not sure|refuse|not (?:permitted|allowed|comfortable)|"
    r"no access|not provided|without the image)\b|无法|不能|不确定",
    re.I,
)
"""An apology opening is a refusal only where the answer also says it cannot answer."""
UNDETERMINED = re.compile(
    r"\b(?:cannot|can't|can not|unable to|not able to)\s+(?:\w+\s+){0,2}?(?:determine[sd]?|tell|"
    r"say|verify|confirm|settle|distinguish|decide|call\s+it|be\s+(?:sure|certain|determined)|"
    r"be\s+\w+\s+(?:sure|certain)(?=\s+(?:whether|if|which)))\b|"
    r"\b(?:hard|difficult|impossible)\s+to\s+(?:tell|say|"
    r"determine|judge)\b|\bnot\s+(?:entirely\s+|really\s+|totally\s+|fully\s+|100%\s+)?(?:sure|certain)\b|"
    r"\bunclear\b|\buncertain\b|\b(?:don't|do\s+not)\s+have\s+enough\s+(?:information|detail|evidence|"
    r"context|resolution)\b|\bit\s+is\s+possible\s+that\b[^.\n]*,\s*or\s+that\b|"
    r"\b(?:cannot|can't|can not|unable to|not able to)\s+(?:make|give|reach)\s+(?:a|an|any)\s+"
    r"(?:\w+\s+)?(?:call|verdict|decision|judge?ment)\b|\b(?:cannot|can't|can not|unable to)\s+"
    r"(?:single\s+out|pick|choose|commit\s+to)\s+(?:one|a\s+single|either)\b|"
    r"\b(?:cannot|can't|can not|unable to)\s+narrow\s+(?:it|this|that|them)\s+down\b|"
    r"\b(?:i'm|i\s+am)\s+not\s+(?:very\s+|fully\s+|entirely\s+|too\s+|at\s+all\s+)?confident\b|"
    r"\b(?:cannot|can't|can not)\s+rule\s+(?:it|this|that|them)\s+out\b|"
    r"\b(?:please\s+)?(?:don't|do\s+not)\s+rely\s+on\s+(?:this|it|that|my\s+\w+)\b|"
    r"\b(?:could|might|may)\s+(?:well\s+)?(?:be|point|indicate|suggest|mean)\b[^.;\n]*\b(?:but|or)\b[^.;\n]*\b(?:might|could|may)\s+"
    r"(?:also|equally|just\s+as\s+well|simply|just)\b",
    re.IGNORECASE,
)
"""Phrases saying the answer cannot be told; option text before the last one is not a claim."""
HEDGE = re.compile(
    r"\b(?:maybe|perhaps|possibly|might|could|either|not\s+sure|hard\s+to|difficult\s+to|"
    r"torn|unsure|uncertain|unclear|can'?t\s+(?:tell|say|decide|choose)|cannot\s+(?:tell|say|"
    r"decide|choose|determine)|depend\w*)\b",
    re.I,
)
"""Words that make a ``Z`` of several options a hedge rather than a plain two-option answer."""
_FORCED = r"i\s+(?:had|have|must|were|need)\b|forced\b|you\s+ask\b"
"""After "if", the forced pick ("if I had to choose", "if forced", "if you ask me"): no condition."""
CONDITIONAL = re.compile(
    r"\bif\b[^.;\n]*\b(?:otherwise|else|if\s+not|if\s+it)\b|\botherwise\b[^.\n]*$|\bunless\b|"
    r"\bif\b[^.;?!\n]*[.;]\s+(?:otherwise|else|if\s+not)\b|"
    rf"\bif\s+(?!{_FORCED})[^.;?!\n]{{3,80}}[;,]\s*(?:but\s+|and\s+)?"
    rf"if\s+(?!{_FORCED})[^.;?!\n]{{3,80}}[,:]|"
    rf"\bif\s+(?!{_FORCED}|anything\s*,|only\b)[^.;\n]*,\s*[^.;\n]{{1,60}}?"
    r"\bwould\s+be\s+(?:the\s+)?(?:closest|best|most\s+(?:likely|accurate|plausible)|likeliest|right|"
    r"correct)\b|"
    r"\bonly\s+if\b|\bprovided\s+that\b|(?:^\s*|[,;.?!]\s*)if\s+(?:not|so)\b\s*,|\bassuming\b|"
    r"\bif\b[^.\n]*\b(?:would|might|could)\s+be\s+(?:better|correct|right|more\s+accurate)\b|"
    rf"\bif\s+(?!{_FORCED})[^.,;\n]*,\s*(?:then\s+)?(?:option\s+)?"
    r"[(\[]?[A-Y][)\]]?\s*(?:[.)]|$|\s+(?:is|would\s+be)\s+(?:correct|right|the\s+answer|better|best)\b)|"
    rf"\bif\s+(?!{_FORCED})[^.,;\n]*,\s*(?:then\s+)?[^.,;\n]{{1,40}}?"
    r"\s+(?:is|would\s+be)\s+(?:correct|right|the\s+answer|better|best)\b[^.\n]*;\s*if\b|"
    r"\b(?:would\s+be|is\s+(?:right|correct|the\s+answer))\s+(?:[^.\n]{0,30}\s)?if\b|"
    r"(?:^|[.!;]\s+|\n)\W*should\s+(?:the|it|this|that|there|they|these|those|we|i)\b"
    r"[^.?!;\n]{3,80},|"  # "Should the audio be original, ...": an inverted "if"
    r"\bif\b[^.;\n]*,\s*(?:the\s+)?(?:right|correct|best|true)\s+(?:answer|option|choice)\s+would\s+be\b|"
    r"\bif\s+not\s*[.!]?\s*$|\bdepend(?:s|ing)\s+on\b|\bdepends\b\s*[:;,]|\bassuming\b[^.\n]*\b(?:otherwise|else)\b",
    re.I,
)
CONDITIONAL = re.compile(
    CONDITIONAL.pattern + r"|(?<!\w)(?:depende\s+d[eao]\w*|ça\s+dépend|cela\s+dépend|dépend\s+d\w*|"
    r"hängt\s+(?:davon\s+)?ab|hängt\s+(?:\w+\s+){0,3}?ab|kommt\s+(?:ganz\s+)?darauf\s+an|dipende\s+da\w*|"
    r"зависит\s+от|zależy\s+od|afhankelijk\s+van|hangt\s+af\s+van)(?!\w)|取决于|"
    r"如果[^。；\n]*(?:否则|不然|要不然)|(?:에\s*따라\s*(?:다르|달라))|"
    r"(?:如果|假如|要是)[^。\n]*[；;，,]\s*(?:而|但)?(?:如果|假如|要是)|" + CONDITIONAL_OTHER,
    re.I,
)
"""An answer that makes its choice conditional ("if X then C, otherwise B", "depende de",
"hängt davon ab", "зависит от", "如果...否则", "se ..., altrimenti A", :data:`.other_languages.CONDITIONAL_OTHER`): ``Z``."""
BOTH_SIDES = re.compile(
    r"(?<!\bnot\s)(?<!\bnot\sa\s)(?<!\bno\s)\b(?:a\s+(?:bit|little)\s+of\s+both|(?:a\s+)?(?:mix|mixture|blend|"
    r"combination)\s+of\s+(?:both|the\s+two)|somewhere\s+in\s+between|both,\s+really|"
    r"partly\s+(?:real|genuine|authentic|generated|manipulated)\s+and\s+partly)\b",
    re.I,
)
"""A binary pair answered with both sides at once ("A bit of both", "somewhere in between",
"partly real and partly generated"): ``Z`` (the article "A" is no letter, the side named after it
no verdict)."""
RETRACTION = re.compile(
    r"^\W*(?:no|nope|hmm+|i\s*(?:'?m|\s+am)\s+not\s+(?:sure|certain)|not\s+sure|unsure)\b[^A-Za-z]*"
    r"(?:(?:i\s*(?:'?m|\s+am)\s+)?not\s+(?:sure|certain)[^A-Za-z]*)?$",
    re.I,
)
"""What follows a correction cue when it only takes the answer back ("Wait, no.")."""

_W = r"(?<![^\W\d_])"
"""A word start in any script with spaces (the CJK entries need none)."""

EITHER = re.compile(
    r"\b(?:either(?!\s*(?:[,.;:!?)]|$)|\s+way)|(?<=\bbe\s)either|ya\s+sea|ya\s+da|hoặc\s+là|sama\s+ada)\b|إما|या\s+तो",
    re.I,
)
""""Either X or Y" openers: an answer that names two options after one of them is a hedge (an
"either" that ends its clause is the negative "too", "no face swapped either", unless after "be":
"it could be either")."""
PAIRED = re.compile(
    r"\b(?:entweder\b[^.;]*\boder|soit\b[^.;]*\bsoit|albo\b[^.;]*\balbo|либо\b[^.;]*\bлибо|"
    r"tanto\b[^.;]*\b(?:quanto|como)|sowohl\b[^.;]*\bals\s+auch|как\b[^.;]*,\s*так\s+и|"
    r"hem\b[^.;]*\bhem\s+de|είτε\b[^.;]*\bείτε|zarówno\b[^.;]*\bjak\s+i|zowel\b[^.;]*\bals|"
    r"både\b[^.;]*\boch|antingen\b[^.;]*\beller|baik\b[^.;]*\bmaupun|ni\b[^.;,]*\bni|"
    r"(?:både|baade)\b[^.;]*\bog|enten\b[^.;]*\beller|"
    r"kako\b[^.;]*,\s*tako\s+i|както\b[^.;]*,\s*така\s+и)\b|要么[^。；;]*要么",
    re.I,
)
_EITHER_PAIR = re.compile(r"(?:entweder|soit|albo|либо|είτε|antingen|enten|ni)(?!\w)|要么", re.I)
_LEADING_LETTER = re.compile(r"^\W*\(?[A-Y][).:]\s")
"""Both halves of a paired "either X or Y" / "both X and Y" in the other languages ("entweder
... oder", "soit ... soit", "либо ... либо", "как ..., так и", "要么 ... 要么"): two sides named
even where only one is read (``two_options``), unless a contrast after it states one."""
CONTRAST_EN = (
    r"but|however|that\s+said|still|nonetheless|nevertheless|even\s+so|"
    r"if\s+(?:i\s+had\s+to|forced\s+to)\s+(?:pick|choose|guess|say)|given\s+the\s+choice"
)
"""English words that turn from a hedge or a refusal to what the answer still claims ("..., but
it looks real", "If I had to choose, ..."); also read by :func:`.extract.is_refusal`."""
CONTRAST = re.compile(
    rf"\b(?:{CONTRAST_EN}|(?:my\s+)?best\s+guess|"
    r"mais|cependant|pero|sin\s+embargo|aber|jedoch|ma|però|mas|porém|maar|"
    r"ama|fakat|ale|jednak|nhưng|но|однако|αλλά|ωστόσο|όμως|але|проте|однак|али|dar|însă|tetapi|tapi|namun|mutta)\b|لكن|ولكن|लेकिन|但是|但|不过|でも|しかし|하지만|그러나|"
    r"(?:(?<=ません)|(?<=です)|(?<=ない))が[、,]|(?<=[없않렵])지만|(?<!\w)(?:אבל|אך|اما|ولی)(?!\w)|แต่",
    re.I,
)


def _top_level_bar(pattern: str) -> bool:
    """Whether ``pattern`` has a "|" outside its groups and classes (it is several phrases)."""
    depth, i, in_class = 0, 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            return True
        i += 1
    return False


def _by_first_letter(patterns: list[str]) -> str:
    """The phrases as one alternation with the phrases that start with a plain letter grouped
    under it ("n(?:ot\\s+sure|o\\s+idea)"): at each word start the engine tries one branch per
    letter, not one per phrase (hundreds, in thirty languages)."""
    groups: dict[str, list[str]] = {}
    rest: list[str] = []
    for p in patterns:
        if re.match(r"[^\W\d_](?![?*+{])", p) and not _top_level_bar(p):
            groups.setdefault(p[0].lower(), []).append(p[1:])
        else:
            rest.append(p)
    return "|".join([f"{c}(?:{'|'.join(tails)})" for c, tails in groups.items()] + rest)


_CANT_TELL_WORDS = re.compile(
    r"\b(?:" + _by_first_letter([p for table in (CANT_TELL, OR_NOT) for lang, ps in table.items()
                                 if lang not in ("ja", "ko", "zh", "th") for p in ps]) + ")",
    re.I,
)  # fmt: skip
"""The alphabetic languages' phrases; each must start a word (checked on the match, not in the
pattern: a lookbehind before every alternative made the engine try them all at every position;
one ``\b`` before the whole alternation skips the positions inside words before any is tried)."""
_CANT_TELL_CJK = re.compile(
    "|".join(p for table in (CANT_TELL, OR_NOT) for lang, ps in table.items()
             if lang in ("ja", "ko", "zh", "th") for p in ps),
    re.I,
)  # fmt: skip
_LETTER_BEFORE = re.compile(r"[^\W\d_]")
ALSO_POSSIBLE = re.compile(
    r"\b(?:could|might|may)\s+(?:also|equally|just\s+as\s+well)\b|"
    r"\bpourrai(?:t|ent)\s+(?:aussi|également)\b|\bpeut\s+(?:aussi|également)\s+être\b|"
    r"\b(?:podría|puede)\s+(?:también|igualmente)\b|\btambién\s+(?:podría|puede)\b|"
    r"\b(?:potrebbe|può|possa)\s+(?:anche|pure)\b|\b(?:poderia|pode)\s+(?:também|igualmente)\b|"
    r"\btambém\s+(?:poderia|pode)\b|\b(?:könnte|kann)\s+(?:\w+\s+)?(?:auch|ebenso|genauso)\b|"
    r"\bможет\s+(?:быть\s+)?(?:и|также|тоже)\b|\bтакже\s+может\b|"
    r"\b(?:może|mogłoby)\s+(?:też|także|również)\b|\b(?:kan|zou|kunnen)\s+(?:\w+\s+)?ook\b|"
    r"\bcũng\s+có\s+thể\b|也可能|也有可能|수도\s*있",
    re.I,
)
"""After a hedge's "but": "it could also be B" (in the languages above) offers a second option,
it does not settle the hedge."""
_MAYBE = re.compile(rf"{_W}(?:{MAYBE})", re.I)


def cant_tell_span(text: str) -> re.Match[str] | None:
    """The last "I can't tell"-like phrase of any language the rules know; None: none."""
    found = [
        m
        for m in _CANT_TELL_WORDS.finditer(text)
        if m.start() == 0 or not _LETTER_BEFORE.match(text, m.start() - 1)
    ]
    found += list(_CANT_TELL_CJK.finditer(text))
    return max(found, key=lambda m: m.start()) if found else None


def undecided_rest(text: str) -> tuple[str, str, bool] | None:
    """Where the answer says it cannot tell or hedges between options in any of the languages
    above: ``(why, rest, two)``: ``why`` is ``refusal``, ``hedge`` or ``two_options``; ``rest`` is what follows a later contrast ("hard to say, but
    ...") and may still state a choice ("" where none follows); ``two`` is True where only
    "maybe ... maybe" or "either" was found, which hedges only where two options are named.
    None: no such phrase."""
    hedge = cant_tell_span(text)
    maybes = list(_MAYBE.finditer(text))
    either = EITHER.search(text)
    paired = PAIRED.search(text)
    if hedge is None and len(maybes) < 2 and either is None and paired is None:
        return None
    at = max(
        hedge.end() if hedge else 0,
        maybes[-1].end() if len(maybes) >= 2 else 0,
        either.end() if either else 0,
        paired.end() if paired else 0,
    )
    contrast = CONTRAST.search(text, at)
    rest = text[contrast.end() :] if contrast else ""
    if ALSO_POSSIBLE.search(rest):  # "hard to say, but it could also be real"
        rest = ""
    if hedge is not None:
        why = "refusal" if _refuses(text, hedge) else "hedge"
    else:  # "either A or D" names two options; "maybe A, maybe D" hedges between them
        why = "hedge" if len(maybes) >= 2 else "two_options"
    both = (  # "B. Zwei Boxen decken sowohl X als auch Y ab": one option's description
        paired is not None
        and not _EITHER_PAIR.match(paired.group(0))
        and _LEADING_LETTER.match(text, 0, paired.start()) is not None
    )
    return why, rest, hedge is None and (paired is None or both)


_WEIGHS = re.compile(
    r"hard|difficult|difficile|difícil|schwer|moeilijk|zor|trudno|khó|трудно|сложно|الصعب|मुश्किल|難し|"
    r"어렵|很难|难以|不好说|说不准|拿不准|svårt|těžko|säker|jist|decid|décid|entscheid|beslis|karar|zdecyd|quyết|решить|決め|"
    r"결정|决定|yakin|sigur|varma|uhakika|vigumu|sulit|sukar|greu|vaikea|समान|sure|sûr|sicher|segur|sicur|certeza|zeker|emin|pew|chắc|уверен|متأكد|निश्चित|不确定|तय|σίγουρ|βέβαι|בטוח|مطمئن|แน่ใจ|впевнен|pasti|sikker|istý|istá|сигур|sigurn|əmin|сенімді|یقین|নিশ্চিত|खात्री|ఖచ్చితంగా|ziur|segur",
    re.I,
)
"""Words that make an "I can't tell" a hedge (the answer weighs the options) over a refusal."""


def _refuses(text: str, hedge: re.Match[str]) -> bool:
    """An "I can't tell / I don't know" (not "hard to say", "can't decide", "not sure") that
    opens the answer, or follows an apology, declines to answer."""
    if _WEIGHS.search(hedge.group(0)):
        return False
    before = text[: hedge.start()]
    before = re.sub(
        r"^\W*(?:ich|je|yo|io|eu|ik|ben|ja|tôi|я|أنا|मैं|我|私は|저는|나는)\b", "", before, flags=re.I
    )
    return not before.strip(" \t\n,.;:!?-—、。") or bool(
        re.match(
            r"^\W*(?:lo\s+siento|désolé|es\s+tut\s+mir\s+leid|leider|mi\s+dispiace|desculpe|"
            r"sinto\s+muito|sorry|excuses|üzgünüm|przepraszam|xin\s+lỗi|извините|к\s+сожалению|"
            r"آسف|माफ़|申し訳|すみません|죄송|抱歉|对不起)",
            before,
            re.I,
        )
    )
