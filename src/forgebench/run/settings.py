"""The resolved configuration of a run (``RUN/config.json``), with secrets removed.

Secrets never reach the run directory: keys come from the environment and are never part of a
configuration; on top of that, before anything is written, :func:`scrub` passes everything
through the one redaction step, :mod:`forgebench.util.redact` (credential-named fields, the
values of the key variables in use, auth headers, URL userinfo and credential query keys).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from forgebench.models.spec import ModelConfig
from forgebench.util.atomic import write_text
from forgebench.util.redact import redact, register_env

REDACTED = "***"
KEY_ENVS: tuple[str, ...] = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_API_KEY")


class RunSettings(BaseModel):
    """What one ``forgebench run`` invocation resolved to."""

    forgebench: str
    """forgebench version that ran."""
    benchmark: str
    """The benchmark (suite) of the dataset."""
    dataset: str
    """Absolute path of the dataset folder."""
    models: list[ModelConfig]
    """Every model's resolved settings (CLI overrides applied)."""
    probes: list[str] | None = None
    """``--probes`` (None: every probe of the protocol table)."""
    conditions: list[str] | None = None
    """``--conditions`` (None: every condition)."""
    parts: list[str] = Field(default_factory=list)
    """``--protocol``: opt-in protocol parts run besides the default."""
    limit: int | None = None
    """``--sample`` / ``--limit``: the suite's sample size (Mandela: the first N seeds)."""
    retry_errors: bool = False
    """Whether errored tasks were tried again."""
    max_cost: float | None = None
    """Spending cap in USD."""
    judge: str | None = None
    """``--judge`` spec."""
    epochs: int = 1
    """``--epochs``: how many times every question is asked."""
    cache_dir: str
    """The image-variant cache folder."""
    updated_at: float = Field(default_factory=time.time)
    """Unix time of this invocation."""


def _secret_values(configs: list[ModelConfig]) -> list[str]:
    names = [*KEY_ENVS, *sorted({c.api_key_env for c in configs if c.api_key_env})]
    return register_env(names)


def scrub(obj: Any, secrets: list[str] | None = None) -> Any:
    """``obj`` (JSON-like) with credentials replaced by ``***`` (:func:`forgebench.util.redact.redact`:
    credential-named fields, known key values, auth headers, URL userinfo and query keys)."""
    return redact(obj, secrets if secrets is not None else _secret_values([]))


def write_settings(run_dir: Path, settings: RunSettings) -> Path:
    """Write ``RUN/config.json`` atomically, secrets removed."""
    data = scrub(settings.model_dump(mode="json"), _secret_values(settings.models))
    path = run_dir / "config.json"
    write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return path


def secret_values(configs: list[ModelConfig]) -> list[str]:
    """The values of the key environment variables these models use (to scrub them)."""
    return _secret_values(configs)
