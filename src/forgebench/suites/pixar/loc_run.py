"""PIXAR's LOC questions asked and scored from Python (:func:`run_loc`, with each model's own
results), and the check that decides whether an invocation's answers are scored
(:func:`check_asked`). ``forgebench pixar run`` is a short alias of the shared verbs (``api.run``
with the metrics and tables stages, :mod:`.cli`), using :func:`check_asked`.

::

    forgebench pixar run PAIRS --model SPEC [--model SPEC ...] --out RUN [--tau T] [--classes CSV]

is ``forgebench run PAIRS --benchmark pixar --model SPEC --out RUN`` (the same runner and store: one LOC task per
pair and model, each model's concurrency, rpm, attempts and timeout, every answer committed as it
arrives, a task with an answer never asked again, transport failures stored as errors and asked
again only with ``retry_errors``, a model name reused with other settings refused) followed by
``forgebench metrics`` for PIXAR (:func:`.loc_score.score_run`, for this invocation's models) and
PIXAR's tables in ``RUN/report/``.

When a model cannot be asked (the runner stopped it: a request the server rejects, a missing
key, failures in a row; or every request it was sent in this invocation failed, as with an
unreachable server) or the run is interrupted, :class:`PixarRunError` is raised after the answers
received so far are stored, and nothing is scored: metrics.csv and the report stay as they were.
Tasks that ended as errors after their last attempt, in a run that otherwise went through, are
scored as misses and listed under ``unanswered``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgebench import api
from forgebench.errors import UserError
from forgebench.models.spec import ModelConfig, SpecError
from forgebench.run.generate import GenerationResult, GenerationSettings
from forgebench.run.send.options import SendOptions
from forgebench.run.source import Selection
from forgebench.run.store import Store
from forgebench.suites.pixar.loc_score import score_run
from forgebench.suites.pixar.results import BENCHMARK

if TYPE_CHECKING:
    from forgebench.run.executor import Executor
    from forgebench.run.send.progress import RunProgress


class PixarRunError(UserError):
    """A model could not be asked, or the run was interrupted; nothing was scored."""

    exit_code = 1

    def __init__(self, message: str, *, interrupted: bool = False) -> None:
        super().__init__(message)
        self.interrupted = interrupted
        if interrupted:
            self.exit_code = 130


def run_loc(
    pairs: str | Path,
    run_dir: str | Path,
    configs: Sequence[ModelConfig],
    *,
    options: dict[str, str] | None = None,
    limit: int | None = None,
    retry_errors: bool = False,
    progress: RunProgress | None = None,
    handle_signals: bool = False,
    on_signal: Callable[[], None] | None = None,
    executor: Executor | None = None,
) -> dict[str, dict[str, Any]]:
    """Ask every model the LOC probe, then score them; returns model name -> results.

    Results are :func:`.loc_score.score_answers`' (percentages, ``misses``, ``unanswered`` ...)
    plus ``asked`` (what this invocation sent). ``options`` are PIXAR's (``tau``, ``classes``);
    ``limit`` keeps the first N pairs; ``executor`` computes the truth labels. Raises
    ``SuiteError`` (bad pairs, classes or tau), ``SpecError`` (bad or reused model name) and
    :class:`PixarRunError`.
    """
    run_dir = Path(run_dir)
    configs = list(configs)
    if not configs:
        raise SpecError("no model: give at least one model spec")
    opts = dict(options or {})
    settings = GenerationSettings(
        selection=Selection(sample=limit, options=opts), retry_errors=retry_errors
    )
    asked = api.run(
        Path(pairs), run_dir, configs, settings, benchmark=BENCHMARK,
        send=SendOptions(progress=progress, handle_signals=handle_signals, on_signal=on_signal),
        on_generated=lambda done: check_asked(done.generation, run_dir),
    )  # fmt: skip
    results = score_run(run_dir, opts, models=[c.name for c in configs], executor=executor)
    for m in asked.models:
        if m.name in results:
            results[m.name]["asked"] = {
                "tasks": m.tasks, "sent": m.sent, "answered": m.stats.answered,
                "errors": m.stats.errors, "retries": m.stats.retries,
            }  # fmt: skip
    api.tables(run_dir, benchmark=BENCHMARK)
    return results


def check_asked(asked: GenerationResult, run_dir: Path) -> None:
    """Raise :class:`PixarRunError` when the run was interrupted or a model failed: stopped by
    the runner (a rejected request, repeated failures), or every task it was sent in this
    invocation ended as an error (an unreachable server, whatever the concurrency)."""
    if asked.interrupted:
        raise PixarRunError(
            f"interrupted: {asked.remaining} tasks remain; answers so far are saved, "
            "run the same command to resume (nothing was scored)",
            interrupted=True,
        )
    for m in asked.models:
        reason = m.stats.fatal
        if reason is None and m.stats.errors and not m.stats.answered:
            with Store.open(run_dir, create=False) as store:
                last = store.last_error(m.name)
            reason = f"every request failed; last error: {last or 'unknown'}"
        if reason is not None:
            raise PixarRunError(
                f"model {m.name}: {reason}; {m.remaining} tasks without an answer, "
                "answers so far are saved; nothing was scored"
            )


def summary_of(rows: list[dict[str, Any]], model: str) -> dict[str, Any]:
    """A model's all-pairs numbers of ``pixar run``'s summary line (gIoU, cIoU, F1, top-1, CSS,
    misses of pairs), from its PIXAR rows of metrics.csv (``miss`` is a percentage of ``n``
    pairs); empty when the model has none."""
    res: dict[str, Any] = {}
    for r in rows:
        if r["model"] == model and r["subset"] == "all" and r["condition"] == "full":
            res[r["metric"]] = float(r["value"])
            if r["metric"] == "miss":
                n = int(r["n"])
                res["n_pairs"] = n
                res["n_miss"] = round(float(r["value"]) * n / 100)
    return res if "n_pairs" in res else {}
