"""The Typer application and the shared helpers of every command module."""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperGroup

from forgebench._cli.mount import mounted, suite_options, verbs
from forgebench.cli_support import (
    console,
    err_console,
    fail,
    model_configs,
    money,
    user_error_line,
)
from forgebench.errors import UserError

__all__ = [
    "app",
    "console",
    "err_console",
    "fail",
    "model_configs",
    "money",
    "suite_options",
    "verbs",
]


class SuiteGroup(TyperGroup):
    """The root command group: the engine's commands (:data:`verbs`), then every registered
    suite's ``commands`` facet mounted as ``forgebench <suite-name> ...``.

    Typer makes a new root group each time the CLI runs; its commands come from
    :func:`forgebench._cli.mount.mounted`, made on first use and kept until the suite registry
    changes, so a suite registered before that (a plug-in, ``tests/suites/toy``) gets its group
    with no edit here. An engine command of the same name wins over a suite's group.
    """

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        given = self.commands  # commands put on ``app`` itself (the engine's are on ``verbs``)
        self.commands = mounted()  # made on first use, shared by this thread's invocations
        self.commands.update(given)

    def list_commands(self, ctx: Any) -> list[str]:
        """The names, in order, without making every command (Typer's reads each one)."""
        return list(self.commands)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """Typer's listing of the commands, read from what each was registered with rather
        than from every command made (:meth:`~forgebench._cli.mount.Commands.listing`)."""
        commands = self.commands
        listing = getattr(commands, "listing", None)
        if listing is None:
            return super().format_commands(ctx, formatter)
        shown = [(name, listing(name)) for name in self.list_commands(ctx)]
        shown = [(name, cmd) for name, cmd in shown if not cmd.hidden]
        if not shown:
            return None
        limit = formatter.width - 6 - max(len(name) for name, _ in shown)
        rows = [(name, cmd.get_short_help_str(limit)) for name, cmd in shown]
        from gettext import gettext as _

        with formatter.section(_("Commands")):
            formatter.write_dl(rows)
        return None

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


FREEZE = False
"""Set by the ``forgebench`` script (``cli.main``): the registries freeze once loaded. In-process
callers (tests, notebooks driving ``app``) may still register suites afterwards."""


def _print_version(value: bool) -> None:
    """``forgebench --version``: the version, before any suite is loaded; then exit 0."""
    if value:
        from forgebench import __version__

        console.print(f"forgebench {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: bool = typer.Option(
        False,
        "--version",
        is_eager=True,
        callback=_print_version,
        help="Print the forgebench version and exit (as `forgebench version`).",
    ),
) -> None:
    """Build and run image-forgery benchmarks (Mandela, Forensics, PIXAR) for multimodal models."""
    from forgebench import suites

    suites.load()  # the benchmarks and the providers they bring (builtin/rules, ...)
    if FREEZE:  # the ``forgebench`` process: what it serves cannot change under a command
        from forgebench.models.registry import PROVIDERS

        suites.freeze()
        PROVIDERS.freeze()


@verbs.command("version")
def version() -> None:
    """Print the forgebench version."""
    from forgebench import __version__

    console.print(f"forgebench {__version__}")


def _stages_of(suite: Any) -> list[str]:
    """The stages (verbs) ``suite`` offers: those of its facets (``suites.base.offers``, read
    without importing the facets)."""
    from forgebench.suites.base import STAGES, offers

    return [stage for stage in STAGES if offers(suite, stage)]


@verbs.command("benchmarks")
def benchmarks() -> None:
    """List every benchmark this installation knows (built-in and plug-in suites): its name,
    title, where its data comes from, probes, conditions, opt-in protocol parts, own options,
    facets and the stages it offers."""
    from forgebench import suites

    for suite in suites.all_suites():
        console.print(f"{suite.name}: {suite.title}", markup=False, highlight=False)
        protocol = suite.protocol
        source = getattr(suite, "source", "") or "(not stated by the suite)"
        rows = [
            ("data", source),
            ("probes", ", ".join(protocol.probes) or "-"),
            ("conditions", ", ".join(protocol.conditions) or "-"),
            ("protocol", ", ".join(protocol.parts) or "-"),
            (
                "options",
                ", ".join("--" + o.name.replace("_", "-") for o in protocol.options) or "-",
            ),
            ("facets", ", ".join(suite.facets) or "-"),
            ("stages", ", ".join(_stages_of(suite)) or "-"),
        ]
        for label, value in rows:
            console.print(f"  {label:<11}{value}", markup=False, highlight=False, soft_wrap=True)
