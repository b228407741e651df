"""The root group's commands, made once: the engine's verbs (:data:`verbs`), every registered
suite's ``commands`` facet mounted under its name, and the suites' own options on the verbs that
take them.

Making a click command from a function's signature costs about a millisecond (Typer evaluates every
annotation), and there are some thirty-five commands: made eagerly each time the CLI runs, they
were most of an in-process invocation (``CliRunner``: tests, notebooks) and a tenth of a command
process's start-up. So :func:`mounted` hands out a mapping that makes each command the first time
it is asked for (a process running ``judge`` makes ``judge``), kept per thread (a command's
callback keeps per-call state) until the suite registry, a suite's options or :data:`verbs` change.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable, Iterator, MutableMapping
from contextvars import ContextVar
from functools import partial
from typing import TYPE_CHECKING, Any

import typer

from forgebench.suites.base import Commands as CommandsFacet

if TYPE_CHECKING:
    from forgebench.suites.base import Suite, SuiteOption

verbs = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)
"""Where the command modules of ``forgebench._cli`` register the engine's commands."""


class Commands(MutableMapping[str, Any]):
    """The root group's commands by name (engine verbs, their groups, then the suites' groups),
    each made on first use; a verb that suites give options to gets them as it is made."""

    def __init__(self, found: tuple[Suite, ...]) -> None:
        self._found = found
        self._made: dict[str, Any] = {}
        self._makers: dict[str, Callable[[], Any]] = {}
        self._listed: dict[str, Callable[[], Any]] = {}
        for info in verbs.registered_commands:
            assert info.callback is not None
            name = info.name or typer.main.get_command_name(info.callback.__name__)
            self._makers[name] = partial(_command, info)
            self._listed[name] = partial(_command_listing, name, info)
        for group in verbs.registered_groups:
            assert group.name
            self._makers[group.name] = partial(_group, group)
            self._listed[group.name] = partial(_group_listing, group.name, group)
        self._suites_mounted = False

    def _mount_suites(self) -> None:
        """Add each suite's group (its ``commands`` facet) after the engine's commands: an
        engine command of the same name wins."""
        if self._suites_mounted:
            return
        self._suites_mounted = True
        for suite in self._found:
            if suite.name in self._makers:
                continue
            commands = suite.facet(CommandsFacet)
            sub = commands.app if commands is not None else None
            if sub is not None:
                self._makers[suite.name] = partial(_suite_group, suite.name, sub)
                self._listed[suite.name] = partial(_suite_listing, suite.name, sub)

    def listing(self, name: str) -> Any:
        """What the root group's help lists for ``name`` (its help, short help, hidden and
        deprecated), without making the command: Typer's listing made every command and group,
        about a third of ``forgebench --help``. A command made already, or put here made, is
        itself."""
        made = self._made.get(name)
        if made is not None:
            return made
        if name not in self._listed:
            self._mount_suites()
        return self._listed[name]()

    def __getitem__(self, name: str) -> Any:
        made = self._made.get(name)
        if made is None:
            if name not in self._makers:
                self._mount_suites()
            made = self._makers[name]()  # KeyError: no such command
            opts = _options_of(name, self._found, self)
            if opts:
                made.params.extend(_params(opts))
                made.callback = _collecting(made.callback, {o.name: o for o in opts})
            self._made[name] = made
        return made

    def __contains__(self, name: object) -> bool:
        if name not in self._makers:
            self._mount_suites()
        return name in self._makers

    def __iter__(self) -> Iterator[str]:
        self._mount_suites()
        return iter(list(self._makers))

    def __len__(self) -> int:
        self._mount_suites()
        return len(self._makers)

    def __setitem__(self, name: str, command: Any) -> None:
        self._makers[name] = partial(lambda c: c, command)
        self._made[name] = command

    def __delitem__(self, name: str) -> None:
        del self._makers[name]
        self._made.pop(name, None)
        self._listed.pop(name, None)


def _command(info: Any) -> Any:
    return typer.main.get_command_from_info(
        info, pretty_exceptions_short=verbs.pretty_exceptions_short, rich_markup_mode=None
    )


def _group(info: Any) -> Any:
    return typer.main.get_group_from_info(
        info,
        pretty_exceptions_short=verbs.pretty_exceptions_short,
        rich_markup_mode=None,
        suggest_commands=verbs.suggest_commands,
    )


def _holder(name: str, sub: typer.Typer) -> typer.Typer:
    holder = typer.Typer(rich_markup_mode=None)
    holder.add_typer(sub, name=name)  # a group even with a single command
    return holder


def _suite_group(name: str, sub: typer.Typer) -> Any:
    return typer.main.get_group(_holder(name, sub)).commands[name]


def _listed(
    name: str, help: str | None, short_help: str | None, hidden: bool, deprecated: Any
) -> Any:
    """A parameterless command with what the help of its group reads of it: its
    ``get_short_help_str`` is Typer's own."""
    from typer.core import TyperCommand

    return TyperCommand(
        name, help=help, short_help=short_help, hidden=hidden, deprecated=deprecated
    )


def _command_listing(name: str, info: Any) -> Any:
    """As :func:`typer.main.get_command_from_info` sets the listed fields."""
    doc = inspect.getdoc(info.callback) if info.help is None else inspect.cleandoc(info.help)
    return _listed(name, doc, info.short_help, info.hidden, info.deprecated)


def _group_listing(name: str, info: Any) -> Any:
    """As :func:`typer.main.get_group_from_info` sets the listed fields."""
    solved = typer.main.solve_typer_info_defaults(info)
    return _listed(name, solved.help, solved.short_help, solved.hidden, solved.deprecated)


def _suite_listing(name: str, sub: typer.Typer) -> Any:
    return _group_listing(name, _holder(name, sub).registered_groups[0])


def _options_of(verb: str, found: tuple[Suite, ...], commands: Commands) -> list[SuiteOption]:
    """The options of every registered suite that list ``verb`` in their ``stages`` (a plug-in
    suite's options appear with no edit here), each name once (the first suite's)."""
    have: list[SuiteOption] = []
    for suite in found:
        for opt in suite.protocol.options:
            if verb in opt.stages and all(o.name != opt.name for o in have):
                have.append(opt)
    return have if have and verb in commands else []


class _Built(threading.local):
    """One thread's commands and what they were made from."""

    key: tuple[Any, ...] | None = None
    commands: Commands | None = None


_BUILT = _Built()


def mounted() -> Commands:
    """The root group's commands (see the module's docstring): the same mapping for every
    invocation in this thread until a suite is registered or removed, a suite's options change
    or a command is added to :data:`verbs`."""
    from forgebench import suites

    found = tuple(suites.all_suites())  # the built-ins load first, with their providers
    key = (
        len(verbs.registered_commands),
        len(verbs.registered_groups),
        found,
        tuple(tuple(s.protocol.options) for s in found),
    )
    if _BUILT.commands is not None and _same(_BUILT.key, key):
        return _BUILT.commands
    _BUILT.key, _BUILT.commands = key, Commands(found)
    return _BUILT.commands


def _same(old: tuple[Any, ...] | None, new: tuple[Any, ...]) -> bool:
    """Whether two keys of :func:`mounted` match: the same suite objects (by identity: a suite
    registered again is another object, and the old one is kept alive by the key, so its id is
    not reused) with equal options."""
    if old is None or old[:2] != new[:2] or len(old[2]) != len(new[2]):
        return False
    return all(a is b for a, b in zip(old[2], new[2], strict=True)) and old[3] == new[3]


_OPTION_PREFIX = "suite_option__"
_GIVEN: ContextVar[dict[str, str] | None] = ContextVar("forgebench_suite_options", default=None)


def _params(opts: list[SuiteOption]) -> list[Any]:
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
            for o in opts
        ]
    )
    sub = typer.Typer(add_completion=False)  # else every verb with options gets completion flags
    sub.command()(holder)
    return list(typer.main.get_command(sub).params)


def _collecting(callback: Any, options: dict[str, Any]) -> Any:
    """``callback`` taking the suites' option values out of its keywords before the command
    function sees them (checked against each option's ``choices``; a value outside them is one
    line and exit 2). The values reach the command through :func:`suite_options`."""
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
        for o in s.protocol.options
        if verb in o.stages and o.default is not None
    }
    return {**defaults, **(_GIVEN.get() or {})}
