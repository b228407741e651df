"""The release's option matching, for a user reproducing seed 002's Table 2 exactly.

Source: Forensics-Bench/Forensics-Bench at commit ``5d000172e58744d8b41fbcdef1c0fb4f7d765df0``
(its VLMEvalKit fork): ``vlmeval/utils/matching_util.py`` (``can_infer_option``,
``can_infer_text``, ``can_infer``), ``vlmeval/dataset/utils/multiple_choice.py``
(``build_prompt``, ``build_prompt_cn``, ``extract_answer_from_item``), ``vlmeval/smp/vlm.py``
(``build_option_str``) and ``vlmeval/smp/misc.py`` (``cn_string``).

- :func:`release_rules` (``--extraction release-rules``): the release's literal letter rule, then
  its text rule. Letter: the answer with ``.()[],:;!*#{}`` turned to spaces, split on
  whitespace; exactly one token equal to an option letter gives that letter (anywhere in the
  answer: the fork has no position rule, unlike later upstream VLMEvalKit, and its "A might be a
  quantifier" check runs only with ``VERBOSE`` set, so not here); no option letter and a
  standalone ``Z`` token gives ``Z``; the four refusal strings give ``Z``. Text: exactly one
  option's text (lower case) as a substring of the answer (lower case), with no length limit.
  Nothing found: ``Z`` (the release's ``exact_matching`` result).
- :func:`release_prompt` (``judge --extractor-prompt release``): the matcher prompt with its two
  examples, its Chinese variant where the question has a CJK character; options listed as
  ``build_option_str`` does; the release appends ``?`` to the question. More than four options are
  sent as the release sends them (its prompt names A-D and asks for a valid option letter).
- :func:`parse_release_reply`: the reply read with ``can_infer``; a reply it cannot read is asked
  again, three tries in all. Where the release then picks a random letter (or ``Z``), we record
  ``Z``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from forgebench.suites.forensics.extract import NO_OPTION, Extraction
from forgebench.suites.forensics.hedges import RELEASE_REFUSALS

RELEASE_PROMPT_VERSION = "release-match/5d00017"
RELEASE_TRIES = 3
_SPLIT_CHARS = ".()[],:;!*#{}"
_API_FAILURE = "Failed to obtain answer via API"

PROMPT_EN = (
    "You are an AI assistant who will help me to match an answer with several options of a "
    "single-choice question. You are provided with a question, several options, and an answer, "
    "and you need to find which option is most similar to the answer. If the meaning of all "
    "options are significantly different from the answer, output Z. Your should output a single "
    "uppercase character in A, B, C, D (if they are valid options), and Z. \n"
    "Example 1: \n"
    "Question: What is the main object in image?\nOptions: A. teddy bear B. rabbit C. cat D. dog\n"
    "Answer: a cute teddy bear\nYour output: A\n"
    "Example 2: \n"
    "Question: What is the main object in image?\nOptions: A. teddy bear B. rabbit C. cat D. dog\n"
    "Answer: Spider\nYour output: Z\n"
    "Example 3: \n"
    "Question: {question}?\nOptions: {options}\nAnswer: {answer}\nYour output: "
)
"""The release's matcher prompt (``build_prompt``), as data."""

PROMPT_ZH = (
    "你是一个帮助我匹配答案与单选题中多个选项的 AI 助手。"
    "你会被提供：一个问题，多个选项，一个答案。你的任务是找到与答案意义最相近的选项。"
    "如果所有选项的意义都与答案显著不同，则输出 Z。"
    "你应该输出一个单个的大写字母，例如 A, B, C, D（如果它们是有效选项），或 Z。"
    "例 1:"
    "问题: 图中最主要的物体是什么?\n选项: A. 泰迪熊 B. 兔子 C. 猫 D. 狗\n答案: 一只可爱的泰迪熊\n输出: A\n"
    "例 2: \n"
    "问题: 图中最主要的物体是什么?\n选项: A. 泰迪熊 B. 兔子 C. 猫 D. 狗\n答案: 蜘蛛\n输出: Z\n"
    "例 3: \n"
    "问题: {question}?\n选项: {options}\n答案: {answer}\n输出: "
)
"""Its Chinese variant (``build_prompt_cn``), for questions with a CJK character."""


def is_chinese(text: str) -> bool:
    """``cn_string``: the text has a CJK unified ideograph."""
    return re.search("[\u4e00-\u9fff]", text) is not None


def _letter(answer: str, letters: list[str]) -> str | None:
    if _API_FAILURE in answer:
        return None
    if any(r in answer for r in RELEASE_REFUSALS):
        return NO_OPTION
    mod = answer
    for ch in _SPLIT_CHARS:
        mod = mod.replace(ch, " ")
    tokens = set(mod.split())
    named = [c for c in letters if c in tokens]
    if len(named) == 1:
        return named[0]
    if not named and NO_OPTION in tokens:
        return NO_OPTION
    return None


def _text(answer: str, options: Mapping[str, str]) -> str | None:
    low = answer.lower()
    found = [k for k, v in options.items() if str(v).lower() in low]
    return found[0] if len(found) == 1 else None


def can_infer(answer: str, options: Mapping[str, str]) -> str | None:
    """The release's ``can_infer``: a letter, ``Z``, or None (nothing read)."""
    answer = str(answer)
    return _letter(answer, list(options)) or _text(answer, options)


def release_rules(answer: str, options: Mapping[str, str]) -> Extraction:
    """The release's exact-matching extraction (``release`` steps: letter, text, refusal, none)."""
    answer = str(answer)
    got = _letter(answer, list(options))
    if got == NO_OPTION:
        return Extraction(NO_OPTION, "refusal", "release-z")
    if got is not None:
        return Extraction(got, "letter", "release-letter")
    got = _text(answer, options)
    if got is not None:
        return Extraction(got, "text", "release-text")
    return Extraction(NO_OPTION, "none", "release-none")


def option_list(options: Mapping[str, str]) -> str:
    """``build_option_str``: a header line, then one ``X. text`` line per option."""
    return "There are several options: \n" + "".join(f"{k}. {v}\n" for k, v in options.items())


def release_prompt(question: str, options: Mapping[str, str], answer: str) -> str:
    """The matcher prompt the release sends for one answer (Chinese for a Chinese question)."""
    template = PROMPT_ZH if is_chinese(question) else PROMPT_EN
    return (
        template.replace("{question}", question)
        .replace("{options}", option_list(options))
        .replace("{answer}", answer)
    )


def parse_release_reply(reply: str, options: Mapping[str, str]) -> str | None:
    """The letter (or ``Z``) the release reads from the matcher's reply; None: ask again."""
    return can_infer(reply, options)
