"""MkDocs hook: the pages generated from the code itself.

``<!-- forgebench:cli -->`` in a page becomes the reference of every command, sub-command and flag
of the Typer app (``forgebench.cli:app``, walked as click sees it, so a command another module
registers appears with no edit here); ``<!-- forgebench:benchmarks -->`` becomes the output of
``forgebench benchmarks`` (every suite the installation knows). The test
``tests/docs/test_docs_cli_names.py`` reads the same walk.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))


def _walk(cmd: Any, path: tuple[str, ...]) -> list[tuple[tuple[str, ...], Any]]:
    out = [(path, cmd)]
    if hasattr(cmd, "list_commands"):  # a group (Typer's own click, or click)
        ctx = cmd.context_class(cmd, info_name=path[-1])
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                out.extend(_walk(sub, (*path, name)))
    return out


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def cli_markdown() -> str:
    """Markdown for every command of ``forgebench`` (help text, arguments, options)."""
    import typer

    from forgebench.cli import app

    root = typer.main.get_command(app)
    parts: list[str] = []
    for path, cmd in _walk(root, ("forgebench",)):
        name = " ".join(path)
        parts.append(f"## `{name}`\n")
        ctx = cmd.context_class(cmd, info_name=name)
        usage = " ".join(cmd.collect_usage_pieces(ctx))
        parts.append(f"```text\n{name} {usage}\n```\n")
        if cmd.help:
            parts.append(_cell_block(cmd.help) + "\n")
        rows = []
        for param in cmd.params:
            if getattr(param, "hidden", False):
                continue
            record = param.get_help_record(ctx)
            if record is None:  # an argument: click gives it no help record
                record = (param.human_readable_name, getattr(param, "help", "") or "")
                kind = "argument"
            else:
                kind = "option"
            rows.append(f"| `{_cell(record[0])}` | {kind} | {_cell(record[1])} |")
        if rows:
            parts.append("| Flag | Kind | What it does |\n|---|---|---|")
            parts.append("\n".join(rows) + "\n")
    return "\n".join(parts)


def _cell_block(text: str) -> str:
    """A command's help as Markdown: click's ``\\b`` no-rewrap markers dropped."""
    return "\n".join(line for line in text.splitlines() if line.strip() != "\b")


def benchmarks_markdown() -> str:
    """``forgebench benchmarks`` as it prints here, in a text block."""
    from typer.testing import CliRunner

    from forgebench.cli import app

    result = CliRunner().invoke(app, ["benchmarks"])
    if result.exit_code != 0:
        raise RuntimeError(f"forgebench benchmarks failed: {result.output}")
    return "```text\n$ forgebench benchmarks\n" + result.stdout.rstrip() + "\n```\n"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if "<!-- forgebench:cli -->" in markdown:
        markdown = markdown.replace("<!-- forgebench:cli -->", cli_markdown())
    if "<!-- forgebench:benchmarks -->" in markdown:
        markdown = markdown.replace("<!-- forgebench:benchmarks -->", benchmarks_markdown())
    if "<!-- forgebench:schema -->" in markdown:
        from forgebench.run.store.schema import SCHEMA_VERSION

        markdown = markdown.replace("<!-- forgebench:schema -->", str(SCHEMA_VERSION))
    return markdown
