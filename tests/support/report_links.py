"""The links of a report's front page that lead nowhere: each relative ``href`` / ``src`` of
``report/index.html`` names a file of the report, or (``#id``) an element of the page.

Imported as ``from support.report_links import broken_links``.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)
            if name in ("href", "src") and value:
                self.links.append(value)


def broken_links(report: Path) -> list[str]:
    """The relative links of ``report/index.html`` with no file or element behind them."""
    page = _Links()
    page.feed((report / "index.html").read_text(encoding="utf-8"))
    broken = []
    for link in page.links:
        parts = urlsplit(link)
        if parts.scheme or parts.netloc:
            continue  # not the report's own
        if (parts.path and not (report / unquote(parts.path)).is_file()) or (
            not parts.path and parts.fragment and parts.fragment not in page.ids
        ):
            broken.append(link)
    return broken
