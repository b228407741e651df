"""A stand-in for vLLM's ``python -m vllm.entrypoints.openai.run_batch`` (vLLM needs a CUDA torch
and cannot be installed here), for tests: it reads and writes the files the way run_batch does,
and sends each request to a loopback OpenAI-compatible server instead of an in-process engine.

What is reproduced from ``vllm/entrypoints/openai/run_batch.py`` (read with the search tool):

- input: the file is streamed line by line, each line stripped, empty lines skipped; each line is
  validated as ``BatchRequestInput`` (``custom_id``, ``method``, ``url`` strings and a ``body``);
  a line that does not validate stops the whole batch (run_batch raises);
- ``url`` ``/v1/chat/completions`` goes to the chat endpoint; any other URL gets an error output
  ("URL ... was used. Supported endpoints: ...");
- the body's ``model`` must be one of the served model names (``--served-model-name``, default
  ``--model``), else the engine answers an ``ErrorResponse`` with code 404;
- output: one ``BatchRequestOutput`` per input line, **in input order**:
  ``{"id": "vllm-<hex>", "custom_id", "response": {"status_code", "request_id", "body"}, "error"}``;
  a completion is ``status_code`` 200 with the ``ChatCompletionResponse`` as ``body`` and
  ``error`` null; an ``ErrorResponse`` is ``status_code`` = its code, ``body`` null and ``error``
  the ``{"error": {"message", "type", "param", "code"}}`` object; an exception is status 400
  with the message as ``error``.

Not reproduced: the engine itself (the loopback server answers instead), tokenisation and the
chat template, image decoding and ``--limit-mm-per-prompt``, Prometheus metrics, HTTP upload of
the output.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

CHAT_URL = "/v1/chat/completions"


class BatchInputLineError(ValueError):
    """A line that is not a ``BatchRequestInput`` (run_batch stops on it)."""


class BatchRequestInput(BaseModel):
    """One input line."""

    model_config = ConfigDict(extra="allow")

    custom_id: str
    method: str
    url: str
    body: dict[str, Any]


def _lines(path: Path) -> Iterator[str]:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if line:
                yield line


def _error_response(message: str, code: int, kind: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


def _output(custom_id: str, status: int, body: Any, error: Any) -> dict[str, Any]:
    return {
        "id": f"vllm-{uuid.uuid4().hex}",
        "custom_id": custom_id,
        "response": {
            "status_code": status,
            "request_id": f"vllm-batch-{uuid.uuid4().hex}",
            "body": body,
        },
        "error": error,
    }


def _serve_one(request: BatchRequestInput, server_url: str, served: set[str]) -> dict[str, Any]:
    if request.url != CHAT_URL:
        return _output(
            request.custom_id,
            400,
            None,
            f"URL {request.url} was used. Supported endpoints: /v1/chat/completions, "
            "/v1/embeddings, /score, /rerank.",
        )
    model = request.body.get("model")
    if model not in served:
        err = _error_response(f"The model `{model}` does not exist.", 404, "NotFoundError")
        return _output(request.custom_id, 404, None, err)
    data = json.dumps(request.body).encode("utf-8")
    req = urllib.request.Request(
        f"{server_url.rstrip('/')}/chat/completions",
        data=data,
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return _output(request.custom_id, 200, json.loads(resp.read()), None)
    except urllib.error.HTTPError as exc:
        try:
            message = json.loads(exc.read())["error"]["message"]
        except (ValueError, KeyError, TypeError):
            message = str(exc)
        err = _error_response(message, exc.code, "InternalServerError")
        return _output(request.custom_id, exc.code, None, err)
    except (OSError, ValueError) as exc:
        return _output(request.custom_id, 400, None, str(exc))


def run_batch(
    input_file: Path,
    output_file: Path,
    server_url: str,
    served_model_names: list[str],
    *,
    concurrency: int = 8,
) -> int:
    """Process ``input_file`` into ``output_file``; returns the number of lines written."""
    requests: list[BatchRequestInput] = []
    for n, line in enumerate(_lines(input_file), start=1):
        try:
            requests.append(BatchRequestInput.model_validate_json(line))
        except ValueError as exc:
            raise BatchInputLineError(f"{input_file}:{n}: {exc}") from None
    served = set(served_model_names)
    with ThreadPoolExecutor(concurrency) as pool:
        outputs = list(pool.map(lambda r: _serve_one(r, server_url, served), requests))
    with output_file.open("w", encoding="utf-8") as fh:
        for out in outputs:
            fh.write(json.dumps(out) + "\n")
    return len(outputs)
