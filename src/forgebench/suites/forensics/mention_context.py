"""What the words around an option's mention say of it: negated ("not a GAN", in English and,
through :mod:`.other_languages`, the other languages), dismissed after it ("removal is out of the
question"), the losing side of a comparison ("more likely than copy-move"), hypothetical ("to
decide whether it is AI-generated") or generic ("typical of GANs", "copy-move forgeries usually
show ..."), or a part of the image ("partly generated", "the background has been generated").

Read by :mod:`.option_text` for every mention of an option's words, and by :mod:`.reading` for
letters dismissed after them ("D is out").
"""

from __future__ import annotations

import re

from forgebench.suites.forensics import other_languages as other

_NEG_WORDS = (
    r"(?<!than )not|non|never|no(?!\s+(?:it|this|that|i|we|you|doubt|canto|lado|centro|meio|topo|fundo|quadro|vídeo|quadrante)\b)|without(?!\s+(?:a\s+)?doubt)|"
    r"(?<!no )(?<!without )(?<!without a )doubts?|doubted|hard to believe|far from|a stretch to call|too [\w-]+ to be|free of|absence of|lack of|lacks|lacking|isn't|wasn't|aren't|"
    r"weren't|hasn't|haven't|doesn't|didn't|don't|cannot|can't|couldn't|wouldn't|won't|neither|nor|nothing|none of|"
    r"rule out|ruled out|ruling out|exclude|excluding|excluded|eliminate|eliminating|rather than|instead of|as opposed to|unlike|"
    r"nothing (?:about (?:it|this|the \w+) |here |in (?:it|this|the \w+) )?(?:suggests|indicates|points to|hints at)"
)
_NEGATOR = re.compile(
    rf"(?:(?:^|[^a-z'])(?:{_NEG_WORDS})|(?<![\w'])(?:{other.NEG_WORDS_OTHER}))(?:\s+[\w']+){{0,5}}\s*$"
)
_HYPOTHETICAL = re.compile(
    r"(?:^|[^a-z])(?:whether|if|to\s+(?:determine|decide|judge|tell|assess|check|detect)|"
    r"(?:look|check|search|scan|analy[sz]|inspect|examin)\w*(?:\s+[\w']+){0,4}?\s+for)"
    r"(?:\s+[\w']+){0,6}\s*$"
)
DISMISSED_AFTER = (
    r"\s*(?:\([^)]{0,40}\)\s*)?(?:(?:is|are|was|seems?|looks?|appears?|would\s+be|as)\s+)?"
    r"(?:(?:far|much|a\s+lot|even|also|clearly|quite)\s+)?(?:less\s+(?:likely|plausible|probable|"
    r"convincing)(?!\s+than)|unlikely|implausible|improbable|out(?:\s+of\s+the\s+question)?(?=\s*(?:[,.;:!)]|$|"
    r"\s(?:and|but|since|because|as)\b))|ruled\s+out|excluded|wrong|incorrect|impossible|"
    r"not\s+(?:it|correct|right|the\s+answer|likely|plausible|possible|applicable)|"
    r"(?:the\s+|a\s+|my\s+)?(?:runner[\s-]up|(?:distant|close)\s+second|second\s+(?:choice|pick|best)|"
    r"(?:next|second)\s+best|closest\s+alternative))\b|"
    r"\s*(?:\([^)]{0,40}\)\s*)?(?:does|do|did)\s*(?:n't|not)\s+(?:really\s+|quite\s+|even\s+)?"
    r"(?:fit|apply|match|work|hold)\b|\s*(?:can|could)\s+be\s+(?:ruled\s+out|excluded|dismissed|"
    r"discarded)\b"
)
"""English words after an option (its letter or its words) that dismiss it ("A GAN is less
plausible", "Option B (non AI-manipulated) doesn't fit", "removal is out of the question")."""
DISMISSED = re.compile(DISMISSED_AFTER, re.I)
PARTIAL = re.compile(r"(?:^|[^a-z])(?:partially|partly|partial|in\s+part)(?:\s+[\w']+){0,2}\s*$")
PART_SUBJECT = re.compile(
    r"(?:^|[^a-z])(?:the|its|some|one|a)\s+(?:background|foreground|sky|object|objects|logo|"
    r"element|elements|part|parts|portion|portions|section|sections|text)"
    r"(?:\s+(?:of\s+)?[\w']+){0,3}\s+(?:has|have|had|was|were|is|are|looks?|seems?|appears?)"
    r"(?:\s+(?:been|likely|clearly|"
    r"probably|partly|also))*\s*$"
)
"""A part of the image as the subject of "generated" ("but the background has been AI-generated"):
the rest is then a photograph, and a partly generated image takes neither side."""
_CLAUSE_BREAK = re.compile(
    r"[,;:.!?()\n，。；：！？،؛]|\b(?:but|however|although|though|while|whereas|and|so|because|since)\b|"
    + other.BUT_OTHER
)


def clause_before(hay: str, start: int) -> str:
    before = hay[:start]
    cut = max((m.end() for m in _CLAUSE_BREAK.finditer(before)), default=0)
    return before[cut:]


_COMPARED = re.compile(r"(?:^|[^a-z'])(?:more \w+ than(?! not)|better than)(?:\s+[\w']+){0,5}\s*$")
"""An option after "more likely than" / "better than": ruled out beside a binary pair's other
side; among more options only where the answer names every option ("far more likely than
copy-move, removal is out of the question, face swap doesn't apply"), else still named (among
four options "A is more likely than B" alone picks none)."""


_LESS_THAN = re.compile(
    r"\s*(?:(?:is|are|was|seems?|looks?|appears?)\s+)?(?:(?:far|much|a\s+lot|even)\s+)?less\s+\w+\s+than\b"
)
"""After an option: "splicing is less likely than removal", the losing side of a comparison."""


def compared(hay: str, start: int, end: int) -> bool:
    return bool(_COMPARED.search(clause_before(hay, start)) or _LESS_THAN.match(hay, end))


_PREFER = (
    r"(?:choose|chose|choosing|pick|picked|picking|prefer|preferred|go\s+with|going\s+with|select|"
    r"selected|favou?r|favou?ring|opt\s+for|lean\s+towards?|leaning\s+towards?)"
)
_PASSED_OVER = re.compile(
    rf"(?:^|[^a-z']){_PREFER}\b[^,.;:!?\n]{{1,60}}?\s(?:over|rather\s+than|instead\s+of)"
    r"(?:\s+(?:the|a|an))?\s*$"
)
PREFERRED = re.compile(
    rf"\b{_PREFER}\s+(?P<f>[^.;!?\n]+?)\s+(?:over|rather\s+than|instead\s+of)\s+(?P<o>.+)",
    re.I | re.S,
)
"""A choice stated against another option ("I'd choose GANs over diffusion models", "between
the two I'd pick AI-generated over non AI-generated"): the other one is passed over."""


def passed_over(hay: str, start: int) -> bool:
    """The option after "I'd choose X over ...": not chosen (:data:`PREFERRED`)."""
    return bool(_PASSED_OVER.search(hay, max(0, start - 120), start))


def negated(hay: str, start: int) -> bool:
    clause = clause_before(hay, start)
    return bool(_NEGATOR.search(clause) or other.NEGATOR_ZH.search(clause)) or other.doubted(
        hay, start
    )


def hypothetical(hay: str, start: int) -> bool:
    """A mention that asserts nothing ("to decide whether it is AI-generated")."""
    return bool(_HYPOTHETICAL.search(hay[max(0, start - 80) : start]))


_GENERIC_BEFORE = re.compile(
    r"(?:typical|characteristic|common|frequent|usual|known|seen|found|classic)\s+(?:of|in|for|with|among)"
    r"(?:\s+(?:many|most|some|other))?\s*$|(?<!most\s)(?:consistent|in\s+line)\s+with\s+(?:an?\s+|the\s+)?$|"
    r"like\s+(?:those|the\s+ones|that)\s+(?:in|of|from)\s+(?:an?\s+|the\s+)?$|"
    r"(?:reminiscent|suggestive|indicative)\s+of\s+(?:an?\s+)?$|"
    r"(?:similar|comparable)\s+to\s+(?:an?\s+|the\s+)?$|resembl\w*\s+(?:an?\s+|the\s+)?$"
)
_GENERIC_AFTER = re.compile(
    r"\s*(?:images?|photos?|photographs?|pictures?|videos?|content|media|models?|methods?|edits?|"
    r"forger(?:y|ies)|manipulations?|fakes?|arte?facts?|networks?|pipelines?|generators?|techniques?|"
    r"tools?)?(?:\s+(?:such\s+as|like)\s+[^,.;]{1,30}?)?\s+(?:are\s+|is\s+)?"
    r"(?:often|usually|normally|typically|commonly|generally|frequently|tend\s+to|can|may|sometimes|"
    r"rarely|common\s+in|known\s+(?:for|to)|widely\s+used|popular\s+(?:in|for))\b"
)
_TOOL_AFTER = re.compile(
    r"[\s-]*(?:detectors?|detection|classifiers?|checkers?|analysis\s+tools?)\b"
)
"""A kind of forgery naming a tool ("a dedicated deepfake detector"): no claim about the image."""
_SENTENCE_END = re.compile(r"[.!?;\n]")
_GENERIC_SENTENCE = re.compile(
    r"\b(?:you|we|one)\s+(?:would\s+)?(?:normally|usually|typically|often|generally)\s+(?:find|see|get|"
    r"expect|notice)\b|\b(?:usually|typically|normally|commonly|generally|tend\s+to)\s+(?:show|leave|"
    r"produce|create|cause|exhibit|introduce|have)s?\b"
)
"""A sentence about what a kind of forgery usually looks like, not about this image."""
_GENERIC_IN = re.compile(r"(?:^|[^a-z])in\s+(?:most\s+|many\s+|typical\s+|other\s+|real\s+)?$")
_GENERIC_IN_AFTER = re.compile(
    r"\s*(?:images|photos|photographs|pictures|videos|content|media|forgeries|fakes)\b"
)


def generic(hay: str, start: int, end: int) -> bool:
    """A mention about a class of media, not this one ("typical of AI-generated images", "real
    photos usually have more noise", "copy-move forgeries usually show ...", "in AI-manipulated
    images you normally find ..."): it implies a side at most, and an implication is no claim."""
    before = hay[max(0, start - 60) : start]
    if _GENERIC_IN.search(before) and _GENERIC_IN_AFTER.match(hay, end):
        return True  # "in AI-manipulated images you normally find ..."
    a = max((m.end() for m in _SENTENCE_END.finditer(hay, 0, start)), default=0)
    b = _SENTENCE_END.search(hay, end)
    if _GENERIC_SENTENCE.search(hay[a : b.start() if b else len(hay)]):
        return True  # "... usually show duplicated regions", "you normally find an edited region"
    return (
        bool(_GENERIC_BEFORE.search(before))
        or bool(_GENERIC_AFTER.match(hay, end))
        or bool(_TOOL_AFTER.match(hay, end))
        or bool(_AN_BEFORE.search(before) and _WOULD_AFTER.match(hay, end))
    )


_AN_BEFORE = re.compile(r"(?:^|\W)an?\s+$")
_WOULD_AFTER = re.compile(
    r"\s*(?:images?|photos?|photographs?|pictures?|videos?|frames?|versions?)?\s+(?:would|should|will)\s+"
    r"(?:\w+\s+)?(?:show|have|contain|display|exhibit|look|carry|leave|reveal)\b"
)
"""What "an AI-manipulated image would show" describes: a class of media, no claim."""
