"""The Typer application and the shared helpers of every command module."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer
from rich.console import Console
from typer.core import TyperGroup

if TYPE_CHECKING:
    from forgebench.models.spec import ModelConfig


class SuiteGroup(TyperGroup):
    """The root command group: the engine's commands, then every registered suite's
    ``Suite.cli()`` mounted as ``forgebench <suite-name> ...``.

    Built each time the CLI runs (Typer makes the click group per invocation), so a suite
    registered before that, a plug-in or ``tests/suites/toy``, gets its group with no edit here.
    An engine command of the same name wins over a suite's group.
    """

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        from forgebench import suites

        for suite in suites.all_suites():  # the built-ins load first, with their providers
            sub = suite.cli()
            if sub is None or suite.name in self.commands:
                continue
            holder = typer.Typer(rich_markup_mode=self.rich_markup_mode)
            holder.add_typer(sub, name=suite.name)  # a group even with a single command
            self.commands[suite.name] = typer.main.get_group(holder).commands[suite.name]


app = typer.Typer(
    cls=SuiteGroup,
    name="forgebench",
    help="Build and run image-forgery benchmarks (Mandela, Forensics, PIXAR) for multimodal models.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


@app.callback()
def _root() -> None:
    """Build and run image-forgery benchmarks (Mandela, Forensics, PIXAR) for multimodal models."""
    from forgebench import suites

    suites.load()  # the benchmarks and the providers they bring (builtin/rules, ...)


def _console(stderr: bool = False) -> Console:
    """A console that keeps tables readable when output is piped (rich assumes 80 columns)."""
    probe = Console(stderr=stderr)
    width = None if probe.is_terminal else 120
    return Console(stderr=stderr, highlight=False, soft_wrap=True, width=width)


console = _console()
err_console = _console(stderr=True)


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


@app.command("version")
def version() -> None:
    """Print the forgebench version."""
    from forgebench import __version__

    console.print(f"forgebench {__version__}")


def model_configs(
    specs: list[str], models_file: Path | None, overrides: dict[str, float | int | None]
) -> list[ModelConfig]:
    """``--model`` specs and ``--models-file`` tables as ModelConfigs, with the flags that were
    given (``overrides`` values not None) applied to every model; exit 2 on a bad spec or file,
    on no model at all, and on two models of one name."""
    from forgebench.models.modelsfile import load_models_file
    from forgebench.models.spec import ModelConfig, SpecError, check_unique_names, parse_spec

    given = {k: v for k, v in overrides.items() if v is not None}
    try:
        configs = load_models_file(models_file) if models_file is not None else []
        configs = [c.model_copy(update=given) for c in configs]
        for spec in specs:
            parse_spec(spec)
            configs.append(ModelConfig.model_validate({"spec": spec, **given}))
    except SpecError as exc:
        fail(str(exc), 2)
    if not configs:
        fail("no model: give --model SPEC (e.g. openai/gpt-5.6) or --models-file FILE", 2)
    try:
        check_unique_names(configs)
    except SpecError as exc:
        fail(str(exc), 2)
    return configs
