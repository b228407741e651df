"""The Typer application and the shared helpers of every command module."""

from __future__ import annotations

import inspect
import threading
from contextvars import ContextVar
from typing import Any

import typer
from typer.core import TyperGroup

from forgebench.cli_support import (
    console,
    err_console,
    fail,
    model_configs,
    money,
    user_error_line,
)
from forgebench.errors import UserError

__all__ = ["app", "console", "err_console", "fail", "model_configs", "money", "verbs"]


class SuiteGroup(TyperGroup):
    """The root command group: the engine's commands (:data:`verbs`), then every registered
    suite's ``Suite.cli()`` mounted as ``forgebench <suite-name> ...``.

    Typer makes a new root group each time the CLI runs; its commands come from
    :func:`mounted`, which builds them once per thread and again only when the suite registry
    changes, so a suite registered before that (a plug-in, ``tests/suites/toy``) gets its group
    with no edit here. An engine command of the same name wins over a suite's group.
    """

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.commands.update(mounted())

    def invoke(self, ctx: Any) -> Any:
        """Run the command; an error the user can cause (:class:`forgebench.errors.UserError`,
        a failing store, a full disk) ends as one redacted ``error:`` line and its exit code,
        caught here once for every command and sub-command."""
        from forgebench.util.redact import redact_text

        try:
            return super().invoke(ctx)
        except Exception as exc:  # typer's Exit and usage errors are no UserError: re-raised
            found = user_error_line(exc)
            if found is None:
                raise
            message, code = found
            if isinstance(exc, UserError):
                for line in exc.details():
                    err_console.print(redact_text(line), markup=False)
            err_console.print(f"error: {redact_text(message)}", markup=False)
            raise typer.Exit(code) from None


app = typer.Typer(
    cls=SuiteGroup,
    name="forgebench",
    help="Build and run image-forgery benchmarks (Mandela, Forensics, PIXAR) for multimodal models.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
"""The ``forgebench`` command: its root group is :class:`SuiteGroup`."""

verbs = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)
"""Where the command modules of ``forgebench._cli`` register the engine's commands (turned into
click commands by :func:`mounted`, not each time the CLI runs)."""


@app.callback()
def _root() -> None:
    """Build and run image-forgery benchmarks (Mandela, Forensics, PIXAR) for multimodal models."""
    from forgebench import suites

    suites.load()  # the benchmarks and the providers they bring (builtin/rules, ...)


@verbs.command("version")
def version() -> None:
    """Print the forgebench version."""
    from forgebench import __version__

    console.print(f"forgebench {__version__}")


class _Built(threading.local):
    """One thread's built commands and what they were built from."""

    key: tuple[Any, ...] | None = None
    commands: dict[str, Any] | None = None


_BUILT = _Built()


def mounted() -> dict[str, Any]:
    """The root group's commands: the engine's (:data:`verbs`), each registered suite's
    ``Suite.cli()`` under its name, and the suites' options on the verbs that take them.

    Making click commands from the functions' signatures is most of an in-process invocation's
    time (``CliRunner``: tests, notebooks), so they are made once per thread (a command's
    callback keeps per-call state) and again when a suite is registered or removed, a suite's
    options change, or a command is added to :data:`verbs`."""
    from forgebench import suites

    found = tuple(suites.all_suites())  # the built-ins load first, with their providers
    key = (
        len(verbs.registered_commands),
        len(verbs.registered_groups),
        found,
        tuple(tuple(s.options) for s in found),
    )
    if _BUILT.commands is not None and _same(_BUILT.key, key):
        return _BUILT.commands
    commands = dict(typer.main.get_group(verbs).commands)
    for suite in found:
        sub = suite.cli()
        if sub is None or suite.name in commands:
            continue
        holder = typer.Typer(rich_markup_mode=None)
        holder.add_typer(sub, name=suite.name)  # a group even with a single command
        commands[suite.name] = typer.main.get_group(holder).commands[suite.name]
    _add_suite_options(commands)
    _BUILT.key, _BUILT.commands = key, commands
    return commands


def _same(old: tuple[Any, ...] | None, new: tuple[Any, ...]) -> bool:
    """Whether two keys of :func:`mounted` match: the same suite objects (by identity: a suite
    registered again is another object, and the old one is kept alive by the key, so its id is
    not reused) with equal options."""
    if old is None or old[:2] != new[:2] or len(old[2]) != len(new[2]):
        return False
    return all(a is b for a, b in zip(old[2], new[2], strict=True)) and old[3] == new[3]


_OPTION_PREFIX = "suite_option__"
_GIVEN: ContextVar[dict[str, str] | None] = ContextVar("forgebench_suite_options", default=None)


def _add_suite_options(commands: Any) -> None:
    """Give each verb the ``--<name>`` flags of every registered suite's options that list it
    in ``stages`` (a plug-in suite's options appear with no edit here). The values given reach
    the command through :func:`suite_options`; a value outside the option's ``choices`` is one
    line and exit 2."""
    from forgebench import suites

    wanted: dict[str, list[tuple[str, Any]]] = {}
    for suite in suites.all_suites():
        for opt in suite.options:
            for verb in opt.stages:
                have = wanted.setdefault(verb, [])
                if verb in commands and all(o.name != opt.name for _, o in have):
                    have.append((suite.name, opt))
    for verb, opts in wanted.items():
        if not opts:
            continue
        cmd = commands[verb]
        cmd.params.extend(_params(opts))
        cmd.callback = _collecting(cmd.callback, {o.name: o for _, o in opts})


def _params(opts: list[tuple[str, Any]]) -> list[Any]:
    """Typer's own parameters for the options (made through a throw-away command, so they are
    the parameter type of the Typer in use)."""

    def holder(**_: Any) -> None:
        return None

    holder.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter(
                _OPTION_PREFIX + o.name,
                inspect.Parameter.KEYWORD_ONLY,
                default=typer.Option(
                    None,
                    "--" + o.name.replace("_", "-"),
                    help=o.help + (f" ({', '.join(o.choices)})" if o.choices else ""),
                ),
                annotation=str | None,
            )
            for name, o in opts
        ]
    )
    sub = typer.Typer()
    sub.command()(holder)
    return list(typer.main.get_command(sub).params)


def _collecting(callback: Any, options: dict[str, Any]) -> Any:
    """``callback`` taking the suites' option values out of its keywords before the command
    function sees them (checked against each option's ``choices``)."""
    from forgebench.errors import UserError

    def wrapper(**kwargs: Any) -> Any:
        given: dict[str, str] = {}
        for key in [k for k in kwargs if k.startswith(_OPTION_PREFIX)]:
            value = kwargs.pop(key)
            name = key.removeprefix(_OPTION_PREFIX)
            if value is None:
                continue
            choices = options[name].choices
            if choices and value not in choices:
                flag = "--" + name.replace("_", "-")
                raise UserError(f"{flag}: {value!r} is not one of {', '.join(choices)}")
            given[name] = value
        token = _GIVEN.set(given)
        try:
            return callback(**kwargs)
        finally:
            _GIVEN.reset(token)

    return wrapper


def suite_options(verb: str) -> dict[str, str]:
    """The suites' own options given to ``verb`` (their declared defaults where not given)."""
    from forgebench import suites

    defaults = {
        o.name: o.default
        for s in suites.all_suites()
        for o in s.options
        if verb in o.stages and o.default is not None
    }
    return {**defaults, **(_GIVEN.get() or {})}
