"""The ``export`` formats that write other tools' files, registered lazily in the export registry
(:mod:`forgebench.exports` names the objects below, so this module is imported only when one is
asked for or the formats are listed): ``inspect`` (Inspect logs), ``model-index`` (model cards) and
``vlmevalkit`` (VLMEvalKit prediction files, a suite's own format: Forensics').

Each takes the registry's request (the run, ``--out`` as a folder, the run's suites, the judge and
the format's options: ``dataset_id``, ``tsv``) and hands the writers of this package what they
need of each benchmark as plain data (:class:`.run_formats.Benchmark`), so nothing here imports a
suite.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from forgebench.errors import UserError
from forgebench.exports import Exported, ExportFormat, ExportRequest, export_facet
from forgebench.interop.inspect_log import write_inspect_logs
from forgebench.interop.run_formats import Benchmark, RunExport, write_model_index_all


def _request(req: ExportRequest, fmt: str) -> RunExport:
    if req.out is None:
        raise UserError(f"--format {fmt}: give --out DIR (the folder to write)")
    suites: list[Any] = list(req.suites)
    infos = {
        s.name: Benchmark(s.name, s.title, s.headline, e.target, e.reading_scores)
        for s in suites
        for e in [export_facet(s)]
    }
    options = req.options
    return RunExport(
        req.run_dir,
        Path(req.out),
        infos,
        req.judge,
        options.get("dataset_id") or None,
        str(options.get("tsv", "")).lower() in ("1", "true", "yes"),
    )


def _inspect(req: ExportRequest) -> Exported:
    request = _request(req, "inspect")
    done = Exported()
    for name in request.benchmarks:
        done.files += write_inspect_logs(request, name)
    return done


def _model_index(req: ExportRequest) -> Exported:
    return Exported(files=write_model_index_all(_request(req, "model-index")))


def _suite_format(fmt: str) -> Any:
    def write(req: ExportRequest) -> Exported:
        request = _request(req, fmt)
        done = Exported()
        for suite in req.suites:
            writer = export_facet(suite).run_formats().get(fmt)
            if writer is None:
                done.skipped.append(f"{suite.name}: no {fmt} format; skipped")
                continue
            done.files += writer(request, suite.name)
        done.notes += request.notes
        return done

    return write


INSPECT = ExportFormat("inspect", _inspect, "Inspect logs, one per model x benchmark x 5,000 tasks")
MODEL_INDEX = ExportFormat(
    "model-index", _model_index, "per model a model card of the headline metrics"
)
VLMEVALKIT = ExportFormat(
    "vlmevalkit", _suite_format("vlmevalkit"), "VLMEvalKit prediction files (Forensics)"
)
