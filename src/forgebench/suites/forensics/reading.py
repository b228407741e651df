"""Reading an answer's stated option letter: cues, corrections, negation, numbers, yes/no.

What an answer *states* is found in this order, inside its *scope*: the text after its last
self-correction ("B... actually, C", "A. Wait, no - the answer is B", "I'll change my answer to
C") when that part states something, else the whole answer (:func:`.answer_text.scopes`; the
text is first normalised there).

- **claims** (``cue``): a letter right after a final-answer cue ("answer is", "Answer:",
  "final answer", "I choose / pick / go with", "my best guess is", "答案是", "选"), before one
  ("C is correct", "B fits best"), ending the last sentence ("... the forged region is B."), or
  opening the answer with punctuation ("B.", "(C)", "D -"; not where several lines enumerate
  the options). After a cue a lower-case letter counts too ("answer: d"). The last claim wins.
- **conclusion**: a letter in the last sentence opened by "Therefore", "Thus", "So", "Hence",
  "In conclusion", "Overall"...
- **letter**: the only option letter mentioned (capital, as a token; "A" before a lower-case word
  is the article unless that word follows letters: "A or B", "A is ..."; "option c" counts).
- **option-number** / **ordinal**: "Option 2", "choice #3", "the second mask", "the last option"
  ("masque 4", "Maske 2", "候補3", "후보 4" too),
  where no option text holds a number of its own (frame lists, boxes).
- **yes-no**: "Yes" / "No" to a question that asks about one side of a binary pair ("Is this
  image AI-generated?", "Is this a real photograph?").

Letters that are negated do not count: "not A", "C, not A", "rather than A", "A is wrong",
"A, B and C are incorrect", "none of A, B or D", "rule out B". Several letters, a letter and an
option text that disagree, or "Yes" with the other side's words: a conflict, read as ``Z``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from forgebench.suites.forensics.letter_negation import negated as _negated
from forgebench.suites.forensics.option_numbers import CONCLUDES, ORDINAL_WORD, option_numbers
from forgebench.suites.forensics.option_text import (
    OptionTexts,
    polarity_of,
    text_letters,
)
from forgebench.suites.forensics.other_languages import AFTER_LETTER_OTHER

_AFTER_LETTER = frozenset(
    [
        "or",
        "and",
        "is",
        "was",
        "would",
        "seems",
        "appears",
        "looks",
        "because",
        "since",
        "as",
        "but",
        "are",
        "fits",
        "matches",
        "best",
        "correct",
        "shows",
        "indicates",
        "covers",
        "marks",
        "has",
        "oder",
        "ou",
        "und",
        "et",
        "of",
        "oppure",
        "lub",
        "veya",
        "hoặc",
        "nor",
    ]
)
_AFTER_LETTER |= AFTER_LETTER_OTHER  # "A ist wahrscheinlicher als D", "A est ..."
_LATIN = r"[A-Za-zÀ-ÖØ-öø-ÿ]"
_ARTICLE_NEXT = re.compile(
    rf"[ \t]+(\d*{_LATIN}(?:(?![A-Z]){_LATIN})+|\d+[A-Za-z]+|(?!AI\b)[A-Z]{{2,5}}s?)\b"
)
"""The word after an article "A": a word in Latin script ("A área"), "3D", an acronym ("A GAN")."""
_LETTER = r"[\(\[\"']?\s*([A-Ya-y])\s*[\)\]\"']?"
_CONNECT = (
    r"\s*(?:is|would\s+be|will\s+be|should\s+be|=|:|-|->|→|是|为)?\s*(?:(?:option|choice)\s*)?"
)
_PRE_CUE = re.compile(
    r"(?:\bfinal\s+answer|\bfinal(?=\s*:)|\banswers?|\bans|\b(?:correct|right|best|most\s+(?:likely|accurate|plausible))"
    r"\s+(?:answer|option|choice|match)|\bmy\s+(?:final\s+)?(?:answer|choice|pick|(?:best\s+)?guess|"
    r"selection)|\b(?:selected|chosen)\s+(?:option|answer)|\bconclusion|\bverdict|\bprediction|"
    r"\bmost\s+likely|\bchoose|\bselect|\bpick|"
    r"\bgo(?:ing)?\s+with|\blean(?:ing)?\s+towards?|\bopt\s+for|\b(?:would|'d|will|'ll)\s+say|\bcorrect|"
    r"最终答案|正确答案|正确选项|答案|选择|选项|应该选|选)"
    + _CONNECT
    + r"[\(\[\"']?\s*(?<![A-Za-z])([A-Za-z])(?![A-Za-z0-9])",
    re.IGNORECASE,
)
_POST_CUE = re.compile(
    r"(?<![A-Za-z0-9'])\(?([A-Ya-y])\)?\s+(?:(?:is|seems|appears)\s+(?:to\s+be\s+)?(?:the\s+)?"
    r"(?:correct|right|best|answer|most\s+accurate|most\s+likely|my\s+answer)\b|"
    r"(?:fits|matches)\s+(?:best|better))"
)
_ENDS = re.compile(
    r"\b(?:is|are|be|was|so|thus|hence|therefore)\s*,?\s+(?:in\s+)?(?:option\s+|choice\s+)?"
    r"[\(\[\"']?([A-Y])[\)\]\"']?\s*[.!]?\s*$"
)
_LEADING = re.compile(
    r"^[\s>*-]*[\(\[\"']?([A-Y])(?:[\)\]\"]|'(?![^\W\d_])|\s*[.:\-–—\n]|\s*;(?![\s(]*[A-Y][\s).;,]*$)|\s*$|\s+\((?![A-Y]\))|"
    r"(?=,?\s+(?:rather\s+than|instead\s+of|not|over)\s+[\(\[\"']?[A-Y](?![A-Za-z])))"
)
"""A letter opening the answer ("B.", "(C)", "A rather than B.", "C, not D.")."""
_ENUM_LINE = re.compile(r"^\s*(?:[-*•>]\s*)?[\(\[]?([A-Y])(?:[\)\].:]|[ \t]*$)", re.M)
_MENTION = re.compile(r"([A-Y])(?<![A-Za-z0-9_À-ɏ][A-Y])(?![A-Za-z0-9_À-ɏ]|['’][A-Za-z]|-[A-Za-z])")
"""A capital letter standing alone (not inside a word in Latin script, accents too: "Désolé")."""
_OPTION_LOWER = re.compile(r"\b(?:option|choice)\s*[\(\[\"']?([a-y])(?![A-Za-z0-9])", re.I)
_CONCLUSION = re.compile(
    r"^\W*(?:therefore|thus|so|hence|in\s+conclusion|overall|in\s+summary|consequently|to\s+conclude|"
    r"taking\s+everything\s+into\s+account|all\s+in\s+all|in\s+short|finally)\b",
    re.I,
)
_YES_NO = re.compile(r"^\W*(yes|no)\b", re.I)
YES_NO_QUESTION = re.compile(r"^\W*(?:is|are|was|were|has|have|had|does|do|did|can|could)\b", re.I)
"""A question that "Yes" or "No" answers."""


@dataclass(frozen=True)
class Reading:
    """A letter the answer states (``Z`` for a conflict) and the rule that read it."""

    letter: str
    rule: str


def _sentence(text: str, pos: int) -> str:
    """The sentence around ``pos`` ("B." after a lone letter does not end one)."""
    ends = [
        m.end() for m in re.finditer(r"\n|(?<![\s(\[][A-Z])(?<!^[A-Z])[.!?。！？](?=\s|$)", text)
    ]
    start = max((e for e in ends if e <= pos), default=0)
    end = min((e for e in ends if e > pos), default=len(text))
    return text[start:end]


_NAMED_BY = re.compile(
    r"\b(?:plan|vitamin|part|type|grade|class|section|appendix|exhibit|hepatitis|level|tier|side|"
    r"blood\s+type|category|variant|group|team|row|column|seat|gate|zone)\s+$",
    re.I,
)
_SHOUTED_NEXT = re.compile(r"[ \t]+([A-Z]{2,}[A-Z'-]*)\b")


def _shouted(text: str) -> bool:
    """An answer written in capitals (its words, not only its letters)."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 15 and sum(c.isupper() for c in letters) >= 0.8 * len(letters)


def _mentions(text: str, letters: frozenset[str], negated: set[int]) -> list[tuple[int, str]]:
    found = []
    for m in _MENTION.finditer(text):
        ch = m.group(1)
        if ch not in letters or m.start(1) in negated:
            continue
        if _NAMED_BY.search(text, max(0, m.start(1) - 12), m.start(1)):
            continue  # "Plan B", "vitamin C", "Part D", "type A": a name, no option
        if ch == "A":  # the article: "A close look", "A Photoshop edit"
            nxt = re.match(_ARTICLE_NEXT, text[m.end() :])
            if nxt is not None and nxt.group(1).lower() not in _AFTER_LETTER:
                continue
            shout = _SHOUTED_NEXT.match(text, m.end())  # "A DUPLICATED PATCH ...: COPY-MOVE."
            if shout is not None and shout.group(1).lower() not in _AFTER_LETTER and _shouted(text):
                continue
        found.append((m.start(1), ch))
    for m in _OPTION_LOWER.finditer(text):
        ch = m.group(1).upper()
        if (
            ch in letters
            and m.start(1) not in negated
            and m.group(1).islower()
            and _lower_ok(text, m)
        ):
            found.append((m.start(1), ch))
    return sorted(found)


def mentions(text: str, letters: frozenset[str]) -> list[tuple[int, str]]:
    """The option letters ``text`` mentions and does not negate, with their positions."""
    return _mentions(text, letters, _negated(text))


def _lower_ok(text: str, m: re.Match[str]) -> bool:
    """A lower-case letter after a cue counts only where it ends the phrase ("answer: d")."""
    if m.group(1).isupper():
        return True
    before = text[: m.start(1)].rstrip()
    after = text[m.end(1) :]
    if before.endswith(("(", "[")) and after.startswith((")", "]")):
        return True
    return re.match(r"\s*[\)\]\"']?\s*(?:$|[.,;:!?\n])", after) is not None


def _claims(text: str, letters: frozenset[str], negated: set[int]) -> list[tuple[int, str, str]]:
    out: list[tuple[int, str, str]] = []
    for pattern in (_PRE_CUE, _POST_CUE):
        for m in pattern.finditer(text):
            ch = m.group(1).upper()
            if ch in letters and m.start(1) not in negated and _lower_ok(text, m):
                out.append((m.start(1), ch, "cue"))
    last = _sentence(text.rstrip(), len(text.rstrip()) - 1) if text.strip() else ""
    ends = _ENDS.search(last)
    if ends and ends.group(1) in letters:
        pos = text.rstrip().rfind(last) + ends.start(1)
        if pos not in negated:
            out.append((pos, ends.group(1), "cue"))
    lead = _LEADING.match(text)
    enum = {m.group(1) for m in _ENUM_LINE.finditer(text) if m.group(1) in letters}
    if lead and lead.group(1) in letters and len(enum) < 2 and lead.start(1) not in negated:
        out.append((lead.start(1), lead.group(1), "leading-letter"))
    return sorted(out)


def _window(text: str, pos: int) -> str:
    rest = text[pos + 1 :]
    cut = re.search(r"[,;.!?\n]", rest)
    return rest[: cut.start()] if cut else rest


_CLAUSE_END = re.compile(
    r",(?!\s*\d)|[;:!?\n]|(?<![\s(\[][A-Z])(?<!^[A-Z])\.(?=\s|$)|\b(?:but|so|because|since|although|though|"
    r"while|whereas|however|hence|thus|therefore)\b",
    re.IGNORECASE,
)


def _clause(text: str, pos: int) -> str:
    """The clause holding the letter at ``pos``, and the one it introduces ("B, the image is
    real": both; "..., so B.": only "so B.")."""
    start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, pos)), default=0)
    after = re.match(r"[\)\]\"']?\s*[,.:\-–—)]?\s*", text[pos + 1 :])
    rest_at = pos + 1 + (after.end() if after else 0)
    stop = _CLAUSE_END.search(text, rest_at)
    return text[start : stop.start() if stop else len(text)]


_GLOSS = re.compile(
    r"[,;:]?\s*(?:i\.\s?e\.|that\s+is|namely|aka|→|=|:)\s*,?\s*(?:\\boxed\{|(?:option|choice)\s+|answer\s*:\s*)?[\(\[\"']?$",
    re.I,
)
"""What joins an option's words to the letter that glosses them ("non AI-generated, i.e. \\boxed{B}")."""


def _checked(text: str, pos: int, letter: str, rule: str, spec: OptionTexts) -> Reading:
    clause = _clause(text, pos)
    gloss = _GLOSS.search(text, max(0, pos - 40), pos)
    if gloss is not None and gloss.start() > 0:  # the words it glosses must be this option's
        clause = _clause(text, gloss.start() - 1) + " " + clause
    if spec.kind == "boxes" and clause.count("{") > clause.count("}"):
        clause = _sentence(text, pos)  # 'A. { "forged area": [ ... ] }': the box it quotes
    said = text_letters(clause, spec)
    if said and letter not in said:
        return Reading("Z", "conflict")
    if rule != "option-number":  # "The last one, C.": a position that names another option
        sentence = _sentence(text, pos)
        named = {ch for _, ch in option_numbers(sentence, spec) if ch != "Z"}
        if named and letter not in named:
            return Reading("Z", "conflict")
    return Reading(letter, rule)


def _yes_no(text: str, question: str, spec: OptionTexts) -> Reading | None:
    m = _YES_NO.match(text)
    if m is None or spec.kind != "binary" or not YES_NO_QUESTION.match(question):
        return None
    if re.match(
        r"\W*(?:but|although|though|however|partially|partly|only\s+partially)\b",
        text[m.end() :],
        re.I,
    ):
        return Reading("Z", "conflict")  # "Yes, but only partially."
    asked = polarity_of(question, spec)
    if len(asked) != 1 or re.search(r"\byes\b.*\bno\b|\bno\b.*\byes\b", text, re.I | re.S):
        return Reading("Z", "conflict") if len(asked) == 1 else None
    side = asked.pop()
    other = spec.negative if side == spec.positive else spec.positive
    letter = side if m.group(1).lower() == "yes" else other
    said = polarity_of(text[m.end() :], spec)
    return Reading("Z", "conflict") if said and said != {letter} else Reading(letter, "yes-no")


_ALTERNATIVE = re.compile(
    r"\b(?:or\s+(?:maybe|perhaps|possibly)|so\s+(?:does|do|is|could|might|would)\b|(?:is|are|seems?|looks?)\s+(?:also|equally)\s+"
    r"(?:possible|plausible|likely|valid|correct)|could\s+also\s+be|might\s+also\s+be|"
    r"(?:maybe|perhaps|possibly)\s+(?:also\s+)?(?:option\s+)?[A-Y]\b)",
    re.I,
)


def _hedged_alternative(rest: str, letter: str, letters: frozenset[str], spec: OptionTexts) -> bool:
    """After the claim, another option offered as possible too ("B, but C is also possible",
    "B. Hmm, or maybe A"): the answer names two options without one final pick."""
    for m in _ALTERNATIVE.finditer(rest):
        sentence = _sentence(rest, m.start())
        named = {ch for _, ch in _mentions(sentence, letters, _negated(sentence))}
        named |= text_letters(sentence, spec)
        if named - {letter}:
            return True
    return False


_JOINED = re.compile(
    r"[\s)\]\"'*,.]*(?:(?:or|and|/|&|maybe|perhaps|possibly)\s*)*(?:answer\s*:\s*)?[(\[\"']?\s*$",
    re.I,
)
"""Two claims with nothing between them but "or" ("\\boxed{A} or \\boxed{D}", "Answer: A Answer: D")."""

_LISTED = re.compile(
    r"[)\]]?\s*(?:,|/|&|\band\b|\bor\b|\+)\s*(?:option\s+)?[(\[]?([A-Y])(?![A-Za-z])"
)


def read_letter(text: str, spec: OptionTexts, question: str = "") -> Reading | None:
    """The stated letter of one scope (see the module docstring); None: it states none."""
    letters = frozenset(spec.letters)
    negated = _negated(text)
    claims = _claims(text, letters, negated)
    mentions = _mentions(text, letters, negated)
    if claims:
        pos, letter, rule = claims[-1]
        if (
            len(claims) > 1
            and claims[-2][1] != letter
            and _JOINED.match(text, claims[-2][0] + 1, pos)
        ):
            return Reading("Z", "two-answers")  # "\\boxed{A} or \\boxed{D}": side by side
        window = _window(text, pos)  # (a letter negated in the whole text: "choose C over A")
        found = _mentions(window, letters, _negated(window))
        if any(ch != letter and pos + 1 + p not in negated for p, ch in found):
            return Reading("Z", "conflict")
        listed = _LISTED.match(text, pos + 1)  # "Answer: A, C", "A and C", "A/C": two letters
        if listed and listed.group(1) in letters and listed.group(1) != letter:
            return Reading("Z", "conflict")
        if _hedged_alternative(text[pos + 1 :], letter, letters, spec):
            return Reading("Z", "hedged-alternative")
        return _checked(text, pos, letter, rule, spec)
    sentences = [s for s in re.split(r"(?<=[.!?。！？])\s+|\n+", text) if s.strip()]
    for s in reversed(sentences):
        if _CONCLUSION.match(s):
            said = {ch for _, ch in _mentions(s, letters, _negated(s))}
            if len(said) == 1:
                return _checked(text, text.rfind(s), said.pop(), "conclusion", spec)
            if said:
                return Reading("Z", "conflict")
            break
    distinct = {ch for _, ch in mentions}
    if len(distinct) == 1:
        return _checked(text, mentions[-1][0], mentions[-1][1], "letter", spec)
    if distinct:
        return Reading("Z", "several-letters")
    numbers = option_numbers(text, spec)
    if numbers:
        said = {ch for _, ch in numbers}
        if len(said) > 1:  # several named along the way: the one a concluding sentence names
            final = [(p, ch) for p, ch in numbers if CONCLUDES.search(_sentence(text, p))]
            if len({ch for _, ch in final}) != 1:
                return Reading("Z", "conflict")
            numbers = final
        if numbers[-1][1] == "Z":
            return Reading("Z", "numbered-options")
        sentence = re.sub(
            r"second[\s-]+to[\s-]+last", " ", _sentence(text, numbers[-1][0]), flags=re.I
        )
        if len({w.lower() for w in ORDINAL_WORD.findall(sentence)}) > 1:
            return Reading("Z", "conflict")  # "the second or the third mask"
        return _checked(text, numbers[-1][0], numbers[-1][1], "option-number", spec)
    return _yes_no(text, question, spec)
