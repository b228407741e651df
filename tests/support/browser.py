"""Headless Chromium for the browser tests: Debian's ``chromium`` driven by Playwright
(``playwright install`` downloads a browser and fails here, so the system one is used).

``CHROMIUM`` is its path (None: not installed; the tests skip, saying so); :func:`open_page`
yields a Playwright page whose ``errors`` list collects the page's JavaScript errors.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
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


@contextmanager
def open_page() -> Iterator[Any]:
    """A fresh page in headless Chromium (1400 x 1000), closed afterwards."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        ctx = browser.new_context(accept_downloads=True, viewport={"width": 1400, "height": 1000})
        pg = ctx.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.errors = errors
        try:
            yield pg
        finally:
            browser.close()
