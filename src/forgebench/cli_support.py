"""What a command line needs besides parsing: the public toolkit of ``forgebench`` commands.

The engine's commands (``forgebench._cli``) and every suite's own sub-commands
(a suite's ``commands`` facet, mounted as ``forgebench <suite> ...``) print, fail and share options through
this module, so a plug-in suite needs nothing private:

- :data:`console` and :data:`err_console`: rich consoles that stay readable when piped and
  write no control character of the text they print (markup is off unless a call passes
  ``markup=True``; escape outside strings then with :func:`forgebench.util.text.markup_safe`);
- :func:`fail`: one redacted ``error:`` line and an exit code. Raising a
  :class:`forgebench.errors.UserError` does the same: the root command catches it once
  (:func:`user_error_line`), so library code raises and only the CLI prints;
- :func:`wait_option`, :func:`paid_stage`: the run-directory lock of a stage that sends paid
  requests (exit 4 when another holds it, or wait for it);
- :func:`executor_option`, :func:`ray_address_option`, :func:`workers_option`,
  :func:`get_executor`: where image work runs;
- :func:`model_configs`: ``--model`` specs and ``--models-file`` tables as model configs.
"""

from __future__ import annotations

import errno
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer
from rich.console import Console

from forgebench.errors import UserError
from forgebench.run.rundir import DB_NAME

if TYPE_CHECKING:
    from forgebench.models.spec import ModelConfig
    from forgebench.run.executor import Executor

__all__ = [
    "LOCKED_EXIT",
    "UserError",
    "check_executor",
    "check_flags",
    "console",
    "err_console",
    "executor_option",
    "fail",
    "get_executor",
    "model_configs",
    "money",
    "os_error_line",
    "paid_stage",
    "ray_address_option",
    "say",
    "user_error_line",
    "wait_option",
    "workers_option",
]

LOCKED_EXIT = 4
"""Exit code when another paid stage holds the run directory."""


def _console(stderr: bool = False) -> Console:
    """A console that keeps tables readable when output is piped (rich assumes 80 columns) and
    prints outside text harmlessly (:class:`forgebench.util.terminal.SafeConsole`: control
    characters escaped; markup off unless a call asks for it)."""
    from forgebench.util.terminal import SafeConsole

    probe = Console(stderr=stderr)
    width = None if probe.is_terminal else 120
    return SafeConsole(stderr=stderr, highlight=False, soft_wrap=True, width=width)


console = _console()
"""Standard output: results."""
err_console = _console(stderr=True)
"""Standard error: progress, notes, warnings and errors."""


def say(line: str, *, err: bool = False) -> None:
    """Print one plain line (no rich markup: paths and model output may hold brackets)."""
    (err_console if err else console).print(line, markup=False)


def fail(message: str, code: int = 1) -> NoReturn:
    """One clear line on stderr and a non-zero exit: for errors a user can cause (redacted:
    a message may quote a server's reply or a configuration)."""
    from forgebench.util.redact import redact_text

    err_console.print(f"error: {redact_text(message)}", markup=False)
    raise typer.Exit(code)


def money(value: float | None, param: Any = None) -> float | None:
    """A price or spend cap from a flag: a finite number >= 0 (a NaN would turn every
    ``--max-cost`` comparison off), else one ``error:`` line and exit 2. Use it as the option's
    ``callback``."""
    import math

    if value is not None and (not math.isfinite(value) or value < 0):
        name = getattr(param, "opts", None) or ["value"]
        fail(f"{name[0]}: must be a finite number >= 0, not {value}", 2)
    return value


_HINTS = {
    errno.ENOSPC: "the disk is full; what was already stored is kept, free space and run again",
    errno.EDQUOT: "the disk quota is used up; what was already stored is kept",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
}

_SQLITE_HINTS = (
    ("database or disk is full", "the disk is full; what was already stored is kept"),
    ("readonly database", "the run store is read-only"),
    ("file is not a database", f"{DB_NAME} is not a SQLite database (not a run directory?)"),
    ("unable to open database", "the run store cannot be opened"),
)


def os_error_line(exc: OSError, where: Path | str) -> str:
    """One line for a file-system error: the path, the reason and, for a full disk or a read-only
    place, what it means."""
    path = exc.filename or where
    reason = _HINTS.get(exc.errno or 0) or exc.strerror or str(exc)
    return f"{path}: {reason}"


def user_error_line(exc: BaseException) -> tuple[str, int] | None:
    """The one-line message and exit code for an error the user can cause or fix: a
    :class:`UserError` (its own exit code), a failing run store, a full disk or a forbidden place
    (exit 1); None for anything else (a bug: it keeps its traceback)."""
    import sqlite3

    if isinstance(exc, UserError):
        return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__, (
            exc.exit_code
        )
    if isinstance(exc, sqlite3.Error):
        text = str(exc)
        for needle, hint in _SQLITE_HINTS:
            if needle in text:
                return f"run store: {hint} ({text})", 1
        return f"run store: {text} (is it a run directory of this forgebench version?)", 1
    if isinstance(exc, OSError) and exc.errno in _HINTS:
        return os_error_line(exc, "?"), 1
    return None


def wait_option(what: str = "another stage holds the run directory") -> Any:
    """The ``--wait`` option of the paid stages (wait for the lock instead of exit 4)."""
    return typer.Option(False, "--wait", help=f"If {what}, wait for it to finish.")


@contextmanager
def paid_stage(run_dir: Path, stage: str, wait: bool) -> Iterator[None]:
    """Hold ``run_dir``'s lock (:mod:`forgebench.run.lock`) for a stage that sends paid
    requests, printing a line while waiting; exit 4 with one line when another process holds it
    (unless ``wait``)."""
    from forgebench.run.lock import RunLocked, run_lock

    with ExitStack() as stack:
        try:
            stack.enter_context(
                run_lock(run_dir, stage, wait=wait, on_wait=lambda m: say(m, err=True))
            )
        except RunLocked as exc:
            fail(str(exc), LOCKED_EXIT)
        except OSError as exc:
            fail(f"cannot lock the run directory: {os_error_line(exc, run_dir)}", 1)
        yield


EXECUTOR_HELP = "Where image work runs: local (this process) or ray (RAY_ADDRESS, else local Ray)."


def executor_option() -> Any:
    """The ``--executor`` option of the commands with image stages."""
    return typer.Option("local", "--executor", help=EXECUTOR_HELP)


def ray_address_option() -> Any:
    """The ``--ray-address`` option (default ``$RAY_ADDRESS``)."""
    return typer.Option(
        None, "--ray-address", help="Ray cluster for --executor ray (default $RAY_ADDRESS)."
    )


def workers_option() -> Any:
    """The ``--workers`` option (Ray tasks at once)."""
    return typer.Option(None, "--workers", min=1, help="Ray tasks at once (default: all CPUs).")


def check_executor(name: str, address: str | None) -> None:
    """Refuse a bad ``--executor`` / ``--ray-address`` before any work (exit 2)."""
    from forgebench.run.executor import EXECUTORS

    if name not in EXECUTORS:
        fail(f"unknown executor {name!r}; known: {', '.join(EXECUTORS)}", 2)
    if address and name != "ray":
        fail("--ray-address needs --executor ray", 2)


def get_executor(name: str, address: str | None, workers: int | None) -> Executor:
    """The executor of the flags (checked first); ``ExecutorError`` (exit 2) when it cannot
    be had."""
    from forgebench.run.executor import make_executor

    check_executor(name, address)
    return make_executor(name, address=address, workers=workers)


SETTING_FLAGS: dict[str, str] = {
    "concurrency": "--concurrency", "rpm": "--rpm", "timeout_s": "--timeout",
    "max_attempts": "--max-attempts", "max_reply_bytes": "--max-reply-bytes",
}  # fmt: skip
"""The flag that sets each model setting on the command line (named in its error line)."""


def check_flags(given: Mapping[str, float | int | None]) -> None:
    """The numeric setting flags given (``SETTING_FLAGS`` keys, None: not given) checked by the
    models file's own rules (``models.spec.NUMBER_RULES``): ``SpecError`` naming the flag."""
    from forgebench.models.spec import check_setting

    for name, value in given.items():
        check_setting(name, value, SETTING_FLAGS.get(name, name))


def model_configs(
    specs: list[str], models_file: Path | None, overrides: dict[str, float | int | None]
) -> list[ModelConfig]:
    """``--model`` specs and ``--models-file`` tables as ModelConfigs, with the flags that were
    given (``overrides`` values not None) applied to every model; ``SpecError`` (exit 2) on a bad
    spec or file, on no model at all, and on two models of one name
    (:func:`forgebench.models.configs.model_configs`, the API's own, naming the flags)."""
    from forgebench.models.configs import model_configs as configs

    return configs(specs, models_file=models_file, overrides=overrides, where=SETTING_FLAGS)
