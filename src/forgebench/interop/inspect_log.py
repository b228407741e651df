"""``export RUN --format inspect``: a run as Inspect evaluation logs (``inspect view`` opens them).

Written with Inspect's own log types and writer (``inspect_ai.log.EvalLog`` and
``write_eval_log``; the ``inspect`` extra), never by imitating its file format. One log per
model x benchmark x shard of at most ``RunExport.shard_size`` tasks (Inspect's writer slows
sharply past about 5,000 samples), named as Inspect names its logs, ``<created>_<task>_<id>.eval``
(``created`` the shard's first answer time, ``task`` ``forgebench-<benchmark>``, ``id`` a digest
of run, benchmark, model and shard, so exporting again replaces the same files).

Each task is a sample: ``input`` the user message as sent (the prompt's text and its images),
``target`` the right answer where the benchmark has one (:attr:`Benchmark.target`), ``output``
the model's answer, ``scores`` the benchmark's reading: ``verdict`` (what the suite's parser
read, its details as the explanation and metadata), the detail's numbers the benchmark names
(:attr:`Benchmark.reading_scores`: PIXAR's per-pair ``iou`` and ``f1``), ``correct``
(``C``/``I`` against the target) and one score per stored judgement (``<kind>/<judge>``: the grade or extracted letter, with the
judge's reason as its explanation). A task that ended as an error carries the error; one still
pending has no output. Images are copied once into ``OUT/images/`` named by their SHA-256 and
referenced relatively (``images/<sha>.png``), so logs stay small and outlive ``cache clean``; a
variant whose bytes are gone is named in the sample's metadata instead.

The log's results hold the benchmark's headline metrics of that model (from metrics.csv; one
Inspect score per metric, its value as in metrics.csv); the model's other metrics.csv rows and
the export's provenance go into the log's metadata. Streaming: one shard of samples is the most
held; each log is written to a temporary file and renamed into place.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from forgebench.interop.extras import need
from forgebench.interop.provenance import provenance
from forgebench.interop.run_formats import Benchmark, RunExport
from forgebench.results.metrics_csv import METRICS_FILE, read_rows
from forgebench.run.export_source import (
    ExportJudgement,
    ExportTask,
    items_of,
    iter_tasks,
    judgements_of,
    models_of,
    run_facts,
)
from forgebench.run.store import Store
from forgebench.util.atomic import atomic_path

IMAGES = "images"
_SUFFIX = {"image/png": ".png", "image/jpeg": ".jpg", "image/webp": ".webp", "image/gif": ".gif"}


def _clean(component: str) -> str:
    """A file-name component as Inspect cleans one (``_``, ``/``, ``:`` and ``+`` as ``-``)."""
    for ch in "_/:+":
        component = component.replace(ch, "-")
    return component


def _shards(tasks: Iterator[ExportTask], size: int) -> Iterator[list[ExportTask]]:
    shard: list[ExportTask] = []
    for t in tasks:
        shard.append(t)
        if len(shard) >= size:
            yield shard
            shard = []
    if shard:
        yield shard


class _Images:
    """Copies each image variant once into ``OUT/images/<sha256><ext>``."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self.done: dict[str, str | None] = {}

    def rel(self, variant_id: str, path: Path, media_type: str) -> str | None:
        if variant_id in self.done:
            return self.done[variant_id]
        try:
            data = path.read_bytes()
        except OSError:
            self.done[variant_id] = None
            return None
        name = hashlib.sha256(data).hexdigest() + _SUFFIX.get(media_type, path.suffix or ".bin")
        target = self.out_dir / IMAGES / name
        if not target.is_file():
            with atomic_path(target) as tmp:
                tmp.write_bytes(data)
        self.done[variant_id] = f"{IMAGES}/{name}"
        return self.done[variant_id]


def _scores(
    ia: Any,
    task: ExportTask,
    target: str | None,
    judged: Sequence[ExportJudgement],
    numbers: Sequence[str] = (),
) -> dict[str, Any]:
    scores: dict[str, Any] = {}
    if task.verdict is not None:
        detail = task.verdict_detail
        for name in numbers:
            number = detail.get(name)
            if isinstance(number, int | float) and not isinstance(number, bool):
                scores[name] = ia.scorer.Score(value=number, answer=task.verdict)
        scores["verdict"] = ia.scorer.Score(
            value=task.verdict,
            answer=task.verdict,
            explanation=json.dumps(detail, ensure_ascii=False, sort_keys=True) if detail else None,
            metadata={"parser_version": task.parser_version, **detail},
        )
        if target is not None:
            scores["correct"] = ia.scorer.Score(
                value="C" if task.verdict == target else "I", answer=task.verdict
            )
    for j in judged:
        value: Any = j.level if j.level is not None else j.value
        scores[f"{j.kind}/{j.judge}"] = ia.scorer.Score(
            value=value if value is not None else j.status,
            answer=j.value,
            explanation=j.reason,
            metadata={"judge": j.judge, "status": j.status, "version": j.version},
        )
    return scores


def _sample(
    ia: Any,
    task: ExportTask,
    item: dict[str, Any],
    bench: Benchmark,
    judged: Sequence[ExportJudgement],
    images: _Images,
) -> Any:
    content: list[Any] = [ia.model.ContentText(text=task.prompt)]
    missing = []
    for ref in task.images:
        rel = images.rel(ref.variant_id, ref.path, ref.media_type)
        if rel is None:
            missing.append(ref.variant_id)
        else:
            content.append(ia.model.ContentImage(image=rel))
    user = ia.model.ChatMessageUser(content=content)
    target = bench.target(item, task.probe, task.extra)
    messages: list[Any] = [user]
    output = ia.model.ModelOutput(model=task.model)
    if task.text is not None:
        output = ia.model.ModelOutput.from_content(task.model, task.text)
        if task.input_tokens is not None or task.output_tokens is not None:
            i, o = task.input_tokens or 0, task.output_tokens or 0
            output.usage = ia.model.ModelUsage(input_tokens=i, output_tokens=o, total_tokens=i + o)
        messages.append(ia.model.ChatMessageAssistant(content=task.text, model=task.model))
    error = None
    if task.status == "error":
        error = ia.log.EvalError(message=task.error or "error", traceback="", traceback_ansi="")
    return ia.log.EvalSample(
        id=f"{task.item_id}/{task.probe}/{task.condition}",
        epoch=task.epoch,  # run --epochs: Inspect's sample epochs
        input=[user],
        target=target or "",
        messages=messages,
        output=output,
        scores=_scores(ia, task, target, judged, bench.reading_scores),
        error=error,
        total_time=task.latency_s,
        metadata={
            "task_key": task.key,
            "item_id": task.item_id,
            "probe": task.probe,
            "condition": task.condition,
            "status": task.status,
            "prompt_version": task.prompt_version,
            "finish_reason": task.finish_reason,
            "missing_images": missing,
        },
    )


def _results(ia: Any, rows: list[dict[str, str]], bench: Benchmark, n: int) -> tuple[Any, list]:
    headline = [r for h in bench.headline for r in rows if h.matches(r) and r["value"] != ""]
    other = [r for r in rows if not any(h.matches(r) for h in bench.headline)]
    scores = []
    for r in headline:
        name = f"{r['metric']}/{r['probe']}/{r['condition']}/{r['subset']}"
        scores.append(
            ia.log.EvalScore(
                name=name + (f"@{r['judge']}" if r["judge"] else ""),
                scorer="forgebench",
                scored_samples=int(float(r["n"])) if r["n"] else None,
                metrics={r["metric"]: ia.log.EvalMetric(name=r["metric"], value=float(r["value"]))},
                metadata={k: r[k] for k in ("probe", "condition", "subset", "judge")},
            )
        )
    results = ia.log.EvalResults(total_samples=n, completed_samples=n, scores=scores)
    return results, other


class _Inspect:
    """The modules of ``inspect_ai`` the writer uses."""

    def __init__(self) -> None:
        need("inspect_ai", "inspect", "--format inspect")
        import inspect_ai.log as log
        import inspect_ai.model as model
        import inspect_ai.scorer as scorer

        self.log, self.model, self.scorer = log, model, scorer


def write_inspect_logs(request: RunExport, benchmark: str) -> list[Path]:
    """Write ``benchmark``'s logs under ``request.out_dir``; the paths written."""
    ia = _Inspect()
    bench = request.benchmarks[benchmark]
    out_dir = Path(request.out_dir)
    images = _Images(out_dir)
    metrics = [
        r
        for r in read_rows(Path(request.run_dir) / METRICS_FILE)
        if r["benchmark"] == benchmark
        and (request.judge is None or r["judge"] in ("", request.judge))
    ]
    written: list[Path] = []
    with Store.open(request.run_dir, create=False) as store:
        facts = run_facts(store, benchmark)
        prov = provenance(facts, request.judge)
        for model in models_of(store, benchmark):
            rows = [r for r in metrics if r["model"] == model]
            for index, shard in enumerate(
                _shards(iter_tasks(store, benchmark, model, epochs=True), request.shard_size)
            ):
                items = items_of(store, benchmark, [t.item_id for t in shard])
                judged = judgements_of(store, [t.key for t in shard])
                samples = [
                    _sample(ia, t, items.get(t.item_id, {}), bench, judged.get(t.key, []), images)
                    for t in shard
                ]
                times = [t.created_at for t in shard if t.created_at is not None]
                created = datetime.fromtimestamp(min(times) if times else 0, UTC).isoformat()
                done = datetime.fromtimestamp(max(times) if times else 0, UTC).isoformat()
                ident = hashlib.sha256(
                    f"{facts.run_id}\0{benchmark}\0{model}\0{index}".encode()
                ).hexdigest()[:22]
                results, other = _results(ia, rows, bench, len(samples))
                spec = ia.log.EvalSpec(
                    created=created,
                    task=f"forgebench-{benchmark}",
                    task_id=ident,
                    run_id=facts.run_id,
                    eval_id=ident,
                    task_display_name=bench.title or benchmark,
                    dataset=ia.log.EvalDataset(
                        name=benchmark,
                        location=facts.dataset,
                        samples=len(samples),
                        sample_ids=list(dict.fromkeys(s.id for s in samples)),
                    ),
                    model=model,
                    config=ia.log.EvalConfig(epochs=max(t.epoch for t in shard)),
                    metadata={"forgebench": prov, "shard": index, "metrics": other},
                )
                log = ia.log.EvalLog(
                    status="success",
                    eval=spec,
                    results=results,
                    stats=ia.log.EvalStats(started_at=created, completed_at=done),
                    samples=samples,
                )
                name = f"{_clean(created)}_{_clean(spec.task)}_{_clean(ident)}.eval"
                path = out_dir / name
                path.parent.mkdir(parents=True, exist_ok=True)
                with atomic_path(path) as tmp:
                    ia.log.write_eval_log(log, str(tmp), format="eval")
                written.append(path)
    return written
