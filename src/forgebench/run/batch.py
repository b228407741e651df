"""Batch interop: pending tasks out as OpenAI Batch API JSONL, batch results back in.

**Export** (``forgebench export-batch RUN --model NAME FILE``): one line per pending task,
``{"custom_id": TASK_KEY, "method": "POST", "url": "/v1/chat/completions", "body": {...}}``, the
body exactly as the OpenAI backend would send it (image as a data URL). Files stay below
``max_bytes`` (default 190 MB, under OpenAI's 200 MB input limit) and ``max_lines`` (50,000
requests): the first part is ``FILE`` itself, further parts are ``STEM.part2.SUFFIX``,
``STEM.part3.SUFFIX``, ... next to it (``batch.jsonl``, ``batch.part2.jsonl``). Consumers: vLLM's
``python -m vllm.entrypoints.openai.run_batch``, Ray Data LLM pipelines, hosted batch APIs.

**Import** (``forgebench import-batch RUN FILE...``): lines in the batch *output* format,
``{"custom_id", "response": {"status_code", "body"}, "error"}``. Every file is read and checked
before anything is stored. A 200 with a chat completion is stored as an answer (same rules as a
live run: never a second answer for a key); a non-200 status, an ``error`` object or a body that
is not a chat completion is stored as an error (an ``error`` that is an OpenAI-style
``{"error": {...}}`` object, as vLLM's ``run_batch`` writes, is read too); unknown ``custom_id``
values are counted and skipped. Recipes that run the shards with vLLM's ``run_batch`` and with Ray
Data's LLM processors: README "Scaling out" and ``run/ray_batch.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forgebench.errors import UserError
from forgebench.models.base import ModelError, Request
from forgebench.models.openai_body import build_body, parse_completion, variant_urls
from forgebench.run.redaction import register_run_keys
from forgebench.run.store import Store, task_images
from forgebench.util.jsonl import JSONTooDeep, load_json_bounded
from forgebench.util.paths import InputFileError, read_input_text

DEFAULT_MAX_BYTES = 190_000_000
DEFAULT_MAX_LINES = 50_000
BATCH_URL = "/v1/chat/completions"


class BatchError(UserError):
    """A batch file or request that cannot be written or read; one clear line."""


def part_path(first: Path, n: int) -> Path:
    """The path of part ``n`` (1-based): ``FILE`` for 1, ``STEM.partN.SUFFIX`` after."""
    return first if n == 1 else first.with_name(f"{first.stem}.part{n}{first.suffix}")


def _model_id(store: Store, model: str) -> str:
    info = store.meta_get(f"model:{model}")
    if info is None:
        known = ", ".join(store.models()) or "none"
        raise BatchError(f"no model {model!r} in {store.run_dir} (models: {known})")
    ident = info["identity"]
    if ident["provider"] != "openai":
        raise BatchError(
            f"model {model!r} is {ident['provider']}/{ident['model']}: export-batch writes "
            "OpenAI chat-completions requests (openai/... models only)"
        )
    return str(ident["model"])


def _request_of(row: Any, with_image: bool) -> Request:
    images = task_images(row)
    if with_image:
        for ref in images:
            if not ref.path.is_file():
                raise BatchError(
                    f"task {row['key']}: image variant {ref.variant_id} is missing at {ref.path} "
                    "(cache cleaned? run the same `forgebench run ... --prepare` again)"
                )
    extra = json.loads(row["extra"] or "{}")
    return Request(
        prompt=row["prompt"], images=images, params=json.loads(row["params"]),
        choice=tuple(extra.get("choice") or ()),
    )  # fmt: skip


def export_batch(
    store: Store,
    model: str,
    first: Path,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_lines: int = DEFAULT_MAX_LINES,
    retry_errors: bool = False,
) -> tuple[list[Path], int]:
    """Write ``model``'s pending tasks; returns the files written and the number of requests."""
    model_id = _model_id(store, model)
    keys = store.pending(model, retry_errors=retry_errors)
    written: list[Path] = []
    fh = None
    size = lines = total = 0
    try:
        for row in store.iter_task_rows(keys):
            body = build_body(model_id, _request_of(row, with_image=True))
            line = (
                json.dumps(
                    {"custom_id": row["key"], "method": "POST", "url": BATCH_URL, "body": body},
                    ensure_ascii=False,
                ).encode("utf-8")
                + b"\n"
            )
            if len(line) > max_bytes:
                raise BatchError(
                    f"task {row['key']}: request is {len(line):,} bytes, above --max-bytes "
                    f"{max_bytes:,}"
                )
            if fh is None or size + len(line) > max_bytes or lines >= max_lines:
                if fh is not None:
                    fh.close()
                path = part_path(first, len(written) + 1)
                written.append(path)
                fh = path.with_name(path.name + ".tmp").open("wb")
                size = lines = 0
            fh.write(line)
            size += len(line)
            lines += 1
            total += 1
        if fh is not None:
            fh.close()
            fh = None
        for path in written:
            path.with_name(path.name + ".tmp").replace(path)
    except BaseException:
        if fh is not None:
            fh.close()
        for path in written:
            path.with_name(path.name + ".tmp").unlink(missing_ok=True)
        raise
    return written, total


@dataclass
class ImportStats:
    """What :func:`import_batch` stored."""

    answers: int = 0
    errors: int = 0
    already_answered: int = 0
    """Results for keys that had an answer already (left untouched)."""
    unknown: int = 0
    """Results whose ``custom_id`` is no task of this run."""


def batch_lines(path: Path, no_id: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` of every non-empty line of a batch file (export-batch requests
    or batch results): a regular file of JSON objects, each with a string ``custom_id``.
    :class:`BatchError` names the file and line of the first that is not (``no_id`` says what a
    line without ``custom_id`` is not)."""
    try:
        text = read_input_text(path)
    except InputFileError as exc:
        raise BatchError(str(exc)) from None
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = load_json_bounded(line)
        except json.JSONDecodeError as exc:
            raise BatchError(f"{path}:{lineno}: invalid JSON ({exc.msg})") from None
        except JSONTooDeep as exc:
            raise BatchError(f"{path}:{lineno}: {exc}") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("custom_id"), str):
            raise BatchError(f"{path}:{lineno}: {no_id}")
        yield lineno, obj


def _read_results(files: list[Path]) -> list[dict[str, Any]]:
    return [
        obj for path in files for _n, obj in batch_lines(path, "not a batch result (no custom_id)")
    ]


def _outcome(obj: dict[str, Any]) -> tuple[Any, str | None, int | None]:
    """``(response, error reason, status)`` of one batch result line."""
    error = obj.get("error")
    response = obj.get("response") if isinstance(obj.get("response"), dict) else None
    status = response.get("status_code") if response else None
    if error:
        if isinstance(error, dict):
            if isinstance(error.get("error"), dict):  # an ErrorResponse (vLLM run_batch)
                error = error["error"]
            reason = f"{error.get('code') or 'batch error'}: {error.get('message') or ''}".strip()
        else:
            reason = str(error)
        return None, f"batch: {reason}", status if isinstance(status, int) else None
    if response is None:
        return None, "batch: result has neither response nor error", None
    body = response.get("body")
    if status != 200:
        err = body.get("error") if isinstance(body, dict) else None
        msg = err.get("message") if isinstance(err, dict) else err
        status = status if isinstance(status, int) else None
        return None, f"batch: HTTP {status}: {str(msg)[:500] if msg else 'no message'}", status
    try:
        return parse_completion(body), None, None
    except ModelError as exc:
        return None, f"batch: {exc}", None


def import_batch(store: Store, files: list[Path]) -> ImportStats:
    """Store batch results (answers and errors) under the resume rules."""
    results = _read_results(files)
    register_run_keys(store)  # what is stored passes the keys' redaction (store.put_answer)
    stats = ImportStats()
    model_ids: dict[str, str] = {}
    for obj in results:
        key = obj["custom_id"]
        row = store.task_row(key)
        if row is None:
            stats.unknown += 1
            continue
        response, reason, status = _outcome(obj)
        if response is None:
            if store.put_error(key, reason or "batch: failed", status, 1):
                stats.errors += 1
            else:
                stats.already_answered += 1
            continue
        model = row["model"]
        if model not in model_ids:
            model_ids[model] = _model_id(store, model)
        request = _request_of(row, with_image=False)
        described = build_body(model_ids[model], request, image_urls=variant_urls(request))
        if store.put_answer(key, response, 1, None, described):
            stats.answers += 1
        else:
            stats.already_answered += 1
    return stats
