"""The extraction chain on the corpus's test half, its LLM stage behind a loopback
OpenAI-compatible server that replays a fixed extractor (issue 39, point 5): only what the rules
leave undecided is sent, and what they decided stays as it was."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from forgebench.models.base import Request
from forgebench.models.openai_compat import create
from forgebench.models.spec import ModelConfig
from forgebench.suites.forensics.extract import extract_option
from forgebench.suites.forensics.extract_chain import chain, undecided
from forgebench.suites.forensics.llm_extractor import extractor_prompt, parse_extractor_reply
from forgebench.suites.forensics.release_match import release_rules

CORPUS = Path(__file__).parent / "data" / "extraction_corpus.jsonl"


def _test_half() -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    return [r for r in rows if r["half"] == "test"]


def _prompt(r: dict[str, Any]) -> str:
    return extractor_prompt(r["question"], r["options"], r["answer"])


def _sent(body: dict[str, Any]) -> str:
    content = body["messages"][-1]["content"]
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return str(content)


async def _ask(url: str, prompts: list[str]) -> list[str]:
    model = create(ModelConfig(spec=f"ext=openai/m@{url}"))
    gate = asyncio.Semaphore(16)

    async def one(prompt: str) -> str:
        async with gate:
            return (await model.generate(Request(prompt=prompt))).text

    try:
        return list(await asyncio.gather(*(one(p) for p in prompts)))
    finally:
        await model.aclose()


@pytest.mark.parametrize("extractor", ["labels", "release-matcher"])
def test_chain_sends_only_the_undecided_and_keeps_what_the_rules_decided(
    extractor: str, fake_openai: Callable[..., Any]
) -> None:
    rows = _test_half()
    fixed: dict[str, str] = {}  # prompt -> the fixed extractor's reply
    for r in rows:
        said = r["expected"] if extractor == "labels" else release_rules(r["answer"], r["options"])
        fixed[_prompt(r)] = said if isinstance(said, str) else said.letter
    server = fake_openai(replies=lambda body: fixed.get(_sent(body), "perhaps"))
    rules = [extract_option(r["answer"], r["options"], r["question"]) for r in rows]
    todo = [k for k, got in enumerate(rules) if undecided(got)]
    replies = asyncio.run(_ask(server.url, [_prompt(rows[k]) for k in todo]))
    assert server.hits == len(todo) and 0 < len(todo) < len(rows) // 4
    assert {_sent(b) for b in server.requests} == {_prompt(rows[k]) for k in todo}
    final = [got.letter for got in rules]
    for k, reply in zip(todo, replies, strict=True):
        final[k] = chain(rules[k], None, parse_extractor_reply(reply, rows[k]["options"])).letter
    right = [got.letter == r["expected"] for got, r in zip(rules, rows, strict=True)]
    now = [f == r["expected"] for f, r in zip(final, rows, strict=True)]
    changed = {k for k, got in enumerate(rules) if final[k] != got.letter}
    assert changed <= set(todo)  # a letter the rules decided is never replaced
    if extractor == "labels":  # a right extractor: nothing right turns wrong, accuracy rises
        assert all(n for n, was in zip(now, right, strict=True) if was)
        assert sum(now) > sum(right)
    else:  # the release's matcher guesses letters where the label is Z: only there it costs
        lost = [k for k in todo if right[k] and not now[k]]
        assert all(rows[k]["expected"] == "Z" for k in lost)
