"""A loopback image-edit server for the construction tests (aiohttp, on a thread or a process).

Two endpoints:

- ``POST /v1/images/edits``: the OpenAI Images edit endpoint (multipart ``image``, ``mask``,
  ``prompt``, ``model``, ``n``); replies ``{"created", "data": [{"b64_json"}]}``. A prompt holding
  ``[refuse]`` gets the safety-system 400 (``code: moderation_blocked``);
- ``POST /v1/chat/completions``: answers ``chat_replies`` in order (the last repeats);
- ``POST /edit``: forgebench's generic ``http/URL`` editor protocol (``image``, ``mask``,
  ``instruction``, ...); replies with a PNG body, or ``{"status": "refused", ...}`` for
  ``[refuse]``, or garbage for ``[garbage]``, or a 400 (not retried) for an instruction holding
  one of the strings of ``reject`` (a list the test may change between builds).

The "edit" inverts the colours where the mask allows (alpha 0 in the OpenAI mask, 255 in the
generic one; the whole image without a mask). ``faults`` is a list of HTTP statuses returned,
in order, before normal service (``[500, 429]``); ``latency_s`` delays every reply. ``hits``
records ``(path, prompt)`` of every request that was served an image.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import io
import signal
import threading
import time
from typing import Any

import numpy as np
from aiohttp import web
from PIL import Image


def _edit(image: bytes, mask: bytes | None, alpha_marks_edit: bool) -> bytes:
    rgb = np.asarray(Image.open(io.BytesIO(image)).convert("RGB")).copy()
    if mask is None:
        sel = np.ones(rgb.shape[:2], bool)
    else:
        m = Image.open(io.BytesIO(mask))
        if m.size != (rgb.shape[1], rgb.shape[0]):
            raise ValueError(f"mask size {m.size} differs from image size {rgb.shape[1::-1]}")
        if alpha_marks_edit:
            sel = np.asarray(m.convert("RGBA"))[..., 3] == 0
        else:
            sel = np.asarray(m.convert("L")) > 127
    rgb[sel] = 255 - rgb[sel]
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, "PNG")
    return buf.getvalue()


class FakeImages:
    """The server; ``start()`` serves on a thread, ``serve()`` in this process."""

    def __init__(
        self,
        faults: list[int] | None = None,
        latency_s: float = 0.0,
        chat_replies: list[str] | None = None,
        reject: list[str] | None = None,
    ) -> None:
        self.reject = list(reject or [])
        """Instructions holding one of these get a 400 on ``/edit``."""
        self.faults = list(faults or [])
        self.chat_replies = list(chat_replies or ["YES"])
        """Chat answers in order (the last one repeats)."""
        self.chats: list[dict[str, Any]] = []
        self.latency_s = latency_s
        self.hits: list[tuple[str, str]] = []
        self.requests = 0
        self.host, self.port = "127.0.0.1", 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_post("/v1/images/edits", self._openai)
        app.router.add_post("/edit", self._generic)
        app.router.add_post("/v1/chat/completions", self._chat)
        return app

    async def _chat(self, request: web.Request) -> web.Response:
        body = await request.json()
        if (fault := await self._fault()) is not None:
            return fault
        self.chats.append(body)
        text = self.chat_replies.pop(0) if len(self.chat_replies) > 1 else self.chat_replies[0]
        return web.json_response({
            "id": "c", "object": "chat.completion", "model": body.get("model"),
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5},
        })  # fmt: skip

    async def _form(self, request: web.Request) -> dict[str, Any]:
        form: dict[str, Any] = {}
        async for part in await request.multipart():
            if part.name:
                form[part.name] = await part.read() if part.filename else await part.text()  # type: ignore[union-attr]
        return form

    async def _fault(self) -> web.Response | None:
        self.requests += 1
        if self.latency_s:
            await asyncio.sleep(self.latency_s)
        if self.faults:
            status = self.faults.pop(0)
            return web.json_response(
                {"error": {"message": f"injected {status}", "type": "server_error", "code": None}},
                status=status,
                headers={"Retry-After": "0"} if status == 429 else None,
            )
        return None

    async def _openai(self, request: web.Request) -> web.Response:
        form = await self._form(request)
        if (fault := await self._fault()) is not None:
            return fault
        prompt = str(form.get("prompt", ""))
        if "[refuse]" in prompt:
            return web.json_response(
                {
                    "error": {
                        "message": "Your request was rejected by the safety system.",
                        "type": "image_generation_user_error",
                        "code": "moderation_blocked",
                    }
                },
                status=400,
            )
        if "image" not in form or "model" not in form:
            return web.json_response(
                {"error": {"message": "image and model are required"}}, status=400
            )
        try:
            png = _edit(form["image"], form.get("mask"), alpha_marks_edit=True)
        except ValueError as exc:
            return web.json_response({"error": {"message": str(exc)}}, status=400)
        self.hits.append(("/v1/images/edits", prompt))
        return web.json_response(
            {"created": int(time.time()), "data": [{"b64_json": base64.b64encode(png).decode()}]}
        )

    async def _generic(self, request: web.Request) -> web.Response:
        form = await self._form(request)
        if (fault := await self._fault()) is not None:
            return fault
        instruction = str(form.get("instruction", ""))
        if "[refuse]" in instruction:
            return web.json_response({"status": "refused", "message": "I can't edit that."})
        if any(r in instruction for r in self.reject):
            return web.json_response({"error": "this edit is not allowed"}, status=400)
        if "[garbage]" in instruction:
            return web.Response(body=b"\x00not an image", content_type="application/octet-stream")
        png = _edit(form["image"], form.get("mask"), alpha_marks_edit=False)
        self.hits.append(("/edit", instruction))
        return web.Response(body=png, content_type="image/png")

    async def _start_site(self) -> None:
        self._runner = web.AppRunner(self.app(), access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    def start(self) -> FakeImages:
        ready = threading.Event()
        self._loop = asyncio.new_event_loop()

        def run() -> None:
            assert self._loop is not None
            asyncio.set_event_loop(self._loop)
            self._loop.run_until_complete(self._start_site())
            ready.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, name="fake-images", daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("fake images server did not start")
        return self

    def stop(self) -> None:
        if self._loop is None or self._runner is None:
            return
        asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(10)
        self._loop.close()
        self._loop = None

    async def serve(self) -> None:
        await self._start_site()
        print(self.port, flush=True)
        done = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, done.set)
        await done.wait()
        assert self._runner is not None
        await self._runner.cleanup()


def main() -> None:
    p = argparse.ArgumentParser(description="loopback image-edit server")
    p.add_argument("--latency-s", type=float, default=0.0)
    args = p.parse_args()
    asyncio.run(FakeImages(latency_s=args.latency_s).serve())


if __name__ == "__main__":
    main()
