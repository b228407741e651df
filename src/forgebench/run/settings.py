"""The resolved configuration of a run (``RUN/config.json``), with secrets removed.

Secrets never reach the run directory: keys come from the environment and are never part of a
configuration; on top of that, before anything is written, :func:`scrub` replaces the value of
every field whose name looks like a credential (``api_key``, ``authorization``, ``password``,
``secret``, ``access_token``, ...), user:password parts of URLs, and any string equal to the
value of a key environment variable in use.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from forgebench.models.spec import ModelConfig
from forgebench.util.atomic import write_text

REDACTED = "***"
KEY_ENVS: tuple[str, ...] = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_API_KEY")
_SECRET_NAME = re.compile(
    r"(api[_-]?key|apikey|secret|password|passwd|authorization|bearer|access[_-]?token|"
    r"refresh[_-]?token|auth[_-]?token|credential)",
    re.IGNORECASE,
)
_URL_USERINFO = re.compile(r"(?P<scheme>[a-z][a-z0-9+.\-]*://)[^/@\s]+@", re.IGNORECASE)


class RunSettings(BaseModel):
    """What one ``forgebench run`` invocation resolved to."""

    forgebench: str
    """forgebench version that ran."""
    benchmark: str = "mandela"
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
    cache_dir: str
    """The image-variant cache folder."""
    updated_at: float = Field(default_factory=time.time)
    """Unix time of this invocation."""


def _secret_values(configs: list[ModelConfig]) -> list[str]:
    names = set(KEY_ENVS) | {c.api_key_env for c in configs if c.api_key_env}
    return [v for n in names if (v := os.environ.get(n)) and len(v) >= 4]


def scrub(obj: Any, secrets: list[str] | None = None) -> Any:
    """``obj`` (JSON-like) with credentials replaced by ``***``."""
    values = secrets if secrets is not None else _secret_values([])
    if isinstance(obj, dict):
        return {
            k: (
                REDACTED if _SECRET_NAME.search(str(k)) and k != "api_key_env" else scrub(v, values)
            )
            for k, v in obj.items()
        }
    if isinstance(obj, list | tuple):
        return [scrub(v, values) for v in obj]
    if isinstance(obj, str):
        out = _URL_USERINFO.sub(lambda m: f"{m.group('scheme')}{REDACTED}@", obj)
        for secret in values:
            out = out.replace(secret, REDACTED)
        return out
    return obj


def write_settings(run_dir: Path, settings: RunSettings) -> Path:
    """Write ``RUN/config.json`` atomically, secrets removed."""
    data = scrub(settings.model_dump(mode="json"), _secret_values(settings.models))
    path = run_dir / "config.json"
    write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return path


def secret_values(configs: list[ModelConfig]) -> list[str]:
    """The values of the key environment variables these models use (to scrub them)."""
    return _secret_values(configs)
