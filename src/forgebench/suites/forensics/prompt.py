"""The multiple-choice prompt as the release asks it, versioned.

The release evaluates with VLMEvalKit's ``ImageMCQDataset.build_prompt``
(``vlmeval/dataset/image_mcq.py`` in Forensics-Bench/Forensics-Bench): the image(s) first, then
one text part::

    Hint: {hint}                       (only when the row has a hint)
    Question: {question}
    Options:
    A. {A}                             (one line per non-empty option)
    B. {B}
    Please select the correct answer from the options above.

(the closing line ends in a space before its newline, as in the release). Version ids follow the
Mandela prompts: ``MCQ/v1``; the prompt-study prefix (Table 12) adds ``+prefix-v1`` (the paper's
text) or ``+prefix-<hash>`` (a user's own text), constrained answers (``MCQ_CHOICE``) add
``+choice-v1``, and attribution questions are ``ATTR/v1`` / ``ATTR_DESC/v1``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass

MCQ_VERSION = "MCQ/v1"
CHOICE_VERSION = "choice-v1"
"""``MCQ_CHOICE`` questions are ``MCQ/v1+choice-v1``: the release's text, the answer held to one
option letter by the server (the letters travel in the question's ``extra["choice"]``)."""
CLOSING = "Please select the correct answer from the options above. \n"

PAPER_PREFIX = (
    "Please make your decision using forgery detection techniques, such as examining facial "
    "features, blending artifacts, lighting irregularities, and any other inconsistencies that "
    "may indicate manipulations."
)
"""Table 12's forgery-related prompt (Appendix 10, "Experiments on prompt engineering")."""


@dataclass(frozen=True)
class McqPrompt:
    """What a model is shown: images (dataset-relative paths) in order, then ``text``."""

    images: tuple[str, ...]
    text: str
    version: str


def render_text(question: str, options: Mapping[str, str], hint: str | None = None) -> str:
    """The release's text part for one question."""
    text = f"Hint: {hint}\n" if hint else ""
    text += f"Question: {question}\n"
    shown = {k: v for k, v in options.items() if str(v).strip()}
    if shown:
        text += "Options:\n" + "".join(f"{k}. {v}\n" for k, v in shown.items()) + CLOSING
    return text


def prefix_version(prefix: str) -> str:
    """``v1`` for the paper's prefix, else a short hash of the user's text."""
    if prefix == PAPER_PREFIX:
        return "v1"
    return hashlib.sha256(prefix.encode("utf-8")).hexdigest()[:8]


def mcq_prompt(
    images: tuple[str, ...] | list[str],
    question: str,
    options: Mapping[str, str],
    hint: str | None = None,
    *,
    prefix: str | None = None,
    version: str = MCQ_VERSION,
) -> McqPrompt:
    """The prompt of one item; ``prefix`` (the Table 12 study) goes on its own line first."""
    text = render_text(question, options, hint)
    if prefix:
        text = prefix.strip() + "\n" + text
        version = f"{version}+prefix-{prefix_version(prefix.strip())}"
    return McqPrompt(tuple(images), text, version)
