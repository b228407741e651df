"""The verbs that look after a finished run: ``redact`` (clean it of the configured keys' values)
and ``view`` (serve its report on localhost)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from forgebench._api.common import run_dir_of
from forgebench._api.outputs import report
from forgebench.errors import UserError
from forgebench.report.serve import make_server
from forgebench.run.lock import run_lock
from forgebench.run.redaction import redact_run

if TYPE_CHECKING:
    import http.server

    from forgebench._api.outputs import ReportResult
    from forgebench.run.redaction import Redacted


def redact(
    run_dir: str | Path, *, wait: bool = False, on_wait: Callable[[str], None] | None = None
) -> Redacted:
    """Replace every value of a configured key (the credential-named environment variables and
    the models' ``api_key_env``, 8 characters or more) by ``***`` in the run's store and files
    (:func:`forgebench.run.redaction.redact_run`), holding the run directory's lock
    (``RunLocked``, exit 4, unless ``wait``). What was looked for and changed (``keys == 0``:
    no configured key is set, nothing looked for). :class:`~forgebench._api.common.NotARun`
    (exit 2) for a folder without ``run.sqlite``."""
    path = run_dir_of(run_dir)
    with run_lock(path, "redact", wait=wait, on_wait=on_wait):
        return redact_run(path)


@dataclass
class Viewer:
    """A report served on ``127.0.0.1`` (:func:`view`); :meth:`serve` until Ctrl-C."""

    root: Path
    """The folder served: ``RUN/report``."""
    server: http.server.ThreadingHTTPServer
    report: ReportResult | None = None
    """The report built first (``rebuild``, or none there yet), else None."""

    @property
    def url(self) -> str:
        """The report's page."""
        return f"http://127.0.0.1:{self.server.server_address[1]}/index.html"

    def serve(self) -> None:
        """Serve until Ctrl-C (which returns), then close the socket."""
        try:
            self.server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            self.server.server_close()


def view(
    run_dir: str | Path,
    port: int = 8765,
    *,
    rebuild: bool = False,
    on_report: Callable[[ReportResult], None] | None = None,
) -> Viewer:
    """The run's report ready to serve on ``127.0.0.1:port`` (0 picks a free port), built first
    (:func:`forgebench.api.report`, then given to ``on_report``) when ``rebuild`` or when the run
    has none yet. One line (exit 2) for a folder that is not a run and a port that cannot be
    listened on."""
    path = run_dir_of(run_dir)
    index = path / "report" / "index.html"
    built = None
    if rebuild or not index.is_file():
        built = report(path)
        if on_report is not None:
            on_report(built)
    try:
        server = make_server(index.parent, port)
    except OSError as exc:
        raise UserError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror}") from None
    return Viewer(index.parent, server, built)
