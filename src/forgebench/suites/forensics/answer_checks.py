"""Answer shapes that name several options and decide (or not) by their form alone.

Read by the rules (:mod:`.extract`) before letters, since each names more than one option:

- :func:`trailing_doubt`: an answer whose last sentence takes the choice back ("..., so D? Not
  sure.", "Final answer: C? Or B. Honestly I'm torn.", "Both are plausible here."): ``Z``
  (a hedge), whatever it named before;
- :func:`reconsidering_cut`: an answer cut off (no final stop) while reconsidering after its
  conclusion ("So D. But wait, ... That's"): ``Z``;
- :func:`per_option_verdicts`: a yes/no per option ("Top left: no / Bottom left: yes",
  "GAN? No. Diffusion? Yes.", "A: unlikely, C: likely", check marks): the one option marked
  yes; none or several marked yes, or a "maybe" among them: ``Z``;
- :func:`spelled_like` (last, on what nothing else read): a short answer that is one option's
  text misspelt ("Splcing", "Candiate 3", "Propietary", "The answer is Bottm left."): that
  option, where it is far nearer to it than to any other;
- :func:`binary_comparison`: a binary pair compared ("more likely real than generated",
  "plutôt X que Y", "eher X als Y", "más X que Y", "более вероятно X, чем Y", "mer sannolikt X
  än Y", "Y보다는 X", "与其说Y不如说X"): the favoured side, read
  where its half names one side and the other half the other side or none; where only the
  disfavoured half names a side, ``Z`` (the rules would read that side);
- :func:`contradicting_no`: a leading "No," whose statement affirms the positive side of a
  binary pair where no yes/no question makes the "No" an answer: ``Z``.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from forgebench.suites.forensics.answer_forms import probabilities
from forgebench.suites.forensics.final_cue import STOPPED
from forgebench.suites.forensics.mention_context import PREFERRED
from forgebench.suites.forensics.option_text import OptionTexts, polarity_of, text_letters
from forgebench.suites.forensics.other_languages import NEG_WORDS_OTHER
from forgebench.suites.forensics.reading import YES_NO_QUESTION, Reading

_SENTENCES = re.compile(r"(?<=[.!?。！？])\s+|\n+")
_DOUBT = re.compile(
    r"^\W*(?:(?:but|though|honestly|still|then\s+again|actually|hmm+|so|and)\W+)*"
    r"(?:(?:i['’]?m|i\s+am)\s+)?(?:(?:really|still|honestly|just)\s+)?"
    r"(?:not\s+(?:sure|certain)(?:\s+(?:any\s*more|though|about\s+(?:this|that|it)))?|unsure|"
    r"torn|(?:it['’]?s\s+)?(?:hard|difficult)\s+to\s+(?:call|say|tell)|"
    r"(?:both|all)\s+(?:\w+\s+)?(?:are|seem|look)\s+(?:\w+\s+)?(?:plausible|possible|likely)"
    r"(?:\s+here)?|none\s+(?:of\s+them\s+)?(?:fits?|matche?s?)(?:\s+\w+)?)\W*$",
    re.I,
)


_ALSO = re.compile(
    r"\b(?:perhaps|maybe|possibly)\b|\b(?:also|equally)\s+(?:plausible|possible|likely)\b|"
    r"\bnot\s+(?:impossible|excluded|ruled\s+out)\b|\bcould\s+also\b",
    re.I,
)
_OR_MAYBE = re.compile(r"\bor\s+(?:maybe|perhaps|possibly)\b(?!\s+not\b)", re.I)


def trailing_doubt(text: str) -> bool:
    """The answer's last sentence (of two or more) only says it is not sure, or that several
    options fit, or none, or offers another option as possible too ("I'd say B. Then again, D
    is not impossible.", "B? Perhaps D."); or an "or maybe" offers a second answer ("Frames 0
    and 1, or maybe just 1."): a hedge after whatever came before."""
    sentences = [s for s in _SENTENCES.split(text.strip()) if s.strip()]
    if _OR_MAYBE.search(text):
        return True
    if len(sentences) < 2 or _DOUBT.match(sentences[-1]):
        return len(sentences) > 1
    also = _ALSO.search(sentences[-1])
    if also is None:
        return False
    turn = _TURN_BACK.search(sentences[-1], also.end())  # "could also hint at X, but ..."
    return turn is None or bool(_ALSO.search(turn.group(0)) or _UNSURE.search(turn.group(0)))


_RECONSIDER = re.compile(
    r"\b(?:but\s+wait|wait\s*[,.!]|hmm+|let\s+me\s+(?:reconsider|rethink)|but\s+let\s+me\s+(?:re-?check|"
    r"re-?examine|double[\s-]check|check|look\s+at|verify|examine)\b|on\s+second\s+thought|actually,?\s+no)",
    re.I,
)
_SO = re.compile(
    r"\b(?:so|therefore|thus|hence|answer|final|go(?:ing)?\s+with|choose|chose|pick|select|opt\s+for|"
    r"(?:initially|first)\s+(?:suspect|think|thought|guess))\b",
    re.I,
)


def reconsidering_cut(text: str) -> bool:
    """An answer cut off (no final stop) while reconsidering: a "but wait", "hmm" or "let me look
    again" after its last "so"/"therefore"/"answer" ("So D is my leading hypothesis. But wait,
    ... Let me look at the hair. That's"): the choice before it was not final."""
    t = text.rstrip()
    if not t or STOPPED.search(t):
        return False
    turns = list(_RECONSIDER.finditer(t))
    conclusions = list(_SO.finditer(t))
    return bool(turns) and bool(conclusions) and turns[-1].start() > conclusions[-1].end()


_TURN_BACK = re.compile(r"\b(?:but|however|yet)\b.*", re.I | re.S)
"""The turn after an "it could also be X" that answers it ("..., but the intent seems ...")."""
_UNSURE = re.compile(r"\b(?:sure|certain|tell|say|know|confident)\b", re.I)


_YES = (
    r"yes|yep|likely|true|correct|oui|sí|si|ja|sì|sim|tak|evet|có|да|是|はい|예|네|selected|chosen|picked|"
    r"gewählt|ausgewählt|choisie?|sélectionnée?|elegid[ao]|seleccionad[ao]|scelt[ao]|selezionat[ao]|escolhid[ao]|"
    r"selecionad[ao]|выбран[ао]?|wybran[ya]|gekozen|vald|valt|seçildi|seçilen|选中|已选|選択|선택|"
    r"richtig|korrekt|corret[oa]|correcto|correcta|corretto|corretta|juist|prawidłow[ya]|poprawn[ya]|верно|правильно|doğru|đúng|rätt|riktig"
)
_NO = (
    r"no|nope|unlikely|false|incorrect|non|nein|não|nee|nej|nie|hayır|không|нет|否|いいえ|아니요|"
    r"아니오|unwahrscheinlich|ausgeschlossen|peu\s+probable|improbable|exclue?|poco\s+probable|descartad[ao]|"
    r"improbabile|esclus[ao]|improvável|маловероятно|исключен[ао]?|mało\s+prawdopodobne|wykluczon[ya]|"
    r"onwaarschijnlijk|uitgesloten|osannolik|utesluten|olası\s+değil|不太可能|排除|"
    r"falsch|falso|falsa|faux|fausse|errad[ao]|sbagliat[ao]|неверно|неправильно|błędn[ya]|yanlış|onjuist|fout"
)
"""A verdict's yes and no per option ("| B | **gewählt** |", "| D | ausgeschlossen |"): the words
of a yes/no, a likely/unlikely and a chosen/excluded, in English and the other languages."""
_MAYBE = r"maybe|possibly|perhaps|partly|peut-être|quizás|vielleicht|forse|talvez|可能"
_TICK, _CROSS = "✓✔✅☑", "✗✘❌×"
_FIRSTS = "".join(sorted({w[0] for w in f"{_YES}|{_NO}|{_MAYBE}".split("|")}))
"""The first letters of the verdict words: a cheap test before their alternation."""
_VERDICT = re.compile(
    rf"(?:[:=?\-–—]|\bis\b)?\s*(?:(?<![^\W\d_])(?=[{_FIRSTS}])((?:{_YES})|(?:{_NO})|(?:{_MAYBE}))(?![^\W\d_])"
    rf"\s*(?=[.,;!)\n]|$)|([{_TICK}{_CROSS}]))",
    re.I,
)
_LABEL_LETTER = re.compile(r"^\W*(?:option\s+)?[(\[]?([A-Y])[)\]]?\W*$", re.I)


def _label(label: str, spec: OptionTexts, items: dict[str, str]) -> str | None:
    """The one option a list entry's label names (its letter or its text); None: not one."""
    label = re.sub(r"^\s*(?:[-*•]|\d+[.)])\s+", "", label).strip(" \t,;.")
    if not label or len(label) > 40:
        return None
    m = _LABEL_LETTER.match(label)
    if m and m.group(1).upper() in spec.letters:
        return m.group(1).upper()
    said = text_letters(label, spec)
    if not said and items:  # "Candidat 1", "Kandidat 1": the option's word in another language
        said = {k for k, v in items.items() if _stem_and_number(v) == _stem_and_number(label)}
        said.discard("")
    return said.pop() if len(said) == 1 else None


def _stem_and_number(text: str) -> tuple[str, str]:
    m = re.fullmatch(r"\W*([^\W\d_]{5})[^\W\d_]*\s*(\d+)\W*", text)
    return (m.group(1).casefold(), m.group(2)) if m else ("", "")


def per_option_verdicts(text: str, spec: OptionTexts, items: dict[str, str]) -> Reading | None:
    """A yes/no (or likely/unlikely, a check mark) after each of several options' labels."""
    marks: dict[str, str] = {}
    start = 0
    for m in _VERDICT.finditer(text):
        letter = _label(text[start : m.start()].rsplit("\n", 1)[-1], spec, items)  # its own line
        start = m.end()
        if letter is None:
            continue
        word = (m.group(1) or m.group(2)).lower()
        if word in _TICK or word in _CROSS:
            kind = "yes" if word in _TICK else "no"
        else:
            yes, no = re.fullmatch(_YES, word, re.I), re.fullmatch(_NO, word, re.I)
            kind = "yes" if yes else "no" if no else "?"
        if marks.get(letter, kind) != kind:
            return Reading("Z", "conflict")
        marks[letter] = kind
    if len(marks) < min(3, len(spec.letters)):  # scores per option are probabilities'
        if probabilities(text, spec) is not None:
            return None
        return _one_line_marked(text, spec, items) or _commented(text, spec, items)
    chosen = [k for k, v in marks.items() if v == "yes"]
    if len(chosen) == 1 and "?" not in marks.values():
        return Reading(chosen[0], "option-verdicts")
    if len(chosen) > 1:
        return Reading("Z", "option-verdicts")
    return Reading("Z", "hedged-alternative" if "?" in marks.values() else "nothing")


_MARKED = re.compile(
    rf"[{_TICK}]|(?<!not\s)(?<!n't\s)(?<!less\s)(?<!more\s)\b(?:correct|likely|most\s+likely|selected|chosen|best\s+match|"
    r"this\s+is\s+the\s+(?:forged|manipulated|tampered|edited|altered)\s+(?:area|region|part|one))\b",
    re.I,
)
_LINE_LABEL = re.compile(r"^\W*(?:option\s+)?([^:\n]{1,40}?)\s*(?::|\s[-–—]\s)")


def _one_line_marked(text: str, spec: OptionTexts, items: dict[str, str]) -> Reading | None:
    """One line per option ("A (Candidate 3): too large.", "C (Candidate 4): matches the outline.
    ✔", "D. Bottom right: ... this is the forged area"), every option or at least three, and one
    line alone marked as the answer (a tick, "correct", "likely", "selected", "this is the
    forged area"): that option."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    labels = [_LINE_LABEL.match(line) for line in lines]
    named = [_label(m.group(1), spec, items) if m else None for m in labels]
    if None in named or len(set(named)) != len(named) or len(named) < min(3, len(spec.letters)):
        return None
    marked = [k for k, line in zip(named, lines, strict=True) if _MARKED.search(line)]
    if any(_OPEN_LINE.search(line) for line in lines):
        return None  # "B. Diffusion models - Possible; ...": more than one left open
    return Reading(marked[0], "option-verdicts") if len(marked) == 1 and marked[0] else None


_OPEN_LINE = re.compile(r"\b(?:possible|possibly|plausible|maybe|perhaps|could\s+be)\b", re.I)

_ENTRY = re.compile(r"^\W*([^:\n]{1,40}?)\s*(?::|\s[-–—]\s)\s*\S")


def _commented(text: str, spec: OptionTexts, items: dict[str, str]) -> Reading | None:
    """Every sentence a comment on one option ("Top left: natural. Bottom left: the grass
    repeats. ..."), three options or more, and no verdict of its own: ``Z``."""
    sentences = [s for s in _SENTENCES.split(text.strip()) if s.strip()]
    entries = [_ENTRY.match(s) for s in sentences]
    named = [_label(m.group(1), spec, items) if m else None for m in entries]
    if len(sentences) < 3 or None in named or len(set(named)) < min(3, len(spec.letters)):
        return None
    return Reading("Z", "conflict")


def letter_text_cognate(text: str, letter: str, items: dict[str, str]) -> bool:
    """The letter's own words, in another language, name another option ("(A)
    Diffusionsmodelle" where B is "Diffusion models"): the word after the letter shares its
    first six letters with another option's first word and not with the letter's own."""
    m = re.search(
        rf"(?<![A-Za-z])[(\[]?{letter}(?![A-Za-z])[)\]]?\s*[:.\-–—]?\s*([^\W\d_]{{6,}})", text
    )
    if m is None:
        return False
    stem = m.group(1)[:6].casefold()

    def starts(option: str) -> bool:
        words = re.findall(r"[^\W\d_]+", option)
        return bool(words) and words[0][:6].casefold() == stem

    return not starts(items.get(letter, "")) and any(
        starts(v) for k, v in items.items() if k != letter
    )


_FAVOURED_FIRST = re.compile(
    r"(?:more\s+(?:likely|probabl[ey])|likelier|rather|(?:más|mas)\s+probable\s+que|closer\s+to|"
    r"more\s+(?:consistent|compatible|in\s+line)\s+with|more\s+(?:typical|indicative|suggestive|"
    r"characteristic)\s+of|more\s+(?:like|similar\s+to)|"
    r"mais\s+provável\s+que|plutôt|eher|più\s+(?:probabilmente)?|eerder|raczej|скорее|(?:más|mas)\s+bien|"
    r"más(?=\s+\S+(?:\s+\S+)?\s+que\s)|plus\s+(?:probablement|vraisemblablement)|более\s+вероятно,?|"
    r"mer\s+sannolikt)\s+"
    r"(?P<f>.+?)\s*,?\s+(?:than|rather\s+than|que|do\s+que|als|che|di|dan|niż|чем|än)\s+(?P<o>.+)",
    re.I | re.S,
)
_FAVOURED_LAST = re.compile(
    r"(?:less\s+likely\s+(?P<o>.+?)\s+than\s+(?P<f>.+)|(?P<o2>.+?)\s+is\s+less\s+likely\s+than\s+"
    r"(?P<f2>.+)|(?P<o3>.+?)보다(?:는)?\s*(?P<f3>.+)|(?P<o4>.+?)というより(?:は|も)?\s*(?P<f4>.+)|"
    r"与其说(?:是)?(?P<o5>.+?)[，,]?\s*不如说(?:是)?(?P<f5>.+))",
    re.I | re.S,
)


_COMPARED_END = re.compile(r"[.!?;\n]|,\s*(?:so|and|but|which|hence|thus|therefore)\b", re.I)


def binary_comparison(text: str, spec: OptionTexts) -> Reading | None:
    """A binary pair's two sides compared: the favoured one where each half names one side and
    they differ; ``Z`` where the comparison cannot be read that way. None: no comparison."""
    if spec.kind != "binary":
        return None
    m = _FAVOURED_FIRST.search(text) or PREFERRED.search(text)
    if m is not None:
        favoured, other = m.group("f"), m.group("o")
    else:
        m = _FAVOURED_LAST.search(text)
        if m is None:
            return None
        groups = [(m.group(f"f{k}"), m.group(f"o{k}")) for k in ("", "2", "3", "4", "5")]
        favoured, other = next(g for g in groups if g[0] is not None)
    other = _COMPARED_END.split(other, maxsplit=1)[0]  # the compared side: up to its clause's end
    f, o = polarity_of(favoured, spec), polarity_of(other, spec)
    if len(f) == 1 and f != o and len(o) <= 1:  # the other half names the other side, or none
        return Reading(f.pop(), "comparison")
    return Reading("Z", "conflict") if o else None


_CUE = re.compile(
    r"^\W*(?:(?:the\s+)?(?:final\s+)?answer\s*(?:is|:)|it['’]?s|its|it\s+is)\s*(?:an?\s+)?", re.I
)
_NEGATING = re.compile(
    rf"\b(?:not|no|non|never|neither|nor|isn['’]?t|without)\b|(?<!\w)(?:{NEG_WORDS_OTHER})(?!\w)",
    re.I,
)


def _letters_only(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.casefold())


def spelled_like(text: str, items: dict[str, str], spec: OptionTexts) -> Reading | None:
    """A short answer (after "the answer is") that is one option's text with a typo: the option
    whose text it matches by a similarity ratio of 0.8 or more, 0.15 above any other (options
    with numbers of their own: only those with the answer's numbers; a binary pair: the side its
    leading "non" names, by a ratio of 0.85 or more). None: no such option."""
    said = _CUE.sub("", text.strip()).strip(" \t\n.!")
    whole = _misspelt_whole(said, text, items, spec) if 0 < len(said) <= 40 else None
    return (
        whole
        or _leading_part(said, items, spec)
        or (_misspelt_words(said, items, spec) if len(said) <= 160 else None)
    )


def _leading_part(said: str, items: dict[str, str], spec: OptionTexts) -> Reading | None:
    """A short answer (or its last "... is X") that is the start of one option's text alone
    ("Encoder-Decoder" for "Encoder-Decoder&Graphics-based methods", "Face Swap" where one option
    swaps faces, "Style Transl" cut off): that option; the start of two ("Face Swap" beside a
    single and a multiple one): None."""
    tail = re.split(r"\b(?:is|are|was)\s+|:\s*", said)[-1].strip(" .!")
    part = _letters_only(tail)
    if spec.kind != "text" or len(tail) > 40 or len(part) < 6 or _NEGATING.search(said):
        return None
    starts = [k for k, v in items.items() if _letters_only(v).startswith(part)]
    return Reading(starts[0], "option-start") if len(starts) == 1 else None


def _misspelt_whole(
    said: str, text: str, items: dict[str, str], spec: OptionTexts
) -> Reading | None:
    if spec.kind == "binary":  # "non AI-generatd", "AI-genrated": the side its "non" names
        side = spec.negative if re.match(r"non\b", said, re.I) else spec.positive
        ratio = SequenceMatcher(None, _letters_only(said), _letters_only(items[side])).ratio()
        return Reading(side, "spelled-like") if ratio >= 0.85 else None
    if spec.kind in ("lists", "boxes") or _NEGATING.search(text):
        return None
    digits = re.findall(r"\d+", said)
    scores = {
        k: SequenceMatcher(None, _letters_only(said), _letters_only(v)).ratio()
        for k, v in items.items()
        if re.findall(r"\d+", v) == digits or not digits
    }
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    if not ranked or ranked[0][1] < 0.8:
        return None
    if len(ranked) > 1 and ranked[1][1] > ranked[0][1] - 0.15:
        return None
    return Reading(ranked[0][0], "spelled-like")


def _misspelt_words(said: str, items: dict[str, str], spec: OptionTexts) -> Reading | None:
    """A short answer's first sentence holding one option's words misspelt ("Bottom rigth, thier
    is a seam.", "Canidate 1 mathces best.", "The image is AI-genrated, the skin ..."): the
    option whose words match a run of as many words by a ratio of 0.85 or more, 0.15 above any
    other; not where a negation precedes it (a binary pair: "non" or "not" before the side's
    words names the other side)."""
    first = re.split(r"[.!?;\n]", said, maxsplit=1)[0]
    words = re.findall(r"[\w'&-]+", first)
    if spec.kind in ("lists", "boxes") or not words:
        return None
    targets = {spec.positive: items[spec.positive]} if spec.kind == "binary" else items
    best: dict[str, tuple[float, int]] = {}
    for k, v in targets.items():
        n = len(v.split())
        digits = re.findall(r"\d+", v)
        for i in range(max(1, len(words) - n + 1)):
            window = " ".join(words[i : i + n])
            if re.findall(r"\d+", window) != digits or (
                spec.kind == "binary" and not _letters_only(window).startswith("ai")
            ):
                continue  # (a binary side's own word, "manipulated", is the wordings' to read)
            ratio = SequenceMatcher(None, _letters_only(window), _letters_only(v)).ratio()
            if ratio > best.get(k, (0.0, 0))[0]:
                best[k] = (ratio, i)
    ranked = sorted(best.items(), key=lambda kv: -kv[1][0])
    if not ranked or not 0.85 <= ranked[0][1][0] < 1:
        return None  # (an option's words spelt right were the other rules' to read)
    if len(ranked) > 1 and ranked[1][1][0] > ranked[0][1][0] - 0.15:
        return None
    letter, (_, at) = ranked[0]
    negated = _NEGATING.search(" ".join(words[max(0, at - 2) : at]))
    if spec.kind == "binary":
        return Reading(spec.negative if negated else spec.positive, "spelled-like")
    return None if negated or _NEGATING.search(first) else Reading(letter, "spelled-like")


_LEADING_NO = re.compile(
    r"^\W*(?:no|non|nein|não|nee|hayır|nie|không|нет|いいえ|아니요|아니오|不是|不)\s*(?:[,.!:;、，。]|\s[—–-]\s)",
    re.I,
)


def contradicting_no(text: str, spec: OptionTexts, question: str) -> bool:
    """A leading "No," (in any language the rules know) whose statement then affirms the
    positive side of a binary pair ("No, it is AI-generated."), where no yes/no question
    makes the "No" an answer: the two readings disagree."""
    if spec.kind != "binary" or YES_NO_QUESTION.match(question):
        return False
    m = _LEADING_NO.match(text)
    return m is not None and polarity_of(text[m.end() :], spec) == {spec.positive}
