"""Offline baselines selected by ``builtin/NAME``: ``artefact`` (a pixel-evidence detector) and
``rules`` (a deterministic evidence-ladder judge)."""

from __future__ import annotations

import importlib

from forgebench.models.base import Model
from forgebench.models.spec import ModelConfig, SpecError

BUILTINS: dict[str, str] = {
    "artefact": "forgebench.models.builtin.artefact",
    "rules": "forgebench.suites.mandela.rules_model",
}
"""Builtin name -> module exposing ``create(config: ModelConfig) -> Model``."""


def create(config: ModelConfig) -> Model:
    """The builtin model a ``builtin/NAME`` spec names."""
    name = config.parsed.model
    if name not in BUILTINS:
        raise SpecError(f"unknown builtin model {name!r}; known: {', '.join(BUILTINS)}")
    module = importlib.import_module(BUILTINS[name])
    model: Model = module.create(config)
    return model
