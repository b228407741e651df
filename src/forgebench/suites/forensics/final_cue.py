"""The final-cue gate of the rules (issue 39, precision first, fourth round).

A letter the rules read without a final cue of its own (the only letter an answer mentions, an
option's words somewhere in it; not an "Answer:", a leading letter or a concluding sentence)
stands only where the answer names no other option, by letter, number or words, claimed or not
(:func:`.option_text.named_letters`: "consistent with diffusion models" names an option too),
or where its last concluding sentence names this option alone. Otherwise:

- a concluding sentence ("Therefore ...", "Answer: ...", "... points to X") that names one other
  option alone picks that one (``conclusion``); several options read along the way, then such a
  sentence: that one too;
- an answer cut off by the token limit in a sentence that turns to another view ("However, the
  lighting could point to"): ``Z`` (``cut-turning``, a hedge); cut off elsewhere, only its whole
  sentences are read, and a letter found in the unfinished part alone is ``Z`` (``cut-off``);
- region options named in an answer of several sentences that names no forgery, only describes
  the image ("A man walks in the top left area."): ``Z`` (``description``);
- else the answer names two options and none is picked: ``Z`` (``two-named``).

A verdict line ("**Verdict:** only frame 1 is forged.") stands where the lines after it only
explain it (:func:`settles`: no correction, no other conclusion). So does an option's words
alone opening the answer ("Candidate 3. It covers ...; Candidate 4 stops at the eyebrows.":
``leading-text``), where no later sentence turns to another option and no concluding sentence
names another.

Measured on the corpus's tuning half (``benchmarks/extraction_accuracy.py``): the h39-fresh4
batch's tuning part had 8 wrong letters as written, h39-fresh6 (all tuning) 30; with the gate and
the fourth and fifth rounds' rules, 1 and 10 (those left: other languages, implications, an
answer that asks back).
"""

from __future__ import annotations

import re
from itertools import pairwise

from forgebench.suites.forensics.answer_text import scopes
from forgebench.suites.forensics.option_text import (
    OptionTexts,
    concessions_removed,
    named_letters,
    norm,
    polarity_of,
    text_letters,
)
from forgebench.suites.forensics.other_languages import CONCLUDING_OTHER
from forgebench.suites.forensics.reading import Reading, mentions

BARE = " \t\n.:;,!?()[]{}\"'<>。，：；！？-"
"""What is stripped around a bare answer ("(B).")."""
TEXT_WHOLE = 80
"""Answers up to this length (or twice the options' total length) are text-matched whole."""

VERDICT_LINE = re.compile(
    r"^\W*(?:most\s+likely|verdict|conclusion|final(?:\s+(?:answer|verdict|choice))?|answer|"
    r"result|overall|prediction)\s*[:\-]|^\s*(?:->|→|=>)",
    re.I,
)
"""A last line that gives the verdict after a list discussing the options."""
_TABLE_VERDICT = re.compile(
    r"^\s*\|[^|\n]*\b(?:answer|verdict|forged\s+(?:region|area)|region|prediction|result|label|"
    r"choice|conclusion)\b[^|\n]*\|\s*([^|\n]+?)\s*\|\s*$",
    re.I | re.M,
)
"""A markdown table row whose first cell names the verdict ("| Forged region | Bottom right |")."""
_HEADING_VERDICT = re.compile(
    r"^[ \t]*(?:final\s+)?(?:answer|verdict|conclusion|result|prediction)[ \t]*:?[ \t]*\n+(?=[ \t]*\S)",
    re.I | re.M,
)
"""A heading alone on its line ("## Verdict") whose next line gives the verdict."""
_TABLE_ROW = re.compile(
    r"^[ \t]*\|[ \t]*([^|\n]*?\w[^|\n]*?)[ \t]*\|[ \t]*([^|\n]*?\w[^|\n]*?)[ \t]*\|[ \t]*$", re.M
)
"""A two-column markdown table row (what a row that names the verdict leaves)."""


def settles(after: list[str]) -> bool:
    """Whether a verdict line ("**Verdict:** only frame 1") stands, given the lines after it:
    they explain it (no correction, no other conclusion), or there are none."""
    rest = "\n".join(after)
    return len(scopes(rest)) == 1 and not CONCLUDING.search(rest)


_COUNTERFACTUAL = re.compile(
    r"(?:^|(?<=[.!?]\s))\s*if\b(?!\s+(?:i|forced|you)\b)[^.!?\n]*\b(?:were|had\s+been)\b[^.!?\n]*"
    r"\bwould\b[^.!?\n]*[.!?]\s*(?=(?:instead|but|however|in\s+fact|in\s+reality|actually|here)\b)",
    re.I,
)
"""A counterfactual the next sentence sets aside ("If only the last frame were forged, the face
would jump at frame 7. Instead ..."): it claims nothing."""


_TAG_VERDICT = re.compile(
    r"<((?:final[_ ]?)?(?:answer|choice|option|verdict|prediction))>([^<>]{1,200}?)</\1\s*>", re.I
)
"""A verdict in an XML-like tag ("<answer>C</answer>")."""


def verdict_forms(text: str) -> str:
    """Verdicts written in markdown or tags made plain: a table row naming the verdict, a heading
    alone on its line ("## Verdict") and an "<answer>" tag become "Answer: ..."; other two-column rows "X: Y."; a
    counterfactual set aside by the next sentence is blanked (:data:`_COUNTERFACTUAL`)."""
    text = _COUNTERFACTUAL.sub(lambda m: " " * len(m.group(0)), text)
    text = _TAG_VERDICT.sub(lambda m: " Answer: " + m.group(2).strip() + ". ", text)
    text = _TABLE_VERDICT.sub(lambda m: "Answer: " + m.group(1) + ".", text)
    text = _HEADING_VERDICT.sub("Answer: ", text)
    return _TABLE_ROW.sub(r"\1: \2.", text)  # "| Top left | no |": "Top left: no."


_FINAL_CUE_RULES = frozenset(
    ["bare-letter", "json", "json-text", "cue", "conclusion", "leading-letter", "yes-no"]
)
"""Readings that rest on a final cue of their own (an "Answer:", a leading letter, a
concluding sentence); the others (a letter or an option's words somewhere) pass :func:`gated`."""
_SEVERAL = frozenset(["conflict", "several-letters"])
CONCLUDING = re.compile(
    r"^\W*(?:therefore|thus|so|hence|overall|finally|in\s+(?:conclusion|summary|short)|to\s+sum\s+up|"
    r"on\s+balance|all\s+in\s+all|taken\s+together|by\s+(?:elimination|process\s+of\s+elimination))\b|"
    r"\b(?:answer|verdict|conclu\w*|points?\s+(?:to|towards)|most\s+likely|commit\s+to|(?:i'm|i\s+am)\s+going\s+with|"
    r"my\s+(?:pick|choice|guess|vote)\s+(?:is|would\s+be|goes\s+to)|^\W*best(?:\s+(?:match|fit|option|guess))?(?=\s*:)|"
    r"given\s+the\s+choice|if\s+(?:i\s+had\s+to|forced\s+to)\s+(?:pick|choose|guess|say)|"
    r"i(?:\s+would|'d|\s+will|'ll)\s+"
    r"(?:go|pick|choose|say|select))\b",
    re.I,
)
CONCLUDING = re.compile(CONCLUDING.pattern + "|" + CONCLUDING_OTHER, re.I)  # "Respuesta:"


_CUT_TURNING = re.compile(
    r"(?:^|[.!?;:]\s+|\n)\W*(?:however|but|although|though|on\s+the\s+other\s+hand|alternatively|"
    r"then\s+again|wait|hmm+|yet)\b[^.!?\n]{12,}$",
    re.I,
)
"""An answer cut off (by the token limit) in a sentence that turns to another view."""
STOPPED = re.compile(r"[.!?)\]\"'。！？*`>|}]\s*$")
"""An answer that ends at a stop, a bracket, a quote or markup: not cut off by the token limit."""
_ENGLISH = re.compile(r"\b(?:the|is|are|of|in|on|and|there|this|with|a|an)\b")
_REGION_WORDS = re.compile(r"(?:top|bottom|upper|lower|left|right|cent(?:er|re)|middle|\s|-)+")
_FORGERY_WORD = re.compile(
    r"forg|fake|manipul|edit|tamper|paste|pasting|splic|insert|alter|doctor|synthe|generat|copie|copy|"
    r"clon|remov|eras|artifact|artefact|inconsisten|suspicious|unnatural|odd|seam|modif|chang|"
    r"add|wrong|anomal|mismatch|blur|smudg|retouch|photoshop|fabricat|swap|replac|composit|distort|"
    r"warp|differ|n't\s+match|not\s+match|repeat|duplicat|missing|strange|weird|unusual|irregular|"
    r"broken|discontinu|halo|bent|bend|doubl|flicker|jitter|glitch|unrealistic|impossible|break|agree",
    re.I,
)


_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _cut_off(text: str) -> str | None:
    """An answer cut off mid-sentence (by the token limit) after at least one whole sentence:
    its whole sentences; else None."""
    t = text.rstrip()
    if not t or not re.search(r"[\w,]$", t):
        return None
    ends = [0] + [m.end() for m in re.finditer(r"[.!?。！？](?=\s|$)|\n", t)]
    if len(ends) == 1:  # no whole sentence before it
        return None
    fragment = t[ends[-1] :]
    whole = sum(1 for a, b in pairwise(ends) if t[a : b - 1].strip())  # the sentences before it
    words = len(fragment.split()) + len(_CJK.findall(fragment)) // 2  # 2 kanji/kana for a word
    short = words < (2 if whole >= 2 else 4)  # "... Candidate 3" after a list
    if (
        short
        or re.search(r"(?<![A-Za-z])[A-Y]$|\||\banswer\s*:|^\s*(?:[-*•]|\d+[.)])\s", fragment)
        or VERDICT_LINE.match(fragment.strip())
    ):
        return None  # "Answer: D" without its period, a table row, a box, a list item: whole
    return t[: ends[-1]]


def _describes_only(text: str, spec: OptionTexts) -> bool:
    """Region options (corners, sides, centre) or boxes named in an answer that only describes
    the image ("A man is walking in the top left area.", "The man in the top left is smiling."):
    a place is named, no forgery is: no choice (a short answer that states a place, "Top left.",
    "It's in the top left.", is the answer)."""
    if spec.kind not in ("text", "boxes") or _FORGERY_WORD.search(text):
        return False
    if len(text) <= TEXT_WHOLE and not (  # "The man in the top left is smiling at the camera."
        len(text.split()) >= 6 and _PLACED.search(text) and not _STATES.search(text)
    ):
        return False
    if CONCLUDING.search(text):  # "... I'd go with that region."
        return False
    if len(set(_ENGLISH.findall(text.lower()))) < 3:  # the forgery words above are English
        return False
    if spec.kind == "boxes":  # "The main subject is around [274, 46, 358, 167]."
        return True
    regions = [t for t in spec.texts if t != "no area was manipulated"]
    return bool(regions) and all(_REGION_WORDS.fullmatch(t) for t in regions)


_PLACED = re.compile(
    r"\b(?:in|on|at|near|from)\s+the\s+(?:far\s+)?(?:top|bottom|upper|lower|left|right|cent(?:er|re)|middle)\b",
    re.I,
)
_STATES = re.compile(
    r"\b(?:it['’]?s|it\s+is|i\s+think|i\s+believe|answer|i['’]d|i\s+would|say|guess|pick|choose|located|"
    r"lies|sits|region|area|spot|part|portion|zone)\b",
    re.I,
)
"""A short answer that places something in a region (``_PLACED``) without stating a region as its
answer (``_STATES``): a description."""
_ITEM = re.compile(r"^\W*[^.:;\n]{1,40}:\s*\S")


def _last_is_item(text: str) -> bool:
    """Whether the answer's last sentence is an item of a list that comments on one thing each
    ("Frames 6-7: lighting stable.", "...; Candidate 4 is an empty mask.")."""
    t = text.strip()
    ends = [0] + [m.end() for m in re.finditer(r"[.!?。！？;](?=\s)|\n", t[:-1])]
    parts = [t[a:b] for a, b in zip(ends, [*ends[1:], len(t)], strict=True) if t[a:b].strip()]
    if len(parts) < 2:
        return False
    labelled = bool(
        _ITEM.match(parts[-1]) and _ITEM.match(parts[-2])
    )  # "Frame 6: ... Frame 7: ..."
    return labelled or parts[-2].rstrip().endswith(";")


def named_options(text: str, spec: OptionTexts) -> set[str]:
    """Every option ``text`` names, claimed or not: by its words or by its letter."""
    return named_letters(text, spec) | {ch for _, ch in mentions(text, frozenset(spec.letters))}


_SENTENCE_GAP = re.compile(r"(?<=[.!?;])(?<!i\.e\.)(?<!e\.g\.)\s+|(?<=[。！？])\s*|\n+")
"""Where one sentence ends and the next begins ("i.e." and "e.g." end none; a CJK full stop needs
no space after it)."""


def _final_pick(text: str, spec: OptionTexts) -> tuple[set[str], bool]:
    """What the answer's last concluding sentence (or its last sentence) that names an option
    names, letters and option words, claimed or not (:func:`.option_text.named_letters`); and whether that sentence concludes ("Therefore ...",
    "Answer: ...")."""
    sentences = [s for s in _SENTENCE_GAP.split(text.strip()) if s.strip(BARE)]
    last = sentences[-1:] if sentences and not CONCLUDING.search(sentences[-1]) else []
    concluding = [s for s in sentences if CONCLUDING.search(s)] + last
    for s in reversed(concluding):
        kept = concessions_removed(s)  # "That's my answer, although frame 4 is also soft."
        said = named_options(kept, spec)
        if said:
            return said, s not in last
    return set(), False


_LEAD = re.compile(
    r"^(?:\*\*|[^\w\-*•])*([^\W\d][^.:;!?\n—–()]{0,59}?)\s*(?:\([A-Y]\)\s*)?(?:[.!\n—–]|\s-\s|$)"
)
"""An opening sentence (not a list item nor a "label:" line) that may be one option's words."""
_LEAD_FILLER = re.compile(
    r",?\s*(?:in\s+my\s+(?:opinion|view)|i\s+(?:think|believe)|probably|most\s+likely|clearly)\s*$|"
    r",?\s+(?:not|rather\s+than|instead\s+of|over)\s+[^,]{1,40}$|"
    r"(?:,\s*|\s+)(?-i:\(?[A-Y]\)?)\s*$|^\s*(?:probably|most\s+likely|clearly|answer|given\s+the\s+choice|"
    r"if\s+i\s+had\s+to\s+(?:choose|pick|guess)|(?:my\s+)?best\s+guess)\s*[:,]?\s+",
    re.I,
)
_LABELLED = re.compile(r"(?:^|\n|[.!?]\s+)([^.!?\n]{1,40}?)\s[—–]\s|\n\s*([^.!?\n:]{1,40}):\s")
"""A later line or sentence that is a labelled comment ("AI-manipulated — the iris ...")."""
_VERB = re.compile(r"\b(?:is|are|was|were|be|looks?|seems?|appears?|i)\b")
_TURN = re.compile(
    r"^\W*(?:but|however|actually|wait|hmm+|on\s+second\s+thought|looking\s+(?:again|closer)|no\b|"
    r"then\s+again|although|though|or\b|alternatively|correction|sorry|apologies|that\s+said|if\b|"
    r"unless|still|otherwise)",
    re.I,
)


def _lead(text: str, spec: OptionTexts) -> str | None:
    """The option whose words alone open the answer as its verdict ("Candidate 3. It covers the
    full face ...; Candidate 4 stops at the eyebrows.", "Diffusion models, in my opinion. ..."),
    where no later sentence turns to another option ("But ...", "Actually, ...", "That said, if
    ..."); None: no such opening."""
    m = _LEAD.match(text)
    if m is None or m.end() >= len(text.rstrip()) or text.startswith("..", m.end() - 1):
        return None  # ("Totally untouched, sure... if you ignore the shadow": no verdict)
    labels = [x.group(1) or x.group(2) for x in _LABELLED.finditer(text, m.end())]
    head = re.sub(r"^[\W_]+|[\W_]+$", "", _LEAD_FILLER.sub("", m.group(1)))  # "**X** ✔️"
    if not head or len(head.split()) > 6:
        return None
    named = named_options(head, spec)
    if len(named) != 1:
        return None
    said = norm(head)
    if spec.kind == "binary":  # "Real. ...", "AI-manipulated — it's a close call ..."
        if len(said.split()) > 3 or _VERB.search(said) or not polarity_of(head, spec):
            return None  # ("A. non AI-generated": a letter; "It is real.": a statement)
    elif len(said) < 3 or not any(t == said or t.startswith(said + " ") for t in spec.texts):
        return None  # the option's words themselves, not a sentence that mentions them
    letter = next(iter(named))
    if any(named_options(label, spec) - {letter} for label in labels):
        return None  # "X — plausible ... Y — the iris differs": a comment on each option
    for sentence in re.split(r"(?<=[.!?;])\s+|\n+", text[m.end() :]):
        if _TURN.match(sentence) and named_options(sentence, spec) - {letter}:
            return None
    return letter


def read_in_cut_off(letter: str, text: str, scope: str, spec: OptionTexts, answer: str) -> bool:
    """A letter read after a correction ("— wait, ... Option C gives [186, ...], spanning x=186
    to") only in the sentence the token limit cut off: no choice (as :func:`gated` holds for the
    whole answer). ``answer``: the answer as written (a restated option blanked at the end of
    ``text`` cuts nothing off)."""
    complete = _cut_off(text)
    if complete is None or _cut_off(answer) is None:
        return False
    after = complete[len(text) - len(scope) :]
    said = text_letters(after, spec) | {ch for _, ch in mentions(after, frozenset(spec.letters))}
    return letter not in said


def gated(read: Reading, text: str, spec: OptionTexts) -> Reading:
    """Precision first (issue 39): a letter read without a final cue of its own (the only letter
    mentioned, an option's words in the answer) stands only where the answer names no other
    option (by letter, number or words, claimed or not) or its last concluding sentence names
    this one alone; a concluding sentence that names another option alone picks that one; else
    the answer names two options and none is picked: ``Z``."""
    if read.letter == "Z":  # several named: a concluding last sentence may pick one
        if read.rule not in _SEVERAL:
            return read
        final, concludes = _final_pick(text, spec)
        if concludes:  # a concluding sentence that names one option alone, else none
            return Reading(final.pop(), "conclusion") if len(final) == 1 else read
        lead = _lead(text, spec)
        if lead is not None:
            return Reading(lead, "leading-text")
        best = _best(text, spec)
        return Reading(best.pop(), "best") if len(best) == 1 else read
    if read.rule in _FINAL_CUE_RULES:
        return read
    lead = _lead(text, spec)
    if lead is not None:  # its verdict first, then why (before a cut-off: the verdict is whole)
        final, concludes = _final_pick(text, spec)
        if not concludes or final == {lead}:
            return Reading(lead, "leading-text")
    letters = frozenset(spec.letters)
    if _CUT_TURNING.search(text) and not STOPPED.search(text):
        return Reading("Z", "cut-turning")  # "..., however the lighting could point to"
    if _describes_only(text, spec):
        return Reading("Z", "description")
    complete = _cut_off(text)
    if complete is not None:  # "... Candidate 2 misses the legs. Candidate 3" (the token limit)
        said = text_letters(complete, spec) | {ch for _, ch in mentions(complete, letters)}
        if read.letter not in said:  # read in the unfinished part only
            return Reading("Z", "cut-off")
        text = complete  # the whole sentences pass the gate below
    if not named_options(text, spec) - {read.letter}:
        return read
    final, concludes = _final_pick(text, spec)
    if final == {read.letter} and (concludes or not _last_is_item(text)):
        return read  # (the last item of a list that comments on each option concludes nothing)
    if concludes:  # "... so D is out. ... Therefore it is Removal."
        return Reading(final.pop(), "conclusion") if len(final) == 1 else Reading("Z", "two-named")
    best = _best(text, spec)
    if len(best) == 1:
        return Reading(best.pop(), "best")
    return Reading("Z", "two-named")


_BEST = re.compile(
    r"\b(?:(?:fits?|match(?:es)?|works?|suits?|describes?|corresponds?)\s+(?:the\s+)?best|"
    r"(?:is|are|seems?|looks?)\s+(?:the\s+)?closest\b(?!\s+second)|most\s+(?:closely|tightly)|"
    r"(?:is|are)\s+the\s+better\s+(?:fit|match|answer|choice|option|candidate)|"
    r"(?:the|my|a)\s+best\s+(?:match|fit|option|candidate|answer|choice|one)|(?:is|are|seems?|looks?)\s+(?:the\s+)?"
    r"best\b(?![\s-]+(?:of|known))|most\s+(?:accurate|likely|plausible|probable|precise|consistent)|"
    r"closest\s+(?:match|fit|one))\b",
    re.I,
)
_CLAUSE = re.compile(r"[,;:.!?\n]|\b(?:but|though|although|while|whereas|however|yet)\b", re.I)


def _best(text: str, spec: OptionTexts) -> set[str]:
    """The options named in the clauses that call an option the best ("Candidate 3 seems to
    match best, though Candidate 1 also covers part"): one alone is the pick."""
    out: set[str] = set()
    for clause in _CLAUSE.split(text):
        if clause and _BEST.search(clause):
            out |= named_options(clause, spec)
    return out
