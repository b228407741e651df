"""``forgebench redact RUN``: clean a run directory of the configured keys' values."""

from __future__ import annotations

from pathlib import Path

import typer

from forgebench._cli.app import console, fail, verbs
from forgebench.cli_support import LOCKED_EXIT


@verbs.command("redact")
def redact_cmd(
    run_dir: Path = typer.Argument(..., help="Run directory."),
) -> None:
    """Replace every value of a configured key (the credential-named environment variables and
    the models' api_key_env, 8 characters or more) by *** in RUN's store and files (report,
    config.json, exports: .eval and .xlsx member by member, Parquet through pyarrow).

    For runs written before answers were redacted; set the keys in the environment as when the
    run was made. Each key is looked for exact, upper/lower-cased, URL-encoded and base64 (as
    live redaction does); no answer text is rewritten by a pattern. A symbolic link under RUN,
    or a file that cannot be rewritten safely, is refused by name before anything changes.
    """
    from forgebench import api
    from forgebench.run.lock import RunLocked
    from forgebench.run.store import StoreError

    try:
        done = api.redact(run_dir)
    except RunLocked as exc:
        fail(str(exc), LOCKED_EXIT)
    except StoreError as exc:
        fail(str(exc), 2)
    if done.keys == 0:
        console.print("no configured key is set in the environment: nothing to look for")
        return
    console.print(
        f"redacted {done.cells} store cells and {done.files} files "
        f"({done.keys} key value(s) looked for)"
    )
