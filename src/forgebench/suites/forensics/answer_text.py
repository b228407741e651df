"""An answer's text made ready for reading (:mod:`.reading`, :mod:`.embed_extract`).

- :func:`normalise`: reasoning blocks (``<think>...</think>``, ``◁think▷``) dropped, full-width
  forms and curly quotes made plain, Arabic digits and option letters and a Cyrillic "А" in
  Latin (:func:`.other_languages.letters_in_latin`), markdown emphasis and ``</s>`` removed, a ``\\boxed{}``
  answer made a cue, an ordinal over the options in another language put in English ("la
  tercera máscara": "the third option", :mod:`.other_languages`), and each option number after
  another language's noun given its noun ("Kandidat 1 und 3", "候选1和候选3");
- :func:`restatements_removed`: a restatement of the option list ("A. AI-generated B. non
  AI-generated ... Answer: B") blanked;
- :func:`scopes`: the parts to read, after each self-correction ("B... actually, C", "A. Wait,
  no - the answer is B", "I'll change my answer to C") or overturned first impression ("at first
  glance real, but ..."), last first, then the whole answer; the other languages' corrections
  and first thoughts: :mod:`.other_languages`.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from forgebench.suites.forensics.other_languages import (
    CORRECTION_OTHER,
    FIRST_THOUGHT_OTHER,
    forms_in_english,
    letters_in_latin,
    numbered_options,
    ordinals_in_english,
)

_REASONING = re.compile(
    r"<(think|thinking|reasoning|thought)>.*?</\1>|◁think▷.*?◁/think▷", re.S | re.I
)
_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'", "’": "'"})
_CORRECTION = re.compile(
    r"\b(?:actually|on\s+second\s+thoughts?|(?:on|upon|after)\s+(?:closer|further)\s+(?:inspection|look|"
    r"reflection)|wait|correction|i\s+mean|i\s+meant|apolog(?:y|ies|ise|ize)|my\s+mistake|"
    r"sorry,?\s+i\s+(?:misread|misspoke|was\s+wrong|got\s+(?:it|that)\s+wrong)|i\s+misread|"
    r"(?:let\s+me\s+)?reconsider(?:ing)?|change\s+my\s+answer"
    r"(?:\s+to)?|scratch\s+that|just\s+kidding|no\s+wait|pardon|je\s+voulais\s+dire|perdón|"
    r"quise\s+decir|anzi|desculpe|quis\s+dizer|извините|すみません|죄송합니다|抱歉|"
    r"sorry(?=[\s,.:;—-]*(?:it'?s\s+|the\s+answer\s+is\s+|i\s+meant\s+)?[(\[]?[A-Y](?![A-Za-z])))\b|(?<=[—–-])\s*no\s*[,.!]|"
    + CORRECTION_OTHER,
    re.I,
)


_FIRST_GLANCE = re.compile(
    r"\b(?:at\s+first(?:\s+(?:glance|sight))?|initially|superficially|"
    r"(?:hesitated|wavered|was\s+torn|went\s+back\s+and\s+forth)\s+between)\b[^.;\n]*?\b(?:but|however)\b|"
    + FIRST_THOUGHT_OTHER,
    re.I,
)
"""An impression the answer then overturns: "It looks real at first glance, but it is ...", "I
hesitated between A and C, but ..."."""


_TEMPLATE_TURN = re.compile(
    r"\[/INST\]|<\|assistant\|>|<\|im_start\|>\s*assistant|<start_of_turn>\s*model|"
    r"^\s*(?:ASSISTANT|###\s*Assistant|Assistant)\s*:",
    re.M,
)
"""Where the assistant's turn starts in an answer that holds its prompt template ("[INST] ...
[/INST] Copy-Move", "USER: ... ASSISTANT: B")."""
_SPECIAL_TOKEN = re.compile(
    r"<\|(?:im_end|im_start|end|endoftext|eot_id|eos)\|>|<end_of_turn>|</?s>"
)
"""Special tokens left in the text ("<|im_end|>", "<end_of_turn>", "</s>")."""
_SIGN_OFF = re.compile(
    r"(?:\s*(?:(?:i\s+)?hope\s+(?:this|that|it)\s+helps|let\s+me\s+know\s+if|feel\s+free\s+to|"
    r"happy\s+to\s+help|don'?t\s+hesitate\s+to)[^.!?\n]*[.!?]*[^\w\n]*)+\s*$",
    re.I,
)
"""A closing pleasantry ("Hope this helps! 😊", "Let me know if you need more detail."): no
part of the answer, so never its last sentence."""


def normalise(answer: str) -> str:
    """Reasoning blocks dropped (an unclosed one: the answer never came), full-width forms and
    curly quotes made plain (NFKC), markdown emphasis, ``</s>`` and a closing pleasantry
    removed."""
    t = _REASONING.sub(" ", answer)
    close = list(re.finditer(r"</(?:think|thinking|reasoning|thought)>", t, re.I))
    if close:
        t = t[close[-1].end() :]
    turns = list(_TEMPLATE_TURN.finditer(t))
    if turns:  # a leaked prompt template: the answer is what follows the assistant's turn
        tail = t[turns[-1].end() :]
        t = tail if tail.strip() else re.sub(r"\[/?INST\]", " ", t)  # ("[INST] A [/INST]")
    t = _SPECIAL_TOKEN.sub(" ", t)
    opened = re.search(r"<(?:think|thinking|reasoning|thought)>", t, re.I)
    if opened:
        t = t[: opened.start()]
    t = letters_in_latin(unicodedata.normalize("NFKC", t).translate(_QUOTES).replace("</s>", " "))
    t = _SIGN_OFF.sub("", t)
    t = re.sub(
        r"\\(?:q?quad|[,;:!]|hspace\{[^{}]*\})", " ", t
    )  # LaTeX spacing: "\\boxed{B} \\quad \\boxed{C}"
    t = re.sub(r"\$*\\boxed\s*\{\s*(?:\\text\s*\{)?\s*([^{}]*?)\s*\}?\s*\}\$*", r" answer: \1 ", t)
    t = re.sub(r"\*+|`+|__+|^\s*#+\s*|^\s*>\s*", " ", t, flags=re.M)
    return forms_in_english(numbered_options(ordinals_in_english(t)))


def scopes(text: str) -> list[str]:
    """The parts to read, most decisive first: after each self-correction (last first), then all."""
    cuts = [m.end() for m in _CORRECTION.finditer(text)]
    cuts += [m.end() for m in _FIRST_GLANCE.finditer(text)]
    cuts.sort()
    return [text[c:] for c in reversed(cuts)] + [text]


@lru_cache(maxsize=4096)
def _restatement_patterns(
    items: tuple[tuple[str, str], ...],
) -> tuple[tuple[str, re.Pattern[str]], ...]:
    out = []
    for letter, opt in items:
        body = r"\s*".join(re.escape(w) for w in str(opt).strip().rstrip(".").split())
        if body:
            pat = re.compile(
                r"(?<![A-Za-z0-9])[\(\[]?"
                + letter
                + r"[\)\]]?\s*[.:)\-]?\s*\(?"
                + body
                + r"\.?\)?",
                re.I,
            )
            out.append((letter, pat))
    return tuple(out)


def looping(text: str, options: dict[str, str]) -> bool:
    """An answer that restates two or more options, one of them again and again, and says little
    else ("B. Encoder-Decoder ... C. Proprietary B. Encoder-Decoder ... C."): a generation
    caught in a loop, no choice."""
    spans = [
        (m.start(), letter)
        for letter, pat in _restatement_patterns(tuple(options.items()))
        for m in pat.finditer(text)
    ]
    letters = [letter for _, letter in spans]
    if len(set(letters)) < 2 or len(letters) == len(set(letters)):
        return False
    rest = restatements_removed(text, options)
    return len(re.findall(r"[^\W\d_]{2,}", rest)) < 3


def restatements_removed(text: str, options: dict[str, str]) -> str:
    """The answer without its restatement of the option list ("A. AI-generated B. non
    AI-generated ... Answer: B"): where two or more options are restated as letter + text, those
    spans are blanked; one restated option ("B. non AI-generated") is an answer and stays."""
    spans: list[tuple[int, int, str]] = []
    for letter, pat in _restatement_patterns(tuple(options.items())):
        spans += [(m.start(), m.end(), letter) for m in pat.finditer(text)]
    if len({s[2] for s in spans}) < 2:
        return text
    out = list(text)
    for a, b, _ in spans:
        out[a:b] = [" "] * (b - a)
    return "".join(out)
