"""Headless Chromium for the browser tests: Debian's ``chromium`` driven by Playwright
(``playwright install`` downloads a browser and fails here, so the system one is used).

``CHROMIUM`` is its path (None: not installed; the tests skip, saying so); :func:`open_page`
yields a Playwright page whose ``errors`` list collects the page's JavaScript errors.

One Chromium serves every browser test of a process (starting one costs about a second of CPU;
a fresh context per test costs a quarter of that and shares no cookies, storage or downloads with
the test before). It runs, with its Playwright, on a thread of its own: Playwright's sync API
marks the event loop of the thread that uses it as running, which would break every later
``asyncio.run`` on the test's thread. The page a test gets is a :class:`Remote`: each attribute
and call is carried out on that thread and its Playwright results come back as Remotes too. The
conftest closes it after the last browser test (they run one after another on one worker).
"""

from __future__ import annotations

import inspect
import queue
import shutil
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
needs_chromium = [
    pytest.mark.browser,
    pytest.mark.skipif(
        CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)"
    ),
]
"""``pytestmark`` of a browser test module."""


class _Chromium:
    """Playwright and one launched Chromium on their own thread; :meth:`call` runs a function
    there and returns its result (or raises its error) on the caller's thread."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]] | None] = (
            queue.SimpleQueue()
        )
        self._thread = threading.Thread(target=self._serve, name="chromium", daemon=True)
        self._ready: Future[Any] = Future()
        self._thread.start()
        self.browser = self._ready.result()

    def _serve(self) -> None:
        try:
            from playwright.sync_api import sync_playwright

            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
                self._ready.set_result(browser)
                while (job := self._jobs.get()) is not None:
                    fn, done = job
                    try:
                        done.set_result(fn())
                    except BaseException as exc:  # the caller's to handle
                        done.set_exception(exc)
                browser.close()
        except BaseException as exc:
            if not self._ready.done():
                self._ready.set_exception(exc)
            else:
                raise

    def call(self, fn: Callable[[], Any]) -> Any:
        if not self._thread.is_alive():
            raise RuntimeError("the tests' Chromium thread has stopped")
        done: Future[Any] = Future()
        self._jobs.put((fn, done))
        return done.result()

    def close(self) -> None:
        self._jobs.put(None)
        self._thread.join(timeout=60)


_shared: _Chromium | None = None
_lock = threading.Lock()


def shared() -> _Chromium:
    """This process's Chromium, launched on first use."""
    global _shared
    with _lock:
        if _shared is None:
            pytest.importorskip("playwright.sync_api")
            _shared = _Chromium()
        return _shared


def close_shared() -> None:
    """Close this process's Chromium, if one runs (the next :func:`shared` launches another)."""
    global _shared
    with _lock:
        if _shared is not None:
            _shared.close()
            _shared = None


def _is_playwright(value: Any) -> bool:
    """A Playwright object, or a method bound to one (it must run on the Chromium thread)."""
    owner = value.__self__ if inspect.ismethod(value) else value
    return type(owner).__module__.startswith("playwright.")


class Remote:
    """A Playwright object that lives on the Chromium thread: attributes read, methods called,
    ``with`` blocks entered and left there; Remotes passed back as arguments are unwrapped.
    Attributes set on a Remote stay on it (``page.errors``)."""

    def __init__(self, obj: Any, chromium: _Chromium) -> None:
        self.__dict__["_obj"] = obj
        self.__dict__["_chromium"] = chromium

    def _wrap(self, value: Any) -> Any:
        if _is_playwright(value):
            return Remote(value, self._chromium)
        if isinstance(value, list) and any(_is_playwright(v) for v in value):
            return [self._wrap(v) for v in value]
        return value

    def __getattr__(self, name: str) -> Any:
        obj = self._obj
        return self._wrap(self._chromium.call(lambda: getattr(obj, name)))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        fn = self._obj
        args = tuple(a._obj if isinstance(a, Remote) else a for a in args)
        kwargs = {k: v._obj if isinstance(v, Remote) else v for k, v in kwargs.items()}
        return self._wrap(self._chromium.call(lambda: fn(*args, **kwargs)))

    def __enter__(self) -> Any:
        return self._wrap(self._chromium.call(self._obj.__enter__))

    def __exit__(self, *exc: Any) -> Any:
        obj = self._obj
        return self._chromium.call(lambda: obj.__exit__(*exc))

    def __repr__(self) -> str:
        return f"Remote({self._obj!r})"


@contextmanager
def open_page(**context: Any) -> Iterator[Any]:
    """A fresh page (1400 x 1000 unless ``viewport`` is given) in a fresh browser context of
    this process's headless Chromium, closed afterwards; ``context`` goes to ``new_context``."""
    chromium = shared()
    options = {"accept_downloads": True, "viewport": {"width": 1400, "height": 1000}, **context}
    errors: list[str] = []

    def start() -> tuple[Any, Any]:
        ctx = chromium.browser.new_context(**options)
        pg = ctx.new_page()
        pg.on("pageerror", lambda e: errors.append(str(e)))
        return ctx, pg

    ctx, pg = chromium.call(start)
    page = Remote(pg, chromium)
    page.errors = errors
    try:
        yield page
    finally:
        chromium.call(ctx.close)


def loaded_images(pg: Any, selector: str) -> list[tuple[str, bool]]:
    """Each matching image's title and whether it decoded to a picture, once one is there and
    every one has loaded or failed (the report's pictures load lazily, after the page draws them:
    on a busy machine an image read at once may not have arrived yet)."""
    pg.wait_for_selector(selector)
    pairs = pg.eval_on_selector_all(
        selector,
        "is => Promise.all(is.map(i => i.decode().then(() => [i.title, i.naturalWidth > 0], () => [i.title, false])))",
    )
    return [(t, ok) for t, ok in pairs]
