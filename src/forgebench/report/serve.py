"""The local server of ``forgebench view``: files of ``RUN/report`` only, for this machine only.

Two defences on top of :class:`http.server.SimpleHTTPRequestHandler`:

- the ``Host`` header must name the bound address (``127.0.0.1:PORT`` or ``localhost:PORT``);
  any other (a DNS-rebinding page that resolves its own name to 127.0.0.1) gets 421 and nothing
  else, so a web page cannot read the report through the victim's browser;
- directories are never listed (404): the page links every file it needs.
"""

from __future__ import annotations

import functools
import http.server
from pathlib import Path
from typing import Any


class ReportHandler(http.server.SimpleHTTPRequestHandler):
    """Serves one folder; checks ``Host``; lists no directory."""

    allowed_hosts: frozenset[str] = frozenset()

    def __init__(self, *args: Any, allowed_hosts: frozenset[str], **kwargs: Any) -> None:
        self.allowed_hosts = allowed_hosts
        super().__init__(*args, **kwargs)

    def _host_ok(self) -> bool:
        host = (self.headers.get("Host") or "").strip().lower()
        if host in self.allowed_hosts:
            return True
        self.send_error(421, "Misdirected Request: unexpected Host header")
        return False

    def do_GET(self) -> None:
        if self._host_ok():
            super().do_GET()

    def do_HEAD(self) -> None:
        if self._host_ok():
            super().do_HEAD()

    def list_directory(self, path: str | Path) -> None:  # type: ignore[override]
        self.send_error(404, "Not Found")
        return None

    def log_message(self, format: str, *args: Any) -> None:
        return  # quiet: the console shows the URL only


def make_server(folder: Path, port: int) -> http.server.ThreadingHTTPServer:
    """A server of ``folder`` on ``127.0.0.1:port`` (0: a free port) that checks ``Host``."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", port), http.server.BaseHTTPRequestHandler
    )
    bound = server.server_address[1]
    hosts = frozenset({f"127.0.0.1:{bound}", f"localhost:{bound}"})
    server.RequestHandlerClass = functools.partial(
        ReportHandler, directory=str(folder), allowed_hosts=hosts
    )
    return server
