"""Run ``export-batch`` shards through Ray Data's LLM processors (``ray.data.llm``), then
``import-batch`` the result.

:func:`ray_batch` reads the shards (OpenAI batch JSONL) with ``ray.data.read_text``, sends every
request body to an OpenAI-compatible endpoint with ``HttpRequestProcessorConfig`` +
``build_processor`` (vLLM or SGLang servers, one or many behind a load balancer, or a hosted API),
and writes the results in the batch *output* format that ``forgebench import-batch`` reads. Ray
workers only send requests; the driver alone writes the output file, and the run store is
written by ``import-batch`` (one SQLite writer). On GPUs the same shards can go through
``vLLMEngineProcessorConfig`` instead (README "Scaling out"; not run here: vLLM needs CUDA).

Two things the recipe takes care of:

- Ray Data keeps rows as Arrow tables, and Arrow merges the two kinds of content part of a
  message into one struct type, adding ``"text": null`` to image parts and ``"image_url": null``
  to text parts. :class:`NullFreeSession` (the processor's ``session_factory``) drops null values
  from the JSON body before sending it; forgebench's request bodies never contain nulls
  (``openai_body.build_body`` leaves unset parameters out), so the body sent is the exported
  one, byte for byte in content;
- the HTTP stage gives the reply JSON but not its status: a reply with ``choices`` is a 200, any
  other reply is written as an error line (stored as the task's error by ``import-batch``).

``ray`` is the optional extra ``forgebench[ray]``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiohttp

from forgebench.run.batch import BatchError, batch_lines
from forgebench.run.executor import quiet_ray_data
from forgebench.util.atomic import atomic_open


def _drop_nulls(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _drop_nulls(v) for k, v in obj.items() if v is not None}
    if isinstance(obj, list):
        return [_drop_nulls(v) for v in obj]
    return obj


class NullFreeSession:
    """What the HTTP stage needs of an ``aiohttp`` session (``async with``, ``post``), with the
    nulls Arrow added dropped from JSON request bodies."""

    def __init__(self) -> None:
        self._session = aiohttp.ClientSession()

    async def __aenter__(self) -> NullFreeSession:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._session.close()

    def post(self, url: str, **kwargs: Any) -> Any:
        """``ClientSession.post`` of the cleaned body."""
        data = kwargs.get("data")
        if isinstance(data, str | bytes):
            try:
                body = json.loads(data)
            except ValueError:
                body = None
            if isinstance(body, dict):
                kwargs["data"] = json.dumps(_drop_nulls(body), ensure_ascii=False)
        return self._session.post(url, **kwargs)


def _preprocess(row: dict[str, Any]) -> dict[str, Any]:
    line = json.loads(row["text"])
    return {"custom_id": line["custom_id"], "payload": line["body"]}


def _postprocess(row: dict[str, Any]) -> dict[str, Any]:
    reply = row.get("http_response")
    if isinstance(reply, dict) and reply.get("choices"):
        out = {"response": {"status_code": 200, "body": _drop_nulls(reply)}, "error": None}
    else:
        err = reply.get("error") if isinstance(reply, dict) else None
        message = err.get("message") if isinstance(err, dict) else None
        text = message or json.dumps(reply, default=str)[:300]
        out = {"response": None, "error": {"code": "http", "message": text}}
    return {"line": json.dumps({"custom_id": row["custom_id"], **out}, ensure_ascii=False)}


def ray_batch(
    shards: Sequence[Path],
    url: str,
    output: Path,
    *,
    concurrency: int = 1,
    batch_size: int = 64,
    qps: int | None = None,
    max_retries: int = 3,
    headers: dict[str, str] | None = None,
) -> int:
    """Send every request of ``shards`` to ``url`` (``.../v1/chat/completions``) through Ray
    Data; write the results to ``output`` (batch output JSONL); returns the number of lines.

    ``concurrency`` is the number of Ray workers sending requests; ``batch_size`` rows each
    worker sends at once. Uses the running Ray (``RAY_ADDRESS``) or starts a local one.
    """
    check_shards(shards)  # a bad line is one error here, not a worker's traceback
    import ray
    from ray.data.llm import HttpRequestProcessorConfig, build_processor

    if not ray.is_initialized():
        ray.init(include_dashboard=False, log_to_driver=False)
    quiet_ray_data()
    config = HttpRequestProcessorConfig(
        url=url,
        headers=headers,
        concurrency=concurrency,
        batch_size=batch_size,
        qps=qps,
        max_retries=max_retries,
        session_factory=NullFreeSession,
    )
    processor = build_processor(config, preprocess=_preprocess, postprocess=_postprocess)
    ds = processor(ray.data.read_text([str(p) for p in shards]))
    n = 0
    with atomic_open(output, "w", encoding="utf-8") as fh:
        for row in ds.iter_rows():
            fh.write(row["line"] + "\n")
            n += 1
    return n


def check_shards(shards: Sequence[Path]) -> int:
    """Every non-empty line of every shard is a request line of ``export-batch`` (a JSON object
    with a string ``custom_id`` and an object ``body``); :class:`~forgebench.run.batch.BatchError`
    naming the first that is not. Returns the number of requests."""
    n = 0
    for path in shards:
        for lineno, obj in batch_lines(path, "no custom_id (not an export-batch line)"):
            if not isinstance(obj.get("body"), dict):
                raise BatchError(f"{path}:{lineno}: no request body (not an export-batch line)")
            n += 1
    return n
