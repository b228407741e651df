"""The LLM extractor (stage 3 of :mod:`.extract`): the prompt sent to it and how its reply is read.

It sees only the answers the rules and ``builtin/embed`` left undecided (the judge stage,
:mod:`.judge`); its reply must be one option letter or ``Z``, anything else is ``Z``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from forgebench.suites.forensics.extract import NO_OPTION

EXTRACTOR_VERSION = "extract/v1"
EXTRACTOR_TEMPLATE = """You match a model's answer to a multiple-choice question with one of its options.
Reply with a single capital letter: the option the answer chose, or Z if the answer chose no option, chose several, or refused.

Question: {question}
Options:
{options}
Answer: {answer}

Your reply (one letter):"""


def extractor_prompt(question: str, options: Mapping[str, str], answer: str) -> str:
    """The prompt sent to the LLM extractor (version :data:`EXTRACTOR_VERSION`)."""
    lines = "\n".join(f"{k}. {v}" for k, v in options.items())
    return EXTRACTOR_TEMPLATE.format(question=question, options=lines, answer=answer.strip())


def parse_extractor_reply(reply: str, options: Mapping[str, str]) -> str:
    """The extractor's letter: one option letter or ``Z`` as a token, anything else -> ``Z``."""
    allowed = {*options, NO_OPTION}
    found = {m.group(1) for m in re.finditer(r"(?<![A-Za-z])([A-Z])(?![A-Za-z])", reply)}
    found &= allowed
    return found.pop() if len(found) == 1 else NO_OPTION
