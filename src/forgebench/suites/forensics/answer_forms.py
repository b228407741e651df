"""Answers that weigh every option instead of naming one: scores, rankings, eliminations.

Read by the rules (:mod:`.extract`) before letters, since each of these names several options
and only its form says which one is chosen:

- :func:`probabilities`: a probability or confidence per option ("A: 0.2, B: 0.7", "Splicing
  40%, removal 60%", "Splicing: high confidence"): the highest; two equal highest: ``Z``
  (``tied-scores``);
- :func:`ranking`: "best to worst: D, B, A, C" (or a numbered list after "Ranked by
  likelihood:"): its first, its last where it runs from worst to best; a tie at the top: ``Z``
  (``tied-ranking``);
- :func:`elimination`: every option but one ruled out ("rule out A, B and C", "eliminating top
  left, top right and bottom left, the answer is ...", "splicing, copy-move and removal are ruled
  out"): that one; each ruling-out clause counts up to its end, so the pick that follows it ("...,
  so A") is not ruled out with the others.
"""

from __future__ import annotations

import re

from forgebench.suites.forensics.option_text import OptionTexts, norm, ruled_out, text_letters
from forgebench.suites.forensics.reading import Reading

_PROBABILITY = re.compile(
    r"(?<![A-Za-z0-9'])[(\[]?([A-Y])[)\]]?(?:[.:]?\s*(?:\([^)\n]{1,40}\)|\[[^\]\n]{1,40}\]))?"
    r"\s*(?:[:=|—–]\s*|\(\s*|\s+-\s+(?=\d+(?:\.\d+)?\s*%|0?\.\d)|\s+(?:at|with|~|≈)\s+|\s+)(\d+(?:\.\d+|,\d+(?=\s*[;%|\n]|\.?\s*$))?)(\s*%)?"
)
_LIST_COMMA = r",(?![^\[]*\])"
"""A comma that separates parts, not one inside a bracketed list ("[ 3, 4, 5 ]: 0.30, ...")."""
_ENUMERATOR = re.compile(r"^\s*(?:\d+[.)]|[-*•])\s+")
_SCORE = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(%?)(?![\d.]\d)")
_RANKING = re.compile(
    r"\b(best\s+to\s+worst|most\s+to\s+least(?:\s+(?:likely|plausible|probable))?|"
    r"most\s+(?:likely|plausible)\s+first|(?:ranked|ordered|sorted)\s+by\s+\w+|ranking|ranked|rank|"
    r"order\s+of\s+(?:plausibility|likelihood|preference)|(?:likelihood|preference)\s+order|"
    r"worst\s+to\s+best|least\s+to\s+most(?:\s+likely)?|most\s+(?:likely|plausible)\b[^:\n]{0,40}?\bin\s+order)"
    r"[ \t]*\)?[ \t]*[:\-]?[ \t]*([^\n]*)",
    re.I,
)
_ELIMINATE = re.compile(
    r"\b(?:rules?\s+out|ruled\s+out|ruling\s+out|eliminat\w*|exclud\w*|can\s+be\s+excluded|"
    r"impossible|wrong|incorrect|none\s+of|not)\b",
    re.I,
)


def probabilities(text: str, spec: OptionTexts) -> Reading | None:
    """A probability or confidence per option: the highest; two equal highest: ``Z``."""
    scores: dict[str, float] = {}
    for m in _PROBABILITY.finditer(text):
        if m.group(1) in spec.letters:
            if spec.kind in ("lists", "boxes") and not (m.group(3) or "." in m.group(2)):
                continue  # "A: 0.55" is a score; "A: 2" may be a frame index
            value = float(m.group(2).replace(",", "."))  # "B 0,7": a decimal comma
            scores[m.group(1)] = value / (100 if m.group(3) else 1)
    if len(scores) < 2 and spec.kind in ("lists", "boxes") and not _LIST_SCORE.search(text):
        return None  # ("[6,7]: 0.45" on lines of their own: a score per list, read below)
    unread = 0.0  # the highest score on a "label: score" line whose label names no option
    if len(scores) < 2:
        scores = {}
        for part in re.split(rf"{_LIST_COMMA}|[;\n|]|\band\b", text):
            part = _ENUMERATOR.sub(" ", part)  # "1. Splicing - ...": a list number, no score
            found = list(_SCORE.finditer(part))
            if not found:
                continue
            score = found[-1]  # "Candidate 2: 40%": the last number, the option's own kept
            if _NOT_A_SCORE.search(part[: score.start()]) or not (
                score.group(2) or "." in score.group(1) or _LABELLED.match(part)
            ):
                continue  # "Step 2: ... copy-move": a step's number; a bare integer in prose
            value = float(score.group(1)) / (100 if score.group(2) else 1)
            rest = part[: score.start()] + " " + part[score.end() :]
            said = text_letters(rest, spec)
            if len(said) == 1 and (spec.kind == "lists" or _numbers_are_options(rest, spec)):
                scores[said.pop()] = value
            elif not said and score.group(2) and _LABELLED.match(part):
                unread = max(unread, value)  # "- Encoder-Decoder & Graphics-based: 60%"
    if len(scores) < 2:
        scores = _levels(text, spec)
    if len(scores) < 2:
        return None
    best = max(scores.values())
    if unread >= best:  # the highest score went to a label the rules do not read
        return Reading("Z", "unread-score")
    top = [k for k, v in scores.items() if v == best]
    if len(top) > 1:
        return Reading("Z", "tied-scores")
    return Reading(top[0], "probabilities")


_LIST_SCORE = re.compile(
    r"^\s*[\[{][^\]\n]*[\]}]?\]?\s*[:=]\s*\d*\.\d+|^\s*\[[^\]\n]*\]\s*[:=]\s*\d+\s*%", re.M
)
_NOT_A_SCORE = re.compile(r"(?:step|frame|point|no\.|#|stage|phase|part|item)\s*$", re.I)
_LABELLED = re.compile(r"^\W*[A-Za-z][^:=\d]{2,60}[:=]\s*\d")
"""A "label: score" line ("Encoder-Decoder & Graphics-based: 60%")."""


def _numbers_are_options(rest: str, spec: OptionTexts) -> bool:
    """Every number left beside a score belongs to an option's text ("Candidate 2")."""
    hay = norm(rest)
    for _, pattern in spec.phrases:
        hay = pattern.sub(" ", hay)
    return re.search(r"\d", hay) is None


_LEVEL = re.compile(
    r"^(?:\W*)(very\s+high|high|medium|moderate|low|very\s+low|none)\b(?:\s+(?:confidence|likelihood|"
    r"probability|match))?(?:\W*$|\s*[—–-]\s|\s*\()",
    re.I,
)
_LEVELS = {"very high": 4.0, "high": 3.0, "medium": 2.0, "moderate": 2.0, "low": 1.0,
           "very low": 0.5, "none": 0.0}  # fmt: skip


def _levels(text: str, spec: OptionTexts) -> dict[str, float]:
    """Confidence in words per option, written "option: level" ("Splicing: high confidence.",
    "| B | high |"): each option's level."""
    scores: dict[str, float] = {}
    for part in re.split(r"[,;\n]|(?<=[a-z])\.(?:\s|$)", text):
        cells = [c for c in re.split(r"\s*[:|=]\s*|\s+[-–]\s+", part.strip()) if c.strip()]
        if len(cells) < 2:  # a comment may follow the level ("high - the clouds match")
            continue
        level = _LEVEL.match(cells[1])
        if level is None:
            continue
        bare = cells[0].strip(" ()[]*")
        said = {bare} & set(spec.letters) if len(bare) == 1 else text_letters(cells[0], spec)
        if len(said) == 1:
            scores[said.pop()] = _LEVELS[re.sub(r"\s+", " ", level.group(1).lower())]
    return scores


def ranking(text: str, spec: OptionTexts) -> Reading | None:
    """A ranking of the options ("best to worst: D, B, A, C"): its first (last when it runs
    from worst to best)."""
    m = _RANKING.search(text)
    if m is None:
        return _numbered_order(text, spec)
    body = re.split(r"(?<=[a-z)\]])[.!?](?:\s|$)", m.group(2), maxsplit=1)[0]  # its sentence only
    lead, colon, listed = body.partition(":")
    direction = m.group(1) + " " + (lead if colon else "")  # "Ranking from least to most likely:"
    body = listed if colon and not re.search(r"[,>;]", lead) else body
    if not body.strip():  # "Ranked by likelihood:" then one option a line ("1. Diffusion")
        lines = re.split(r"\n\s*\n", text[m.end() :].lstrip("\n"))[0].splitlines()
        body = ";".join(_ENUMERATOR.sub(" ", line) for line in lines)
    parts = [p for p in re.split(rf"{_LIST_COMMA}|[、，]|>|\bthen\b|\d\)|;", body) if p.strip()]
    order: list[set[str]] = []
    for part in parts:
        said = {ch for ch in re.findall(r"(?<![A-Za-z])([A-Y])(?![A-Za-z])", part)}
        said &= set(spec.letters)
        said = said or text_letters(part, spec)
        if said:
            order.append(said)
    flat = [ch for group in order for ch in group]
    if len(order) < 2 or len(set(flat)) != len(flat):
        return None
    reverse = re.search(r"\b(?:worst|least)\s+to\b", direction, re.I) is not None
    top = order[-1] if reverse else order[0]
    if len(top) > 1:  # "B = C > A > D": two options share the top
        return Reading("Z", "tied-ranking")
    return Reading(next(iter(top)), "ranking")


_NUMBERED = re.compile(r"^\s*(\d)[.)]\s+(.+?)\s*$")


def _numbered_order(text: str, spec: OptionTexts) -> Reading | None:
    """An answer that is only a numbered list of every option, each once, in an order other
    than the question's ("1. Proprietary\n2. Variational Auto-Encoders\n..."): a ranking, its
    first (in the question's order it only restates the options)."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if len(lines) != len(spec.letters) or len(lines) < 3:
        return None
    order: list[str] = []
    for k, line in enumerate(lines, 1):
        m = _NUMBERED.match(line)
        if m is None or int(m.group(1)) != k or len(m.group(2).split()) > 6:
            return None
        said = text_letters(m.group(2), spec)
        if len(said) != 1:
            return None
        order += said
    if sorted(order) != sorted(spec.letters) or order == list(spec.letters):
        return None
    return Reading(order[0], "ranking")


_RULE_OUT = re.compile(r"\b(?:rules?\s+out|ruled\s+out|ruling\s+out|eliminat\w*|exclud\w*)\b", re.I)
_LIST_END = re.compile(
    r"[.!?\n;:]|,\s*(?:so|the\s+(?:answer|remaining|only)|which|leaving|that\s+leaves|hence|thus|"
    r"therefore|only|what)\b",
    re.I,
)
"""Where the list of ruled-out options after "eliminating" ends ("Eliminating top left, top
right and bottom left, the answer is bottom right")."""
_RULED_OUT_AFTER = re.compile(
    r"([^.!?\n;:]*?)\s+(?:are|is|can\s+be|have\s+been|were)\s+(?:all\s+)?(?:ruled\s+out|excluded|"
    r"eliminated)\b",
    re.I,
)
"""A list of options before "are ruled out" ("Splicing, copy-move and removal are ruled out")."""


def elimination(text: str, spec: OptionTexts) -> Reading | None:
    """Every option but one ruled out ("rule out A, B and C", "not A, not C, not D")."""
    m = _ELIMINATE.search(text)
    if m is None or (spec.kind not in ("text", "lists") and not re.search(r"\b[A-Y]\b", text)):
        return None
    out: set[str] = set()
    for word in _ELIMINATE.finditer(text):  # each ruling-out clause, up to its end ("..., so D")
        clause = _LIST_END.split(text[word.start() :], maxsplit=1)[0]
        out |= set(re.findall(r"(?<![A-Za-z])([A-Y])(?![A-Za-z'])", clause)) & set(spec.letters)
    if not out and spec.kind in ("text", "lists"):
        verb = _RULE_OUT.search(text)  # "rule out splicing, removal and face swap": the list after
        listed = _LIST_END.split(text[verb.end() :])[0] if verb else ""
        before = _RULED_OUT_AFTER.search(text)
        if before is not None:
            listed += " , " + before.group(1)
        out = text_letters(listed, spec) | ruled_out(text[m.start() :], spec)  # "not X, not Y"
    rest = [k for k in spec.letters if k not in out]
    if len(out) >= 2 and len(rest) == 1:
        return Reading(rest[0], "elimination")
    return None
