"""A loopback OpenAI-compatible chat-completions server that injects faults, for tests and benchmarks.

In a test (thread mode, via the ``fake_openai`` fixture of ``tests/conftest.py``)::

    server = FakeOpenAI(latency_ms=5, fault_rate=0.15, seed=1).start()
    server.url          # http://127.0.0.1:PORT/v1
    server.script.extend(["429", "ok"])   # force the next outcomes, in order
    server.hits, server.outcomes, server.requests, server.auth_headers
    server.stop()

As its own process (prints the port on stdout, serves until killed)::

    python tests/support/fake_openai.py --port 0 --latency-ms 100 --fault-rate 0.15 --reply-text "REAL."

``capacity`` (``--capacity N``) makes it a fixed-capacity server: N requests are processed at
once and the others wait for a slot (an inference engine's batch slots), so its throughput is at
most N / latency.

Outcomes: ``ok``; faults ``429`` (with ``Retry-After``), ``500``, ``drop`` (connection closed
without a reply), ``nonjson`` (200 with an HTML body), ``slow`` (a correct reply after
``slow_s``), ``badschema`` (200 JSON without choices); and, on script only, ``400`` (invalid
request), ``401``, ``refusal`` (a ``refusal`` message), ``length`` (truncated reply). Random faults
hit ``fault_rate`` of requests, chosen by a seeded RNG in arrival order.

Replies are deterministic: ``reply_text`` followed by `` #`` and 12 hex digits of sha256 of the
request's messages, so an answer identifies the request that produced it. ``GET /stats`` returns
the counters as JSON (hits, outcomes, wall time of the first request and of the last reply) and
``POST /stats/reset`` zeroes them (for out-of-process use).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
import signal
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from typing import Any

from aiohttp import web

FAULTS: tuple[str, ...] = ("429", "500", "drop", "nonjson", "slow", "badschema")


class FakeOpenAI:
    """The server; configure, :meth:`start` (thread) or :meth:`serve` (own process), read counters."""

    def __init__(
        self,
        *,
        latency_ms: float = 0.0,
        fault_rate: float = 0.0,
        faults: tuple[str, ...] = FAULTS,
        seed: int = 0,
        reply_text: str = "REAL. Nothing in the image contradicts the record.",
        retry_after: str | None = "0",
        slow_s: float = 2.0,
        host: str = "127.0.0.1",
        port: int = 0,
        record: bool = True,
        capacity: int | None = None,
        replies: Callable[[dict[str, Any]], str] | None = None,
        keep_images: bool = False,
    ) -> None:
        self.latency_s = latency_ms / 1000.0
        self.fault_rate = fault_rate
        self.faults = faults
        self.rng = random.Random(seed)
        self.reply_text = reply_text
        self.retry_after = retry_after
        self.slow_s = slow_s
        self.host = host
        self.port = port
        self.record = record
        """Keep request bodies (redacted) and digests; off for benchmarks."""
        self.keep_images = keep_images
        self.images: list[tuple[str, bytes]] = []
        """With ``keep_images``: (request model, decoded bytes) of every data-URL image received."""
        self.capacity = capacity
        """Requests processed at once (the rest wait, as an engine's batch slots); None: any."""
        self.replies = replies
        """Replays a fixed model: the reply's whole text from the request body (no digest)."""
        self._slots: asyncio.Semaphore | None = None
        self.first_hit_at: float | None = None
        self.last_reply_at: float | None = None
        self.script: deque[str] = deque()
        """Outcomes forced on the next requests, in order (before any random fault)."""
        self.hits = 0
        self.outcomes: Counter[str] = Counter()
        self.requests: list[dict[str, Any]] = []
        """Request bodies, image data URLs replaced by ``<data:MEDIA;base64 N chars>``."""
        self.hit_times: list[float] = []
        self.auth_headers: list[str | None] = []
        self.digests: list[str] = []
        """Per request, the digest its reply carries (``#`` + 12 hex digits)."""
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None

    # -- the HTTP side -----------------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_get("/v1/models", self._models)
        app.router.add_get("/stats", self._stats)
        app.router.add_post("/stats/reset", self._reset)
        return app

    def _next_outcome(self) -> str:
        with self._lock:
            if self.script:
                return self.script.popleft()
            if self.fault_rate > 0 and self.rng.random() < self.fault_rate:
                return self.rng.choice(self.faults)
            return "ok"

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        outcome = self._next_outcome()
        try:
            body = json.loads(raw)
        except json.JSONDecodeError:
            body = {}
        with self._lock:
            self.hits += 1
            self.outcomes[outcome] += 1
            self.hit_times.append(time.monotonic())
            if self.first_hit_at is None:
                self.first_hit_at = time.time()
            self.auth_headers.append(request.headers.get("Authorization"))
            if self.record:
                self.requests.append(_redact(body))
                self.digests.append(_digest(body))
            if self.keep_images:
                self.images += [(str(body.get("model")), data) for data in _images(body)]
        if self.capacity is not None:
            if self._slots is None:
                self._slots = asyncio.Semaphore(self.capacity)
            async with self._slots:
                if self.latency_s:
                    await asyncio.sleep(self.latency_s)
        elif self.latency_s:
            await asyncio.sleep(self.latency_s)
        if outcome == "429":
            headers = {"Retry-After": self.retry_after} if self.retry_after is not None else {}
            return _error(429, "Rate limit reached, slow down", headers)
        if outcome == "500":
            return _error(500, "internal server error")
        if outcome == "400":
            return _error(400, "Invalid 'temperature': unsupported value for this model")
        if outcome == "401":
            return _error(401, "Incorrect API key provided")
        if outcome == "413":
            return _error(413, "Request too large: image exceeds 20 MB")
        if outcome == "drop":
            if request.transport is not None:
                request.transport.abort()
            return web.Response(status=500)
        if outcome == "nonjson":
            return web.Response(
                status=200, text="<html>Bad Gateway</html>", content_type="text/html"
            )
        if outcome == "badschema":
            return web.json_response({"object": "chat.completion", "choices": []})
        if outcome == "slow":
            await asyncio.sleep(self.slow_s)
        reply = web.json_response(self._completion(body, outcome))
        self.last_reply_at = time.time()
        return reply

    def _completion(self, body: dict[str, Any], outcome: str) -> dict[str, Any]:
        messages = body.get("messages", [])
        digest = hashlib.sha256(json.dumps(messages, sort_keys=True).encode("utf-8")).hexdigest()[
            :12
        ]
        text = self.replies(body) if self.replies is not None else f"{self.reply_text} #{digest}"
        message: dict[str, Any] = {"role": "assistant", "content": text}
        finish = "stop"
        if outcome == "refusal":
            message = {"role": "assistant", "content": None, "refusal": "I can't help with that."}
        elif outcome == "length":
            message["content"] = message["content"][:5]
            finish = "length"
        return {
            "id": f"chatcmpl-{digest}",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 12, "total_tokens": 112},
        }

    async def _models(self, request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [{"id": "fake", "object": "model"}]})

    async def _stats(self, request: web.Request) -> web.Response:
        with self._lock:
            return web.json_response(
                {
                    "hits": self.hits,
                    "outcomes": dict(self.outcomes),
                    "first_hit_at": self.first_hit_at,
                    "last_reply_at": self.last_reply_at,
                }
            )

    async def _reset(self, request: web.Request) -> web.Response:
        with self._lock:
            self.hits = 0
            self.outcomes.clear()
            self.first_hit_at = self.last_reply_at = None
        return web.json_response({"ok": True})

    # -- running -----------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """Base URL for a model spec: ``http://127.0.0.1:PORT/v1``."""
        return f"http://{self.host}:{self.port}/v1"

    async def _start_site(self) -> None:
        self._runner = web.AppRunner(self.app(), access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port, backlog=1024)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    def start(self) -> FakeOpenAI:
        """Serve on a background thread; returns once the port is bound."""
        ready = threading.Event()
        self._loop = asyncio.new_event_loop()

        def run() -> None:
            assert self._loop is not None
            asyncio.set_event_loop(self._loop)
            self._loop.run_until_complete(self._start_site())
            ready.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, name="fake-openai", daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("fake OpenAI server did not start")
        return self

    def stop(self) -> None:
        """Stop the background server."""
        if self._loop is None or self._runner is None:
            return
        fut = asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop)
        fut.result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(10)
        self._loop.close()
        self._loop = None

    async def serve(self) -> None:
        """Serve in this process until SIGTERM/SIGINT, printing the port first."""
        await self._start_site()
        print(self.port, flush=True)
        done = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, done.set)
        await done.wait()
        assert self._runner is not None
        await self._runner.cleanup()


def _digest(body: dict[str, Any]) -> str:
    messages = body.get("messages", []) if isinstance(body, dict) else []
    return hashlib.sha256(json.dumps(messages, sort_keys=True).encode("utf-8")).hexdigest()[:12]


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> web.Response:
    payload = {"error": {"message": message, "type": "invalid_request_error", "code": status}}
    return web.json_response(payload, status=status, headers=headers)


def _images(body: Any) -> list[bytes]:
    """The decoded bytes of every data-URL image of a chat-completions body, in order."""
    import base64

    out = []
    for message in body.get("messages", []) if isinstance(body, dict) else []:
        content = message.get("content")
        for part in content if isinstance(content, list) else []:
            url = part.get("image_url", {}).get("url") if isinstance(part, dict) else None
            if isinstance(url, str) and url.startswith("data:"):
                out.append(base64.b64decode(url.partition(",")[2]))
    return out


def _redact(body: Any) -> dict[str, Any]:
    """The body with image data URLs shortened (tests assert on bodies, not bytes)."""
    if not isinstance(body, dict):
        return {}
    out = json.loads(json.dumps(body))
    for message in out.get("messages", []):
        content = message.get("content")
        if isinstance(content, list):
            for part in content:
                url = part.get("image_url", {}).get("url") if isinstance(part, dict) else None
                if isinstance(url, str) and url.startswith("data:"):
                    head, _, data = url.partition(",")
                    part["image_url"]["url"] = f"<{head} {len(data)} chars>"
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--latency-ms", type=float, default=0.0)
    parser.add_argument("--fault-rate", type=float, default=0.0)
    parser.add_argument("--faults", default=",".join(FAULTS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--reply-text", default="REAL. Nothing in the image contradicts the record."
    )
    parser.add_argument("--retry-after", default="0")
    parser.add_argument("--slow-s", type=float, default=2.0)
    parser.add_argument("--no-record", action="store_true", help="Keep no request bodies.")
    parser.add_argument(
        "--capacity", type=int, default=None, help="Requests processed at once (others wait)."
    )
    args = parser.parse_args(argv)
    server = FakeOpenAI(
        latency_ms=args.latency_ms,
        fault_rate=args.fault_rate,
        faults=tuple(f for f in args.faults.split(",") if f),
        seed=args.seed,
        reply_text=args.reply_text,
        retry_after=args.retry_after,
        slow_s=args.slow_s,
        host=args.host,
        port=args.port,
        record=not args.no_record,
        capacity=args.capacity,
    )
    asyncio.run(server.serve())


if __name__ == "__main__":
    sys.exit(main())
