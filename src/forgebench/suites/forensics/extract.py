"""Option extraction: which option letter a free-text answer chose (seed 002, §4.1).

The paper's order, each stage deciding only what the previous ones left undecided (one chain):

1. **rules** (this module, parser ``forensics-extract/v3``):

   - ``refusal`` -> ``Z``: VLMEvalKit's refusal strings anywhere, or a refusal opening ("I'm
     sorry", "I can't", "As an AI", "抱歉", ...) with no option letter stated (the patterns
     and the other languages' refusals and hedges: :mod:`.hedges`);
   - the answer is one letter, any case, in any brackets or quotes (``bare-letter``);
   - a JSON answer, either quote style (``{'answer': 'D'}``, ``"final_answer"``, ``"choice"``;
     ``json``, ``json-text`` where its value is an option's text);
   - the stated letter of :mod:`.reading` (cues, the last stated answer, self-corrections,
     "X, not Y", option numbers and ordinals, yes/no);
   - the option text of :mod:`.option_text` (negation-aware, paraphrases, frame lists, boxes,
     the binary wordings in Chinese), read on the whole of a short answer and on the concluding
     sentences of a long one (``text``).

   Before reading letters (v3, issue 39): an answer that makes its choice conditional ("if X
   then C, otherwise B", "unless", "depending on") is ``Z``; a probability or confidence per
   option picks the highest (two equal highest: ``Z``); a ranking ("best to worst: D, B, A, C")
   its first; an elimination that leaves one option ("rule out A, B and C") that one. An
   article "A" before a word (or "3D") is never the letter; a correction after an apology or
   "I meant" wins over what it corrects; an ordinal over options that carry numbers of their
   own in another order ("the second mask") is ``Z``.

   Precision (the h39-fresh batch's tuning half): "only if", "provided that" and "X; if not, Y"
   are conditionals; list numbers ("1. Splicing - ...") are never per-option scores, and
   "0.4 on GANs and 0.4 on diffusion" is a tie; a ranking whose top is a tie ("B = C > A") is
   ``Z``; a JSON letter that its own explanation contradicts is ``Z``; a question the answer
   asks itself ("Real or fake? Fake.") states nothing. Read more: a verdict line after a list
   ("Most likely: Splicing"), a markdown table row that names the verdict ("| Forged region |
   Bottom right |"), ``{"choice": 4}``, a ranking given as a numbered list on the next lines.

   Precision (h39-r2): an "I can't tell", "hard to say", "can't decide", "maybe X, maybe Y" or
   "either X or Y" in any language of :mod:`.hedges` is ``Z`` (``refusal``,
   ``hedge`` or ``two_options``) unless a contrast after it ("..., but it looks real") states
   one option; a leading "No," whose statement affirms the positive side of a binary pair,
   where no yes/no question makes it an answer, is ``Z`` (``two_options``).

   Precision (h39-r4, h39-r5): a letter without a final cue passes :mod:`.final_cue`'s gate.
   Before reading (:mod:`.answer_text`), reasoning blocks (``<think>...</think>``) are
   dropped, full-width letters and curly quotes plain, markdown emphasis removed, a restatement
   of the option list ("A. AI-generated B. non AI-generated") blanked. Two readings that disagree
   (two letters, a letter and another option's text) give ``Z``: a wrong letter costs more. Each letter records the rule that produced it (``rule``, stored
   in the verdict's detail); each ``Z`` records why (``why``: ``two_options``, ``hedge``,
   ``refusal``, ``nothing``; in the verdict's detail and the export's ``found_by`` column).

   Rounds 8-10 (issue 39, the h39-fresh11 to h39-fresh14 batches' tuning half): a conditional
   that the last sentence settles is read (``settled-condition``, :func:`.undecided.settled_condition`);
   an answer cut off while reconsidering after its conclusion is ``Z`` (``cut-turning``,
   :func:`.answer_checks.reconsidering_cut`); JSON answers are read in :mod:`.json_answer`.
2. ``embed``: ``builtin/embed`` (:mod:`.embed_extract`), when it was run on this run.
3. ``extractor``: an LLM extractor (the judge stage; :mod:`.llm_extractor`, or the release's
   prompt, :mod:`.release_match`).
4. ``none`` -> ``Z``.

``Z`` counts as wrong. Unlike the release's code it is never replaced by a random letter.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np
import pandas as pd

from forgebench.suites.forensics.answer_checks import (
    binary_comparison,
    contradicting_no,
    letter_text_cognate,
    per_option_verdicts,
    reconsidering_cut,
    spelled_like,
    trailing_doubt,
)
from forgebench.suites.forensics.answer_forms import elimination, probabilities, ranking
from forgebench.suites.forensics.answer_text import looping, normalise, restatements_removed, scopes
from forgebench.suites.forensics.final_cue import (
    BARE,
    VERDICT_LINE,
    gated,
    read_in_cut_off,
    settles,
    verdict_forms,
)
from forgebench.suites.forensics.frames_boxes import FRAME_COUNT, last_frames
from forgebench.suites.forensics.hedges import (
    APOLOGY,
    BOTH_SIDES,
    CONDITIONAL,
    CONTRAST_EN,
    HEDGE,
    REFUSAL_OPENING,
    REFUSAL_VERB,
    RELEASE_REFUSALS,
    RETRACTION,
    undecided_rest,
)
from forgebench.suites.forensics.json_answer import json_answer
from forgebench.suites.forensics.option_text import (
    OptionTexts,
    option_texts,
    polarity_of,
)
from forgebench.suites.forensics.reading import Reading, read_letter
from forgebench.suites.forensics.scope_text import scope_text
from forgebench.suites.forensics.undecided import contrast_pick, hedge_stands, settled_condition

Step = Literal["refusal", "letter", "text", "embed", "extractor", "none", "missing"]
STEPS: tuple[Step, ...] = ("refusal", "letter", "text", "embed", "extractor", "none", "missing")
"""``missing``: the task has no answer (scoring counts it as ``Z``)."""
NO_OPTION = "Z"
PARSER_VERSION = "forensics-extract/v3"

_QUESTION = re.compile(r"(?:^|(?<=[.!?:\n]))[^.!?:\n]*\?(?=\s+\S)")
"""A question the answer asks before answering it ("Non AI-generated? No - it is ...")."""


_NOT_APPLICABLE = re.compile(r"(?<![A-Za-z])N\s*/\s*A(?![A-Za-z])", re.I)


@dataclass(frozen=True)
class Extraction:
    """The letter an answer chose, the stage that decided it and the rule that read it."""

    letter: str
    """An option letter, or ``Z`` (no option: refusal, conflict, nothing found)."""
    step: Step
    rule: str = ""
    """Which rule read it (``bare-letter``, ``cue``, ``conflict``, ...); empty for stages."""
    why: str = ""
    """For a ``Z`` of the rules: ``two_options`` (several options named, no final cue picks
    one), ``hedge`` (an answer that hedges or makes its choice conditional), ``refusal`` or
    ``nothing``; empty for a letter."""


def is_refusal(text: str, spec: OptionTexts) -> bool:
    """Step 1 (see the module docstring), on normalised text."""
    if any(r in text for r in RELEASE_REFUSALS):
        return True
    opening = REFUSAL_OPENING.match(text)
    if not opening:
        return False
    if APOLOGY.match(opening.group(0)) and not REFUSAL_VERB.search(text):
        return False  # "Sorry, I made a mistake earlier. The forged area is bottom left."
    if read_letter(text, spec) is not None:
        return False
    hedge = re.search(rf"(?:,|;|\.|—)\s*(?:{CONTRAST_EN}|though)\b,?", text, re.I)
    if hedge is None:
        return True
    rest = text[hedge.end() :]
    return is_refusal(rest, spec) or scope_text(rest, {}, spec) is None


_LOCATED = re.compile(
    r"\b(?:the\s+)?(?:forged|manipulated|edited|tampered|fake|altered|suspicious)\s+(?:area|region|part|"
    r"portion|spot|zone|frames?)\s+(?:is|are|appears?|seems?|lies|sits)\s+(?:to\s+be\s+)?(?:located\s+)?"
    r"(?:in|at|on|near|around)\b[^.;!?\n]*|\b(?:the\s+)?(?:exif|metadata|file\s*name|header)\b[^,:.;!?\n]*",
    re.I,
)
"""What answers another question than authenticity ("The forged area is in the bottom left",
"The EXIF says Photoshop"): where the answer says nothing else of a binary pair's sides, it
chose neither."""


def _other_question(text: str, spec: OptionTexts) -> bool:
    if not _LOCATED.search(text):
        return False
    return bool(polarity_of(text, spec)) and not polarity_of(_LOCATED.sub(" ", text), spec)


def _why(text: str, rule: str) -> str:
    if rule.startswith("tied-"):
        return "two_options"
    if rule in ("refusal",):
        return "refusal"
    if rule in ("empty", "nothing"):
        return "nothing"
    if rule in ("description", "cut-off"):
        return "nothing"
    if rule in ("conditional", "hedged-alternative", "retracted", "cut-turning") or HEDGE.search(
        text
    ):
        return "hedge"
    return "two_options"


def _as_extraction(r: Reading, step: Step, text: str = "") -> Extraction:
    if r.letter == NO_OPTION:
        return Extraction(r.letter, "none", r.rule, _why(text, r.rule))
    return Extraction(r.letter, step, r.rule)


_LOOK_ALIKE = {"А": "A", "С": "C", "Α": "A", "Β": "B", "Γ": "C", "Δ": "D"}
"""A bare Cyrillic or Greek capital standing for an option letter: the Cyrillic look-alikes of A
and C, the Greek letters by their place (which agrees with the look-alikes); Cyrillic "В" is left
alone (it looks like B and stands third)."""


def _extract_once(answer: str, items: tuple[tuple[str, str], ...], question: str) -> Extraction:
    spec = option_texts(items)
    opts = dict(items)
    text = _NOT_APPLICABLE.sub("not applicable", normalise(answer))  # "N/A" names no option A
    bare = text.strip().strip(BARE)
    if len(bare) == 1 and (single := _LOOK_ALIKE.get(bare, bare.upper())) in spec.letters:
        return Extraction(single, "letter", "bare-letter")
    if not bare:
        return Extraction(NO_OPTION, "none", "empty", "nothing")
    if bare.isdigit() and spec.kind == "text" and spec.number_safe and 0 < int(bare) <= len(items):
        return Extraction(spec.letters[int(bare) - 1], "letter", "option-number")  # "1"
    if is_refusal(text, spec):
        return Extraction(NO_OPTION, "refusal", "refusal", "refusal")
    got = json_answer(text, spec)
    if got is not None:
        said, by = got
        if said.letter == NO_OPTION:
            return Extraction(NO_OPTION, "none", said.rule, "two_options")
        return Extraction(said.letter, "letter" if by == "letter" else "text", said.rule)
    unrestated = text
    if looping(text, opts):  # "B. Encoder-Decoder ... C. Proprietary B. Encoder-Decoder ... C."
        return Extraction(NO_OPTION, "none", "looping", "two_options")
    restated = restatements_removed(text, opts)  # "A (Candidate 3): 20%" restates each option:
    scored = probabilities(text, spec) if restated != text else None  # its scores read first
    text = restated
    text = verdict_forms(text)
    count = FRAME_COUNT.search(question) if spec.kind == "lists" else None
    text = last_frames(text, int(count.group(1))) if count else text  # "the last two frames"
    if spec.kind == "binary" and BOTH_SIDES.search(text):  # "A bit of both, honestly: ..."
        return Extraction(NO_OPTION, "none", "both-sides", "two_options")
    if spec.kind == "binary" and _other_question(text, spec):
        return Extraction(NO_OPTION, "none", "other-question", "nothing")
    if contradicting_no(text, spec, question):
        return Extraction(NO_OPTION, "none", "conflict", "two_options")
    if trailing_doubt(text):  # "So D? Not sure.": the last sentence takes the choice back
        return Extraction(NO_OPTION, "none", "trailing-doubt", "hedge")
    if reconsidering_cut(text):  # "So D. But wait, ... Let me look at the hair. That's"
        return Extraction(NO_OPTION, "none", "cut-turning", "hedge")
    listed = per_option_verdicts(
        text, spec, opts
    )  # "GAN? No. Diffusion? Yes.": before questions go
    if listed is None and restated != unrestated:  # "A. Candidate 1 ✗ ... C. Candidate 3 ✓"
        listed = per_option_verdicts(unrestated, spec, opts)
    if listed is not None:
        return _as_extraction(listed, "letter", text)
    asked = _QUESTION.sub(" ", text)  # "Real or fake? Fake.": the question states nothing
    if asked.strip(BARE):
        text = asked
    condition = CONDITIONAL.search(text)
    if condition is not None:  # unless a last sentence settles it ("..., so Candidate 2.")
        settled = settled_condition(text, condition.end(), spec)
        if settled is None:
            return Extraction(NO_OPTION, "none", "conditional", "hedge")
        return Extraction(settled, "text", "settled-condition")
    undecided = undecided_rest(text)
    if undecided is not None:
        if hedge_stands(text, *undecided, spec, question):
            return Extraction(NO_OPTION, "none", "undecided", undecided[0])
        picked = contrast_pick(undecided[1], spec, question)
        if picked is not None:  # "Hard to say if it is X or Y, but it looks untouched to me."
            return Extraction(picked[0].letter, picked[1], "after-hedge")
    for special in (probabilities, binary_comparison, ranking, elimination):
        form = special(text, spec) if special is not probabilities or scored is None else scored
        if form is not None:
            return _as_extraction(form, "letter", text)
    lines = [line for line in text.splitlines() if line.strip()]
    verdicts = [i for i, line in enumerate(lines) if VERDICT_LINE.match(line)]
    if len(lines) > 1 and verdicts and settles(lines[verdicts[-1] + 1 :]):  # "Verdict: A", then why
        if len(verdicts) > 1 and verdicts[-2] == verdicts[-1] - 1:  # two verdict lines in a row
            pair = " ".join(VERDICT_LINE.sub(" Answer: ", lines[i], count=1) for i in verdicts[-2:])
            if (read := read_letter(pair, spec, question)) is not None and read.letter == NO_OPTION:
                return _as_extraction(
                    read, "letter", text
                )  # "<answer>C</answer>\n<answer>B</answer>"
        verdict = VERDICT_LINE.sub(" Answer: ", lines[verdicts[-1]], count=1)
        step: Step = "letter"
        read = read_letter(verdict, spec, question)
        if read is None:
            read, step = scope_text(verdict, opts, spec), "text"
        if read is not None and read.letter != NO_OPTION:
            return _as_extraction(read, step)
    parts = scopes(text)
    if len(parts) > 1 and RETRACTION.match(parts[0]):  # "C. Wait, no.", "B. Actually, not sure"
        return Extraction(NO_OPTION, "none", "retracted", "hedge")
    for k, scope in enumerate(parts):
        read = read_letter(scope, spec, question)
        if read is not None and letter_text_cognate(scope, read.letter, opts):
            read = Reading(NO_OPTION, "conflict")  # "(A) Diffusionsmodelle": B's words
        if read is None:
            read, step = scope_text(scope, opts, spec), "text"
        else:
            step = "letter"
        if read is not None and k == len(parts) - 1:
            read = gated(read, text, spec)
        elif read is not None and read_in_cut_off(read.letter, text, scope, spec, unrestated):
            read = Reading(NO_OPTION, "cut-off")  # corrected, then cut off before it said so
        if read is not None:  # after a correction the corrected part is a final cue itself
            return _as_extraction(read, step, scope)
    near = spelled_like(text, opts, spec)  # "Splcing", "Candiate 3": one option's text misspelt
    return (
        _as_extraction(gated(near, text, spec), "text")
        if near
        else Extraction(NO_OPTION, "none", "nothing", "nothing")
    )


_extract = lru_cache(maxsize=262144)(_extract_once)


def extract_option(answer: str, options: Mapping[str, str], question: str = "") -> Extraction:
    """The rules (stage 1); ``step == "none"`` is where a later stage may still help.
    ``question`` lets "Yes"/"No" answer a yes/no question. Memoised: models repeat themselves."""
    return _extract(answer, tuple(options.items()), question)


def extract_batch(
    answers: Sequence[str],
    option_sets: Sequence[Mapping[str, str]],
    questions: Sequence[str] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`extract_option` over many answers: ``(letters, steps, rules)`` as object arrays.

    Each distinct (answer, option set, question) is extracted once (models repeat themselves);
    option sets are told apart by identity, so pass the same mapping object for items that
    share one.
    """
    if len(answers) != len(option_sets):
        raise ValueError("answers and option_sets differ in length")
    qs = list(questions) if questions is not None else [""] * len(answers)
    if len(qs) != len(answers):
        raise ValueError("answers and questions differ in length")
    a_codes, a_uniques = pd.factorize(pd.Series(answers, dtype=object))
    o_codes, o_uniques = pd.factorize(pd.Series([id(o) for o in option_sets]))
    q_codes, q_uniques = pd.factorize(pd.Series(qs, dtype=object))
    by_id = {id(o): o for o in option_sets}
    wo, wq = max(len(o_uniques), 1), max(len(q_uniques), 1)
    key = (np.asarray(a_codes, dtype=np.int64) * wo + np.asarray(o_codes)) * wq + np.asarray(
        q_codes
    )
    p_codes, p_uniques = pd.factorize(key)
    texts = [str(a) for a in a_uniques]
    items = [tuple(by_id[int(o)].items()) for o in o_uniques]
    out = np.empty((3, len(p_uniques)), dtype=object)
    for k, p in enumerate(np.asarray(p_uniques, dtype=np.int64).tolist()):
        ao, q = divmod(p, wq)
        a, o = divmod(ao, wo)
        got = _extract(texts[a], items[o], str(q_uniques[q]))
        out[0, k], out[1, k], out[2, k] = got.letter, got.step, got.rule
    return out[0][p_codes], out[1][p_codes], out[2][p_codes]


def combine(
    rules: Extraction, extractor_letter: str | None, *, embed_letter: str | None = None
) -> Extraction:
    """The chain's result: the rules', else ``builtin/embed``'s letter where it found one, else
    the LLM extractor's letter where one was run, else the rules' ``Z``."""
    if rules.step != "none":
        return rules
    if embed_letter is not None and embed_letter != NO_OPTION:
        return Extraction(embed_letter, "embed")
    if extractor_letter is None:
        return rules
    return Extraction(extractor_letter, "extractor")
