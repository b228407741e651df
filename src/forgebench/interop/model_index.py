"""``export RUN --format model-index``: each model's headline numbers as a model card.

One file per model, ``DIR/<model>.md``: a model-card README whose front matter holds a
``model-index`` block (the Hugging Face Hub's evaluation-results schema) with one result per
headline metric of each benchmark the run holds (:attr:`Suite.headline`): ``task.type``
``visual-question-answering``, ``dataset.type`` ``forgebench/<benchmark>`` (or the id given),
``metric.type`` the metrics.csv name, ``metric.value`` the metrics.csv value (a percentage for
rates, unrounded), ``metric.config`` ``PROBE/CONDITION/SUBSET`` (and ``@JUDGE`` for a number
that uses a judge's grades). The block is written by ``huggingface_hub``'s own ``ModelCardData``
(the ``modelcard`` extra), so the Hub reads back exactly these values. The front matter's
``forgebench`` key carries each benchmark's provenance.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from forgebench.errors import UserError
from forgebench.interop.extras import need
from forgebench.interop.headline import Headline
from forgebench.results.metrics_csv import METRICS_FILE, read_rows
from forgebench.util.atomic import write_text

TASK_TYPE = "visual-question-answering"


class ExportError(UserError):
    """A run that cannot be exported as asked (no metrics, no headline numbers)."""


def model_stem(model: str) -> str:
    """A file stem for a model name: ``/`` as ``--`` (the Hub's ``org--name``), every other
    character outside ``[A-Za-z0-9._-]`` as ``_``."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", model.replace("/", "--")).lstrip(".") or "model"


def headline_rows(
    rows: Sequence[Mapping[str, str]],
    benchmark: str,
    headline: Sequence[Headline],
    model: str,
    judge: str | None,
) -> list[Mapping[str, str]]:
    """The metrics.csv rows of ``model``'s headline numbers on ``benchmark``, in headline order
    (rows of every judge when ``judge`` is None; rows without a judge always)."""
    out = []
    for h in headline:
        for r in rows:
            if (
                r["benchmark"] == benchmark
                and r["model"] == model
                and h.matches(r)
                and r["value"] != ""
                and (judge is None or r["judge"] in ("", judge))
            ):
                out.append(r)
    return out


def write_model_index(
    run_dir: Path,
    out_dir: Path,
    headlines: Mapping[str, Sequence[Headline]],
    provenance: Mapping[str, Mapping[str, Any]],
    *,
    judge: str | None = None,
    dataset_id: str | None = None,
) -> list[Path]:
    """Write ``out_dir/<model>.md`` for every model with a headline number; the paths.

    ``headlines``: benchmark -> its headline metrics; ``provenance``: benchmark -> its record.
    """
    hub = need("huggingface_hub", "modelcard", "--format model-index")
    rows = read_rows(Path(run_dir) / METRICS_FILE)
    if not rows:
        raise ExportError(f"{run_dir}: no {METRICS_FILE} (run `forgebench metrics RUN` first)")
    models = sorted({r["model"] for r in rows if r["benchmark"] in headlines})
    written: list[Path] = []
    stems: dict[str, str] = {}
    for model in models:
        results = []
        used: dict[str, Any] = {}
        for benchmark, headline in headlines.items():
            picked = headline_rows(rows, benchmark, headline, model, judge)
            if picked:
                used[benchmark] = dict(provenance.get(benchmark, {}))
            for r in picked:
                config = f"{r['probe']}/{r['condition']}/{r['subset']}"
                results.append(
                    hub.EvalResult(
                        task_type=TASK_TYPE,
                        dataset_type=dataset_id or f"forgebench/{benchmark}",
                        dataset_name=f"forgebench {benchmark}",
                        dataset_split="test",
                        metric_type=r["metric"],
                        metric_value=float(r["value"]),
                        metric_name=f"{r['metric']} ({config})",
                        metric_config=config + (f"@{r['judge']}" if r["judge"] else ""),
                    )
                )
        if not results:
            continue
        stem = model_stem(model)
        if stem in stems:
            raise ExportError(f"models {stems[stem]!r} and {model!r} share the file name {stem}.md")
        stems[stem] = model
        data = hub.ModelCardData(model_name=model, eval_results=results, forgebench=used)
        body = (
            f"# {model}\n\nResults measured with forgebench on "
            + ", ".join(sorted(used))
            + ". The `model-index` block above holds the headline metrics; `forgebench` holds "
            "where they come from (run, dataset hash, prompt, parser and judge versions).\n"
        )
        path = Path(out_dir) / f"{stem}.md"
        write_text(path, f"---\n{data.to_yaml()}\n---\n\n{body}")
        written.append(path)
    if not written:
        raise ExportError(
            f"{run_dir}: {METRICS_FILE} holds no headline metric of "
            + ", ".join(sorted(headlines))
            + (f" with judge {judge!r}" if judge else "")
        )
    return written
