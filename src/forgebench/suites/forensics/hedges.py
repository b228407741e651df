"""Answers that decline or do not decide: refusals, hedges, conditionals, retractions.

The rules (:mod:`.extract`) read no letter from these; each gives ``Z`` with its reason
(``refusal`` or ``hedge``). English first (VLMEvalKit's refusal strings, refusal openings,
"I can't tell", conditionals such as "if X then C, otherwise B"), then the same kinds in the
eighteen other languages the rules know (fr, es, de, it, pt, ja, ko, ru, zh, nl, tr, pl, vi, ar,
hi, sv, cs, hu), in :data:`CANT_TELL` ("I can't tell", "I don't know", "I can't confirm / verify /
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
    r"i am unable|i['’]?m not able|i am not able|i won['’]?t|as an ai|抱歉|对不起|我无法|无法)",
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
    r"say|verify|confirm|settle|distinguish|decide|call\s+it|be\s+(?:sure|certain|determined))\b|"
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
CONDITIONAL = re.compile(
    r"\bif\b[^.;\n]*\b(?:otherwise|else|if\s+not|if\s+it)\b|\botherwise\b[^.\n]*$|\bunless\b|"
    r"\bif\b[^.;?!\n]*[.;]\s+(?:otherwise|else|if\s+not)\b|"
    r"\bif\s+(?!i\s+(?:had|have|must|were|need)\b|forced\b|you\s+ask\b)[^.;?!\n]{3,80}[;,]\s*(?:but\s+|and\s+)?"
    r"if\s+(?!i\s+(?:had|have|must|were|need)\b|forced\b|you\s+ask\b)[^.;?!\n]{3,80}[,:]|"
    r"\bif\s+(?!i\s+(?:had|have|must|were|need)\b|forced\b|you\s+ask\b|anything\s*,|only\b)[^.;\n]*,\s*[^.;\n]{1,60}?"
    r"\bwould\s+be\s+(?:the\s+)?(?:closest|best|most\s+(?:likely|accurate|plausible)|likeliest|right|"
    r"correct)\b|"
    r"\bonly\s+if\b|\bprovided\s+that\b|(?:^\s*|[,;.?!]\s*)if\s+(?:not|so)\b\s*,|\bassuming\b|"
    r"\bif\b[^.\n]*\b(?:would|might|could)\s+be\s+(?:better|correct|right|more\s+accurate)\b|"
    r"\bif\s+(?!i\s+(?:had|have|must|were|need)\b|forced\b|you\s+ask\b)[^.,;\n]*,\s*(?:then\s+)?(?:option\s+)?"
    r"[(\[]?[A-Y][)\]]?\s*(?:[.)]|$|\s+(?:is|would\s+be)\s+(?:correct|right|the\s+answer|better|best)\b)|"
    r"\bif\s+(?!i\s+(?:had|have|must|were|need)\b|forced\b|you\s+ask\b)[^.,;\n]*,\s*(?:then\s+)?[^.,;\n]{1,40}?"
    r"\s+(?:is|would\s+be)\s+(?:correct|right|the\s+answer|better|best)\b[^.\n]*;\s*if\b|"
    r"\b(?:would\s+be|is\s+(?:right|correct|the\s+answer))\s+(?:[^.\n]{0,30}\s)?if\b|"
    r"\bif\s+not\s*[.!]?\s*$|\bdepend(?:s|ing)\s+on\b|\bdepends\b\s*[:;,]|\bassuming\b[^.\n]*\b(?:otherwise|else)\b",
    re.I,
)
CONDITIONAL = re.compile(
    CONDITIONAL.pattern + r"|(?<!\w)(?:depende\s+d[eao]\w*|ça\s+dépend|cela\s+dépend|dépend\s+d\w*|"
    r"hängt\s+(?:davon\s+)?ab|hängt\s+(?:\w+\s+){0,3}?ab|kommt\s+(?:ganz\s+)?darauf\s+an|dipende\s+da\w*|"
    r"зависит\s+от|zależy\s+od|afhankelijk\s+van|hangt\s+af\s+van)(?!\w)|取决于|"
    r"如果[^。；\n]*(?:否则|不然|要不然)|(?:에\s*따라\s*(?:다르|달라))|" + CONDITIONAL_OTHER,
    re.I,
)
"""An answer that makes its choice conditional ("if X then C, otherwise B", "depende de",
"hängt davon ab", "зависит от", "如果...否则", "se ..., altrimenti A", :data:`.other_languages.CONDITIONAL_OTHER`): ``Z``."""
RETRACTION = re.compile(
    r"^\W*(?:no|nope|hmm+|i\s*(?:'?m|\s+am)\s+not\s+(?:sure|certain)|not\s+sure|unsure)\b[^A-Za-z]*"
    r"(?:(?:i\s*(?:'?m|\s+am)\s+)?not\s+(?:sure|certain)[^A-Za-z]*)?$",
    re.I,
)
"""What follows a correction cue when it only takes the answer back ("Wait, no.")."""

_W = r"(?<![^\W\d_])"
"""A word start in any script with spaces (the CJK entries need none)."""

CANT_TELL: dict[str, tuple[str, ...]] = {
    "en": (r"i\s+can(?:no|')?t\s+decide", r"can'?t\s+make\s+up\s+my\s+mind", r"no\s+idea",
           r"(?:can(?:no|')?t|unable\s+to)\s+pin\s+(?:it\s+|this\s+|that\s+)?down",
           r"i(?:'d|\s+would)\s+need\s+(?:the\s+original|more|additional|higher)",
           r"(?:cannot|can't|can\s+not|unable\s+to|not\s+(?:actually\s+|really\s+)?able\s+to)\s+(?:\w+\s+){0,2}?(?:determine|tell|say|verify|"
           r"confirm|settle|distinguish|call\s+it|narrow\s+it\s+down|be\s+(?:sure|certain))\b",
           r"(?:hard|difficult|impossible)\s+to\s+(?:tell|say|determine|judge)\b",
           r"not\s+(?:entirely\s+|really\s+|totally\s+|fully\s+|100%\s+)?(?:sure|certain|confident)\b",
           r"(?:cannot|can't|can\s+not)\s+rule\s+(?:it|this|that|them)\s+out\b",
           r"(?:don't|do\s+not)\s+rely\s+on\s+(?:this|it|that)\b",
           r"(?:don't|do\s+not)\s+have\s+enough\s+(?:information|detail|evidence|context|resolution)\b",
           r"(?:cannot|can't|unable\s+to)\s+(?:make|give|reach)\s+(?:a|an|any)\s+(?:\w+\s+)?(?:call|verdict|decision)\b",
           r"(?:cannot|can't|unable\s+to)\s+(?:single\s+out|pick|choose|commit\s+to)\s+(?:one|a\s+single|either|between)\b",
           r"(?:cannot|can't|unable\s+to)\s+(?:pick|choose)\s*[.!]", r"(?:don't|do\s+not)\s+know\s+(?:which|whether|if)\b",
           r"(?:cannot|can't|unable\s+to)\s+(?:attribute|identify|pinpoint|assign)\b", r"\b50\s*/\s*50\b|fifty[\s-]fifty|toss[\s-]up",
           r"could\s+be\s+any\s+(?:of\s+them|one|quadrant|option|region|of\s+the\s+\w+)",
           r"(?:won't|will\s+not|cannot|can't)\s+(?:label|classify|call)\s+(?:it|this|the)\b[^.\n]*\bor\b",
           r"(?:wouldn't|would\s+not|won't|will\s+not|can't|cannot)\s+(?:\w+\s+)?commit\b",
           r"(?:refrain|abstain)\s+from\s+(?:picking|choosing|answering|committing)\b",
           r"(?:leave|leaving)\s+it\s+(?:undecided|open|unanswered)\b",
           r"(?:don't|do\s+not)\s+want\s+to\s+(?:give|pick|commit|guess)\b",
           r"i\s+(?:really\s+|genuinely\s+|honestly\s+|just\s+)?(?:don't|do\s+not)\s+know\b",
           r"(?:weigh|rate|score)\s+(?:these|them|both|the\s+two)\s+(?:about\s+|roughly\s+)?(?:equally|the\s+same)\b",
           r"neither\s+(?:one\s+)?(?:fits|is)\s+(?:clearly\s+|obviously\s+)?(?:better|more\s+likely)\b",
           r"(?:both|either)\s+(?:are|is|seem|look)\s+(?:equally\s+)?(?:plausible|possible|likely)\s*[:;.,]",
           r"wouldn't\s+put\s+(?:much|any)\s+weight\s+on\b",
           r"(?:i'?m|i\s+am)\s+(?:now\s+|genuinely\s+|really\s+|honestly\s+|still\s+|quite\s+)?unsure\b"),
    "fr": (r"je\s+ne\s+(?:peux|sais)\s+pas\s+(?:l['’]|le\s+|la\s+)?(?:\w+\s+){0,2}?(?:dire|savoir|déterminer|décider|trancher|"
           r"confirmer|vérifier|affirmer|analyser|évaluer|juger)",
           r"(?:il\s+est\s+|c['’]est\s+)?impossible\s+(?:de\s+)?(?:l['’]|le\s+)?(?:dire|savoir|déterminer|trancher|affirmer|confirmer)",
           r"les\s+deux\s+(?:\w+\s+){0,2}?(?:sont|semblent|paraissent)\s+(?:\w+\s+)?(?:plausibles|possibles)",
           r"(?:je\s+ne\s+suis\s+)?pas\s+en\s+mesure\s+de", r"je\s+ne\s+saurais\s+(?:pas\s+)?(?:dire|trancher)",
           r"je\s+ne\s+sais\s+pas", r"difficile\s+(?:à|de)\s+(?:dire|savoir|trancher|déterminer)",
           r"impossible\s+de\s+(?:dire|savoir|déterminer|trancher)", r"je\s+n'arrive\s+pas\s+à\s+(?:décider|trancher)",
           r"(?:je\s+ne\s+suis\s+)?pas\s+(?:tout\s+à\s+fait\s+|très\s+|vraiment\s+)?(?:sûre?|certaine?)"),
    "es": (r"no\s+(?:puedo|sabría|podría)\s+(?:\w+\s+){0,3}?(?:saber|decir|determinar|decidir|confirmar|verificar|afirmar|"
           r"asegurar|analizar|evaluar|juzgar|ayudar)\w*", r"no\s+es\s+posible\s+(?:\w+\s+)?(?:saber|decir|determinar|afirmar|confirmar)\w*",
           r"amb[ao]s\s+(?:\w+\s+){0,2}?(?:son|parecen)\s+(?:\w+\s+)?(?:plausibles|posibles)",
           r"no\s+tengo\s+(?:forma|manera|modo|cómo)\s+de\s+(?:saber|determinar|decir|confirmar)",
           r"no\s+(?:estoy\s+en\s+condiciones|soy\s+capaz|estoy\s+en\s+posición)\s+de", r"no\s+(?:lo\s+)?sé\b", r"no\s+estoy\s+segur[oa]",
           r"(?:es\s+)?difícil\s+(?:de\s+)?(?:decir|saber|determinar)", r"imposible\s+(?:de\s+)?(?:decir|saber|determinar)"),
    "de": (r"(?:ich\s+)?kann\s+(?:\w+\s+){0,4}?nicht\s+(?:\w+\s+){0,2}?(?:sagen|erkennen|entscheiden|bestimmen|beurteilen|"
           r"feststellen|bestätigen|überprüfen|verifizieren|analysieren)",
           r"lässt\s+sich\s+(?:\w+\s+){0,4}?nicht\s+(?:\w+\s+)?(?:sagen|feststellen|beurteilen|bestimmen|entscheiden|erkennen)",
           r"beide\s+(?:\w+\s+){0,2}?(?:sind|scheinen|wirken)\s+(?:\w+\s+)?(?:plausibel|möglich|denkbar)",
           r"nicht\s+in\s+der\s+lage", r"sicher\s+bin\s+ich\s+(?:mir\s+)?(?:da\s+)?nicht",
           r"schwer\s+zu\s+(?:sagen|erkennen|beurteilen|entscheiden)", r"weiß\s+(?:ich\s+)?(?:es\s+)?nicht", r"nicht\s+sicher",
           r"(?:kann|könnte)\s+(?:\w+\s+){0,2}?keine\s+(?:\w+\s+)?(?:aussagen?|angaben|einschätzung|beurteilung|bewertung)\s+"
           r"(?:\w+\s+){0,2}?(?:treffen|machen|abgeben|geben)", r"nicht\s+genug\s+(?:informationen|hinweise|anhaltspunkte)"),
    "it": (r"non\s+(?:posso|riesco\s+a)\s+(?:\w+\s+){0,3}?(?:dir|saper|determinar|decider|capir|confermar|verificar|"
           r"stabilir|valutar|analizzar|giudicar)(?:e|lo|la|li|ne)\b", r"non\s+(?:lo\s+)?so\b",
           r"non\s+è\s+possibile\s+(?:\w+\s+)?(?:dir|saper|stabilir|determinar|capir|decider|confermar|valutar)\w*",
           r"impossibile\s+(?:da\s+)?(?:dir|stabilir|determinar|capir)\w*",
           r"entramb[ei]\s+(?:\w+\s+){0,2}?(?:sono|sembrano)\s+(?:\w+\s+)?(?:plausibili|possibili|compatibili|valide|verosimili)",
           r"non\s+saprei", r"non\s+sono\s+in\s+grado\s+di", r"(?:esserne|esserlo)\s+(?:del\s+tutto\s+)?(?:cert|sicur)[oa]",
           r"difficile\s+(?:da\s+)?(?:dire|capire|stabilire)", r"non\s+(?:ne\s+)?sono\s+(?:del\s+tutto\s+)?(?:sicur[oa]|cert[oa])"),
    "pt": (r"não\s+(?:posso|consigo)\s+(?:\w+\s+){0,3}?(?:dizer|saber|determin|decidir|confirm|verific|afirm|"
           r"analis|avali)\w*", r"não\s+é\s+possível\s+(?:\w+\s+)?(?:dizer|saber|determinar|afirmar|confirmar)\w*",
           r"amb[ao]s\s+(?:\w+\s+){0,2}?(?:são|parecem)\s+(?:\w+\s+)?(?:plausíveis|possíveis)",
           r"não\s+sou\s+capaz\s+de", r"não\s+dá\s+para\s+(?:saber|dizer|determinar|afirmar)",
           r"não\s+tenho\s+como\s+(?:saber|dizer|determinar|confirmar|afirmar|verificar)", r"não\s+sei\b", r"não\s+tenho\s+certeza", r"não\s+estou\s+(?:segur[oa]|cert[oa])",
           r"(?:é\s+)?difícil\s+(?:de\s+)?(?:dizer|saber|determinar)"),
    "nl": (r"beide\s+(?:\w+\s+){0,2}?(?:zijn|lijken)\s+(?:\w+\s+)?(?:mogelijk|plausibel|aannemelijk|even\s+waarschijnlijk)", r"kan\s+(?:\w+\s+){0,3}?niet\s+(?:\w+\s+){0,2}?(?:zeggen|bepalen|beslissen|kiezen|bevestigen|verifiëren|controleren|analyseren|beoordelen)", r"moeilijk\s+te\s+zeggen",
           r"weet\s+(?:ik\s+)?(?:het\s+)?niet", r"niet\s+zeker"),
    "tr": (r"(?:ikisi|her\s+ikisi)\s+de\s+(?:\w+\s+)?(?:olası|mümkün|makul|olabilir)", r"söylemek\s+zor", r"emin\s+değilim", r"bilemiyorum", r"emin\s+olamıyorum", r"karar\s+veremiyorum", r"bilmiyorum",
           r"(?:belirleyemiyorum|anlayamıyorum|söyleyemem|doğrulayamam|doğrulayamıyorum|teyit\s+edemem|teyit\s+edemiyorum)",
           r"yeterli\s+(?:bilgi|veri|kanıt)\w*\s+(?:sahip\s+değilim|yok)"),
    "pl": (r"(?:oba|obie|obydwa|obydwie)\s+(?:\w+\s+){0,2}?(?:są|wydają\s+się)\s+(?:\w+\s+)?(?:możliwe|prawdopodobne|wiarygodne)", r"trudno\s+(?:powiedzieć|stwierdzić|ocenić)", r"nie\s+(?:mogę|potrafię|umiem)\s+(?:\w+\s+){0,3}?(?:powiedzieć|określić|"
           r"zdecydować|ocenić|potwierdzić|zweryfikować|stwierdzić|przeanalizować|analizować)",
           r"nie\s+wiem", r"nie\s+jestem\s+pew(?:ien|na)"),
    "vi": (r"cả\s+hai\s+(?:\w+\s+){0,2}?(?:đều\s+)?(?:có\s+thể|hợp\s+lý|khả\s+thi)", r"khó\s+(?:nói|xác\s+định)", r"không\s+thể\s+(?:xác\s+định|nói|biết|quyết\s+định|xác\s+nhận|khẳng\s+định|phân\s+tích)",
           r"không\s+chắc",
           r"không\s+biết"),
    "ru": (r"не\s+могу\s+(?:\w+\s+){0,3}?(?:сказать|определить|решить|понять|анализировать|проанализировать|оценить|"
           r"подтвердить|проверить|судить|установить|помочь)", r"(?:трудно|сложно)\s+(?:сказать|определить)",
           r"(?:невозможно|нельзя)\s+(?:\w+\s+){0,2}?(?:сказать|определить|установить|судить)",
           r"не\s+в\s+состоянии", r"не\s+берусь", r"(?:сказать|определить|утверждать)\s+не\s+могу",
           r"об[аеи]\s+(?:\w+\s+){0,2}?(?:возможны|правдоподобны|вероятны|допустимы)",
           r"не\s+знаю", r"не\s+уверен[аы]?"),
    "ar": (r"كلاهما\s+(?:\S+\s+)?(?:محتمل|ممكن|وارد)", r"من\s+الصعب\s+(?:القول|تحديد|الجزم)", r"لا\s+(?:يمكنني|يمكن)\s+(?:\S+\s+)?(?:تحديد|القول|الجزم|التأكد)", r"لا\s+أستطيع\s+(?:\S+\s+)?(?:تحديد|القول|أن\s+أحدد|الجزم|التمييز)",
           r"لا\s+أعرف", r"غير\s+متأكد"),
    "hi": (r"कहना\s+मुश्किल", r"नहीं\s+कह\s+(?:सकता|सकती)", r"तय\s+नहीं\s+कर\s+(?:सकता|सकती|पा)", r"पता\s+नहीं", r"निश्चित\s+नहीं",
           r"नहीं\s+बता\s+(?:सकता|सकती)", r"पुष्टि\s+नहीं\s+कर\s+(?:सकता|सकती|पा)",
           r"दोनों\s+(?:\S+\s+){0,2}?(?:समान|बराबर|संभव)", r"(?:विश्लेषण|निर्धारण)\s+नहीं\s+कर\s+(?:सकता|सकती)"),
    "sv": (r"båda\s+(?:\w+\s+){0,2}?(?:är|verkar)\s+(?:\w+\s+)?(?:möjliga|rimliga|troliga)", r"svårt\s+att\s+(?:säga|avgöra|bedöma)", r"(?:jag\s+)?vet\s+inte", r"inte\s+säker",
           r"kan\s+inte\s+(?:\w+\s+)?(?:avgöra|säga|bedöma|bestämma|bekräfta|verifiera|analysera|fastställa)"),
    "cs": (r"ob[aě]\s+(?:\w+\s+){0,2}?(?:jsou|se\s+zdají)\s+(?:\w+\s+)?(?:možné|pravděpodobné|věrohodné)", r"těžko\s+(?:říct|říci|posoudit|rozhodnout)", r"nevím", r"nejsem\s+si\s+jist[ýáé]",
           r"(?:nemohu|nemůžu|nedokážu|nelze)\s+(?:\w+\s+){0,3}?(?:určit|říct|říci|rozhodnout|posoudit|potvrdit|ověřit|analyzovat)"),
    "hu": (r"mindkett(?:ő|ő\s+\w+)\s+(?:\w+\s+)?(?:lehetséges|valószínű|elképzelhető)", r"nem\s+tudom\s+(?:\w+\s+)?(?:eldönteni|megmondani|megállapítani|megítélni)", r"nehéz\s+(?:megmondani|eldönteni|megállapítani)",
           r"nem\s+vagyok\s+biztos", r"nem\s+lehet\s+(?:\w+\s+)?(?:megállapítani|eldönteni|megmondani)"),
    "ro": (r"nu\s+(?:pot|putem)\s+(?:să\s+)?(?:\w+\s+){0,2}?(?:spune|spun|determina|determin|stabili|stabilesc|decide|"
           r"afirma|confirma|verifica|analiza|evalua)", r"greu\s+de\s+(?:spus|determinat|stabilit)", r"nu\s+știu",
           r"nu\s+sunt\s+(?:\w+\s+)?sigur[ăa]?", r"ambele\s+(?:\w+\s+){0,2}?(?:sunt|par)\s+(?:\w+\s+)?(?:plauzibile|posibile)"),
    "fi": (r"(?:en|emme)\s+(?:\w+\s+)?(?:pysty|osaa|voi)\s+(?:\w+\s+){0,2}?(?:sanomaan|sanoa|arvioimaan|arvioida|"
           r"määrittämään|määrittää|päättämään|päättää|varmistamaan|tunnistamaan|erottamaan)",
           r"vaikea\s+(?:sanoa|arvioida|määrittää|päättää)", r"en\s+tiedä", r"en\s+ole\s+(?:\w+\s+)?varma",
           r"molemmat\s+(?:\w+\s+){0,2}?(?:ovat|vaikuttavat)\s+(?:\w+\s+)?(?:mahdollisia|uskottavia)"),
    "id": (r"(?:saya\s+)?(?:tidak|kurang|belum)\s+(?:terlalu\s+|begitu\s+)?yakin", r"(?:sulit|sukar|susah)\s+(?:untuk\s+)?"
           r"(?:di)?(?:katakan|kata|tentukan|pastikan|nilai|bedakan)\w*", r"(?:tidak|tak)\s+(?:dapat|bisa|boleh|mampu)\s+"
           r"(?:\w+\s+){0,2}?(?:menentukan|memastikan|mengatakan|menilai|membedakan|menganalisis|memutuskan|mengetahui)",
           r"(?:saya\s+)?tidak\s+tahu", r"kedua(?:nya)?\s+(?:\w+\s+){0,2}?(?:sama[\s-]+sama\s+)?(?:mungkin|masuk\s+akal)"),
    "sw": (r"(?:zote|yote)\s+mbili\s+(?:\w+\s+)?(?:zinawezekana|inawezekana)", r"siwezi\s+(?:\w+\s+){0,2}?(?:kubaini|kusema|kujua|kuamua|kutambua|kuthibitisha|kuchambua)", r"ni\s+vigumu\s+kusema",
           r"sina\s+uhakika", r"sijui"),
    "ta": (r"இரண்டும்\s+(?:\S+\s+)?(?:சாத்தியம்|சாத்தியமே)", r"சொல்ல\s+முடியவில்லை", r"தீர்மானிக்க\s+முடியவில்லை", r"உறுதியாக\s+(?:சொல்ல|கூற)\s+முடியாது", r"தெரியவில்லை",
           r"உறுதியாக\s+தெரியவில்லை", r"கண்டறிய\s+முடியவில்லை"),
    "ja": (r"(?:わかりません|分かりません|わからない|分からない|判断できません|判断できない|言えません|"
           r"決められません|決められない|判断が難しい|判断するのは難しい|どちらとも言え|断定できません|"
           r"(?:自信|確信)(?:は|が)?(?:ありません|ない|持てません|持てない)|確かではありません|確かではない|"
           r"断言できません|断言はできません|言い切れません|言い切れない|"
           r"(?:分析|判定|判別|特定|回答|お答え|検証)(?:は|が|を)?(?:することは)?(?:できません|できかねます|いたしかねます))",),
    "uk": (r"не\s+можу\s+(?:\w+\s+){0,3}?(?:сказати|визначити|підтвердити|перевірити|проаналізувати|аналізувати|оцінити|"
           r"допомогти|судити)", r"(?:важко|складно)\s+(?:сказати|визначити)", r"не\s+впевнен\w*", r"обидва\s+(?:\w+\s+)?(?:можливі|ймовірні)"),
    "he": (r"(?:לא|אינני|איני)\s+(?:יכול|יכולה|מסוגל|מסוגלת)?\s*(?:\w+\s+)?(?:לאשר|לקבוע|לדעת|לומר|להגיד|לנתח|לזהות)",
           r"לא\s+בטוח\w*", r"קשה\s+(?:לומר|לקבוע|להגיד)", r"(?:אני\s+)?לא\s+יודע\w*", r"שניהם\s+(?:\w+\s+)?אפשרי\w*"),
    "fa": (r"نمی[\u200c\s]?توانم\s+(?:\S+\s+){0,3}?(?:تأیید|تایید|تعیین|تشخیص|تحلیل|بگویم)", r"مطمئن\s+نیستم",
           r"سخت\s+است\s+(?:بگویم|گفتن)", r"نمی[\u200c\s]?دانم", r"هر\s+دو\s+(?:\S+\s+)?ممکن"),
    "el": (r"δεν\s+είμαι\s+(?:\w+\s+)?(?:σίγουρ|βέβαι)\w*", r"δύσκολο\s+να\s+(?:το\s+)?(?:πω|πει|κρίνω|προσδιορ\w*)", r"δεν\s+ξέρω",
           r"δεν\s+(?:μπορώ|είναι\s+δυνατόν)\s+να\s+(?:το\s+)?(?:\w+\s+){0,2}?(?:πω|προσδιορίσω|επιβεβαιώσω|καθορίσω|διακρίνω|"
           r"αποφασίσω|κρίνω|αναλύσω|επαληθεύσω|ξέρω)", r"και\s+τα\s+δύο\s+(?:\w+\s+){0,2}?(?:πιθαν|δυνατ|εύλογ)\w*"),
    "ko": (r"(?:모르겠|판단하기\s*어렵|알\s*수\s*없|말하기\s*어렵|결정할\s*수\s*없|판단할\s*수\s*없|결정하기\s*어렵|확실하지\s*않|"
           r"(?:확신|자신)(?:이|은)?\s*없|(?:장담|단정|확신|분석|답변|판별|판정|검증)할\s*수(?:는|가)?\s*없)",),
    "th": (r"(?:ไม่แน่ใจ|ไม่สามารถ(?:ระบุ|วิเคราะห์|ยืนยัน|บอก|ตัดสิน)|บอกไม่ได้|ยากที่จะ(?:บอก|ระบุ|ตัดสิน)|ไม่ทราบ)",),
    "zh": (r"(?:无法判断|不能确定|很难说|难以判断|说不准|不好说|无法确定|不确定|难以确定|拿不准|无法决定|决定不了|不知道|"
           r"说不好|不敢肯定|不能肯定|无法肯定|无法确认|不能确认|没法确认|无法判定|不好判断|都有可能|皆有可能|(?:无法|不能)(?:验证|核实|分析))",),
}  # fmt: skip
"""Per language: "I can't tell / say / decide", "hard to say", "I don't know", "not sure"."""

MAYBE = (
    r"maybe|perhaps|possibly|peut[\s-]être|quizás?|tal\s+vez|talvez|vielleicht|möglicherweise|forse|"
    r"misschien|belki|może|có\s+lẽ|kanske|možná|ربما|शायद|也许|或许|可能|たぶん|多分|かもしれ|아마|어쩌면|возможно|может\s+быть|"
    r"mungkin|ehkä|labda|talán|ஒருவேளை|ίσως|אולי|ייתכן|יתכן|شاید"
)
""""Maybe" in the eighteen languages: twice, each before another option, is a hedge."""
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
    r"både\b[^.;]*\boch|antingen\b[^.;]*\beller|baik\b[^.;]*\bmaupun)\b|要么[^。；;]*要么",
    re.I,
)
"""Both halves of a paired "either X or Y" / "both X and Y" in the other languages ("entweder
... oder", "soit ... soit", "либо ... либо", "как ..., так и", "要么 ... 要么"): two sides named
even where only one is read (``two_options``), unless a contrast after it states one."""
CONTRAST = re.compile(
    r"\b(?:but|however|that\s+said|still|nonetheless|nevertheless|even\s+so|(?:my\s+)?best\s+guess|"
    r"if\s+(?:i\s+had\s+to|forced\s+to)\s+(?:pick|choose|guess|say)|given\s+the\s+choice|mais|cependant|pero|sin\s+embargo|aber|jedoch|ma|però|mas|porém|maar|"
    r"ama|fakat|ale|jednak|nhưng|но|однако|αλλά|ωστόσο|όμως)\b|لكن|ولكن|लेकिन|但是|但|不过|でも|しかし|하지만|그러나|"
    r"(?:(?<=ません)|(?<=です)|(?<=ない))が[、,]|(?<=[없않렵])지만|(?<!\w)(?:אבל|אך|اما|ولی)(?!\w)|แต่",
    re.I,
)

_END = r"(?=\s*(?:[.;,!?:)]|$))"
OR_NOT: dict[str, tuple[str, ...]] = {
    "en": (rf"or\s+not{_END}",),
    "fr": (rf"ou\s+(?:peut-être\s+)?(?:pas|non){_END}",), "es": (rf"o\s+(?:tal\s+vez\s+|quizás?\s+)?no{_END}",),
    "it": (rf"o\s+(?:forse\s+)?(?:no|meno){_END}",), "pt": (rf"ou\s+(?:talvez\s+)?não{_END}",),
    "de": (rf"oder\s+(?:auch\s+|vielleicht\s+)?nicht{_END}",), "nl": (rf"of\s+(?:misschien\s+)?niet{_END}",),
    "ru": (rf"или\s+нет{_END}", r"а\s+может\s+(?:и\s+)?(?:нет|не\s+быть)"), "pl": (rf"(?:czy|lub|albo)\s+nie{_END}",),
    "cs": (rf"nebo\s+ne{_END}",), "sv": (rf"eller\s+(?:kanske\s+)?inte{_END}",), "hu": (rf"vagy\s+nem{_END}",),
    "tr": (r"ya\s+da\s+değil", r"olabilir\s+de\s+olmayabilir"), "vi": (rf"hoặc\s+không{_END}",),
    "ro": (rf"sau\s+(?:poate\s+)?nu{_END}",), "fi": (rf"vai\s+(?:ei|ei\s+ole){_END}",),
    "id": (rf"atau\s+(?:tidak|bukan){_END}",), "sw": (rf"au\s+(?:la|sivyo|hapana){_END}",),
    "zh": (r"也(?:有)?可能不是|或者不是|也可能没有",), "ja": (r"そう(?:では|じゃ|で)ない(?:かもしれ|可能性)",),
    "ko": (r"아닐\s*수도\s*있", r"그렇지\s*않을\s*수도"),
    "he": (r"ו?י?יתכן\s+שלא", r"או\s+שלא", rf"או\s+לא{_END}"), "el": (rf"ή\s+όχι{_END}", r"ή\s+μπορεί\s+και\s+όχι"),
    "fa": (rf"یا\s+نه{_END}",),
    "or maybe": (r"ou\s+peut-être(?!\s+pas)", r"o\s+(?:quizás?|tal\s+vez)(?!\s+no)", r"oder\s+vielleicht(?!\s+nicht)",
                 r"o\s+forse(?!\s+no)", r"ou\s+talvez(?!\s+não)", r"или,?\s+может\s+быть", r"of\s+misschien",
                 r"albo\s+może", r"ya\s+da\s+belki", r"hoặc\s+có\s+thể",
                 r"sau\s+poate(?!\s+nu)", r"atau\s+mungkin(?!\s+(?:tidak|bukan))", r"tai\s+ehkä"),
}  # fmt: skip
"""Per language: "X or not", "may be X or may not" (a binary pair's two sides at once), "X, or
maybe Y" (a second answer offered): a hedge."""

_CANT_TELL_WORDS = re.compile(
    r"\b(?:" + "|".join(p for table in (CANT_TELL, OR_NOT) for lang, ps in table.items()
                        if lang not in ("ja", "ko", "zh", "th") for p in ps) + ")",
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
    return why, rest, hedge is None and paired is None


_WEIGHS = re.compile(
    r"hard|difficult|difficile|difícil|schwer|moeilijk|zor|trudno|khó|трудно|сложно|الصعب|मुश्किल|難し|"
    r"어렵|很难|难以|不好说|说不准|拿不准|svårt|těžko|säker|jist|decid|décid|entscheid|beslis|karar|zdecyd|quyết|решить|決め|"
    r"결정|决定|yakin|sigur|varma|uhakika|vigumu|sulit|sukar|greu|vaikea|समान|sure|sûr|sicher|segur|sicur|certeza|zeker|emin|pew|chắc|уверен|متأكد|निश्चित|不确定|तय|σίγουρ|βέβαι|בטוח|مطمئن|แน่ใจ|впевнен",
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
