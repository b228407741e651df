"""Fixtures of the scoring tests: a loopback OpenAI-compatible *judge* server and hand-built runs."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from aiohttp import web

from support import hand_run as HR


@pytest.fixture
def hand_run() -> ModuleType:
    """``tests/support/hand_run.py`` (real run stores from hand-written rows)."""
    return HR


class JudgeServer:
    """Replies to ``/v1/chat/completions`` by the marker found in the graded answer:

    ``[valid-N]`` a fenced JSON grade of level N; ``[nonjson]`` prose; ``[badjson]`` truncated
    JSON; ``[schema]`` JSON without ``level``; ``[flaky]`` prose first, then ``{"level": "E2"}``;
    ``[down]`` HTTP 500; ``[uptake-UD]`` an uptake judgement (U, D: 1 / 0 for uptake, dispute).
    ``hits`` counts requests per marker.
    """

    def __init__(self) -> None:
        self.hits: Counter[str] = Counter()
        self.prompts: list[str] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self.port = 0

    def _reply(self, marker: str, level: str | None) -> tuple[int, str]:
        n = self.hits[marker]
        if marker == "valid":
            obj = {
                "level": int(level or 0),
                "reason": "graded",
                "identity_asserted": "George Orwell",
                "contradiction_asserted": None,
            }
            return 200, "Here is my grade:\n```json\n" + json.dumps(obj) + "\n```"
        if marker == "nonjson":
            return 200, "I would say this is level three."
        if marker == "badjson":
            return 200, '{"level": 3, "reason": "cut off'
        if marker == "schema":
            return 200, '{"grade": "E3", "reason": "no level key"}'
        if marker == "uptake":
            u, d = (bool(int(c)) for c in (level or "00"))
            return 200, json.dumps({"uptake": u, "dispute": d, "reason": "judged"})
        if marker == "flaky":
            return 200, ("not json yet" if n == 1 else '{"level": "E2", "reason": "retry worked"}')
        return 500, ""

    async def _chat(self, request: web.Request) -> web.Response:
        body = await request.json()
        content = body["messages"][0]["content"]
        text = content if isinstance(content, str) else " ".join(p.get("text", "") for p in content)
        self.prompts.append(text)
        m = re.search(r"\[(valid|nonjson|badjson|schema|flaky|down|uptake)(?:-(\d+))?\]", text)
        marker = m.group(1) if m else "none"
        self.hits[marker] += 1
        status, reply = self._reply(marker, m.group(2) if m else None)
        if status != 200:
            return web.json_response({"error": {"message": "boom"}}, status=status)
        return web.json_response(
            {
                "id": "x",
                "object": "chat.completion",
                "model": body.get("model"),
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": reply},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 100, "completion_tokens": 20},
            }
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> JudgeServer:
        ready = threading.Event()

        async def boot() -> None:
            app = web.Application()
            app.router.add_post("/v1/chat/completions", self._chat)
            self._runner = web.AppRunner(app)
            await self._runner.setup()
            site = web.TCPSite(self._runner, "127.0.0.1", 0)
            await site.start()
            self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

        def run() -> None:
            self._loop = asyncio.new_event_loop()
            self._loop.run_until_complete(boot())
            ready.set()
            self._loop.run_forever()

        threading.Thread(target=run, daemon=True).start()
        ready.wait(10)
        return self

    def stop(self) -> None:
        if self._loop is None:
            return
        loop = self._loop
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)


@pytest.fixture
def judge_server() -> Iterator[JudgeServer]:
    server = JudgeServer().start()
    yield server
    server.stop()


@pytest.fixture
def fixture_rows() -> list[dict[str, Any]]:
    """The hand-graded answers (``fixtures/hand_graded.jsonl``)."""
    path = Path(__file__).with_name("fixtures") / "hand_graded.jsonl"
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
