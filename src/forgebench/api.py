"""The Python API: every verb as a typed function; the command line only parses, calls these and
prints.

A notebook drives a whole study without the command line::

    from forgebench import api
    result = api.run("data/mandela", "runs/r1", ["qwen=openai/Qwen3-VL-8B@http://127.0.0.1:8000/v1"])
    api.judge("runs/r1", "builtin/rules")
    api.metrics("runs/r1")            # RUN/metrics.csv (each suite writes its own rows)
    # or in one call, as ``forgebench run --judge``: api.run(..., judge="builtin/rules")
    api.report("runs/r1")             # RUN/report/index.html
    api.export("runs/r1", "parquet")  # RUN/export.parquet (one file per benchmark)

Benchmarks are found by the suite registry (:mod:`forgebench.suites`: the dataset folder or the
run tells which); each verb acts on the benchmarks that have its stage (``benchmark=`` narrows
to one) and says which it skipped. Every error a user can cause raises a
:class:`forgebench.errors.UserError` with a one-line message and its exit code. The bodies live
in ``forgebench._api`` (one module per group of verbs); this module names no suite.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forgebench._api.common import StageResult, benchmarks_in
    from forgebench._api.compare import CompareResult, compare, parse_pairs
    from forgebench._api.construct import (
        BuildSettings,
        audit,
        build,
        propose,
        review_export,
        review_import,
    )
    from forgebench._api.dataset import dataset_suite as suite_of
    from forgebench._api.dataset import import_, prompts, selection_for, tasks, validate
    from forgebench._api.demo import DemoResult, DemoShow, demo, demo_parts
    from forgebench._api.interop import (
        export_dataset,
        import_hf_dataset,
    )
    from forgebench._api.leaderboard import LeaderboardResult, leaderboard
    from forgebench._api.outputs import ReportResult, export, figures, merge, report, tables
    from forgebench._api.running import (
        RunResult,
        Status,
        cache_clean,
        dry_run,
        export_batch,
        import_batch,
        ray_batch,
        replicas,
        run,
        status,
    )
    from forgebench._api.scoring import (
        calibrate_sample,
        calibrate_score,
        judge,
        judge_config,
        metrics,
        parse,
        summaries,
    )
    from forgebench._api.upkeep import Viewer, redact, view
    from forgebench.models.configs import model_configs
    from forgebench.run.generate import GenerationResult, GenerationSettings
    from forgebench.run.judging import JudgeSettings
    from forgebench.run.send.options import SendOptions
    from forgebench.run.source import Selection
    from forgebench.suites.base import ImportSettings


_HOMES: dict[str, str | tuple[str, str]] = {
    "StageResult": "forgebench._api.common",
    "benchmarks_in": "forgebench._api.common",
    "CompareResult": "forgebench._api.compare",
    "compare": "forgebench._api.compare",
    "parse_pairs": "forgebench._api.compare",
    "BuildSettings": "forgebench._api.construct",
    "audit": "forgebench._api.construct",
    "build": "forgebench._api.construct",
    "propose": "forgebench._api.construct",
    "review_export": "forgebench._api.construct",
    "review_import": "forgebench._api.construct",
    "DemoResult": "forgebench._api.demo",
    "DemoShow": "forgebench._api.demo",
    "demo": "forgebench._api.demo",
    "demo_parts": "forgebench._api.demo",
    "import_": "forgebench._api.dataset",
    "prompts": "forgebench._api.dataset",
    "selection_for": "forgebench._api.dataset",
    "suite_of": ("forgebench._api.dataset", "dataset_suite"),
    "tasks": "forgebench._api.dataset",
    "validate": "forgebench._api.dataset",
    "LeaderboardResult": "forgebench._api.leaderboard",
    "leaderboard": "forgebench._api.leaderboard",
    "export_dataset": "forgebench._api.interop",
    "import_hf_dataset": "forgebench._api.interop",
    "ReportResult": "forgebench._api.outputs",
    "export": "forgebench._api.outputs",
    "figures": "forgebench._api.outputs",
    "merge": "forgebench._api.outputs",
    "report": "forgebench._api.outputs",
    "tables": "forgebench._api.outputs",
    "RunResult": "forgebench._api.running",
    "Status": "forgebench._api.running",
    "cache_clean": "forgebench._api.running",
    "dry_run": "forgebench._api.running",
    "export_batch": "forgebench._api.running",
    "import_batch": "forgebench._api.running",
    "ray_batch": "forgebench._api.running",
    "replicas": "forgebench._api.running",
    "run": "forgebench._api.running",
    "status": "forgebench._api.running",
    "calibrate_sample": "forgebench._api.scoring",
    "calibrate_score": "forgebench._api.scoring",
    "judge": "forgebench._api.scoring",
    "judge_config": "forgebench._api.scoring",
    "metrics": "forgebench._api.scoring",
    "parse": "forgebench._api.scoring",
    "summaries": "forgebench._api.scoring",
    "Viewer": "forgebench._api.upkeep",
    "redact": "forgebench._api.upkeep",
    "view": "forgebench._api.upkeep",
    "model_configs": "forgebench.models.configs",
    "GenerationResult": "forgebench.run.generate",
    "GenerationSettings": "forgebench.run.generate",
    "JudgeSettings": "forgebench.run.judging",
    "Selection": "forgebench.run.source",
    "SendOptions": "forgebench.run.send.options",
    "ImportSettings": "forgebench.suites.base",
}
"""Where each name of :data:`__all__` lives (a module, or a module and the name there): loaded on
first use, so a command imports the verbs it runs, not all of them (``run``'s runner, asyncio and
Pillow are not a ``metrics`` start-up's)."""


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attr = (home, name) if isinstance(home, str) else home
    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value  # the next use is a plain global
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "BuildSettings",
    "CompareResult",
    "DemoResult",
    "DemoShow",
    "GenerationResult",
    "GenerationSettings",
    "ImportSettings",
    "JudgeSettings",
    "LeaderboardResult",
    "ReportResult",
    "RunResult",
    "Selection",
    "SendOptions",
    "StageResult",
    "Status",
    "Viewer",
    "audit",
    "benchmarks_in",
    "build",
    "cache_clean",
    "calibrate_sample",
    "calibrate_score",
    "compare",
    "demo",
    "demo_parts",
    "dry_run",
    "export",
    "export_batch",
    "export_dataset",
    "figures",
    "import_",
    "import_batch",
    "import_hf_dataset",
    "judge",
    "judge_config",
    "leaderboard",
    "merge",
    "metrics",
    "model_configs",
    "parse",
    "parse_pairs",
    "prompts",
    "propose",
    "ray_batch",
    "redact",
    "replicas",
    "report",
    "review_export",
    "review_import",
    "run",
    "selection_for",
    "status",
    "suite_of",
    "summaries",
    "tables",
    "tasks",
    "validate",
    "view",
]
