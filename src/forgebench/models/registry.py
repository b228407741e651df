"""Backend registry: a model spec's provider names the module that builds its :class:`Model`.

Each backend module exposes ``create(config: ModelConfig) -> Model`` and is imported only when a
spec names its provider, so optional extras (``anthropic``, ``google``, ``hf``) are needed only by
the runs that use them.
"""

from __future__ import annotations

import importlib
from typing import Any

from forgebench.models.base import Model, Request
from forgebench.models.spec import ModelConfig, SpecError

BACKENDS: dict[str, str] = {
    "openai": "forgebench.models.openai_compat",
    "anthropic": "forgebench.models.anthropic",
    "google": "forgebench.models.google",
    "hf": "forgebench.models.hf_local",
    "replay": "forgebench.models.replay",
    "builtin": "forgebench.models.builtin",
}
"""Provider -> module exposing ``create(config) -> Model``."""

EXTRAS: dict[str, str] = {"anthropic": "anthropic", "google": "google", "hf": "hf"}
"""Provider -> the optional extra that installs its dependencies."""


def create_model(config: ModelConfig) -> Model:
    """Build the backend for ``config``; a missing optional extra is a one-line :class:`SpecError`."""
    provider = config.parsed.provider
    module_name = BACKENDS.get(provider)
    if module_name is None:
        raise SpecError(f"unknown provider {provider!r}; known: {', '.join(BACKENDS)}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        missing = getattr(exc, "name", None) or str(exc)
        if missing == module_name or (missing and missing.startswith("forgebench")):
            raise SpecError(f"provider {provider!r} is not available in this version") from None
        extra = EXTRAS.get(provider)
        hint = f"; pip install 'forgebench[{extra}]'" if extra else ""
        raise SpecError(
            f"model {config.name}: provider {provider!r} needs package {missing!r}{hint}"
        ) from None
    model: Model = module.create(config)
    return model


def describe_request(model: Model, request: Request) -> dict[str, Any]:
    """What is stored as a task's request: the exact parameters, the image as its variant id.

    Backends may define ``describe_request(request) -> dict`` (the OpenAI backend returns the
    request body with the data URL replaced by ``variant:<id>``); otherwise a generic record.
    """
    describe = getattr(model, "describe_request", None)
    if callable(describe):
        out: dict[str, Any] = describe(request)
        return out
    return {
        "model": model.name,
        "prompt": request.prompt,
        "image": request.image.variant_id if request.image else None,
        "params": dict(request.params),
    }
