"""Backend registry: a model spec's provider names the module that builds its :class:`Model`.

Each backend module exposes ``create(config: ModelConfig) -> Model`` and is imported only when a
spec names its provider, so optional extras (``anthropic``, ``google``, ``hf``) are needed only by
the runs that use them.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from forgebench.models.base import Model, Request

if TYPE_CHECKING:  # pydantic loads when a spec is parsed, not when a suite registers a provider
    from forgebench.models.spec import ModelConfig


@dataclass(frozen=True)
class Provider:
    """A registered backend: ``PROVIDER/...`` specs (or ``builtin/NAME``) build their model here."""

    name: str
    """The provider (``openai``) or, for builtins, ``builtin/NAME``."""
    module: str
    """Module exposing ``create(config: ModelConfig) -> Model``; imported only when used."""
    extra: str | None = None
    """The optional extra that installs its dependencies (named in the error when missing)."""


_REGISTRY: dict[str, Provider] = {}


def register_provider(name: str, module: str, extra: str | None = None) -> None:
    """Register a backend: ``name`` is a provider (``openai``) or ``builtin/NAME``.

    Adding a backend is one module plus this one call; suites register theirs (``builtin/rules``
    is Mandela's) when they are loaded, so no module under ``models/`` imports a suite.
    Registering a name again replaces it (the last registration wins).
    """
    _REGISTRY[name] = Provider(name, module, extra)


def providers() -> list[str]:
    """Provider names a spec may use (``builtin`` once, for every ``builtin/NAME``)."""
    return sorted({n.split("/", 1)[0] for n in _REGISTRY})


def builtins() -> list[str]:
    """Registered builtin model names (``artefact``, ``rules``, ...)."""
    return sorted(n.split("/", 1)[1] for n in _REGISTRY if n.startswith("builtin/"))


for _name, _path, _extra in (
    ("openai", "forgebench.models.openai_compat", None),
    ("anthropic", "forgebench.models.anthropic", "anthropic"),
    ("google", "forgebench.models.google", "google"),
    ("hf", "forgebench.models.hf_local", "hf"),
    ("replay", "forgebench.models.replay", None),
    ("builtin/artefact", "forgebench.models.builtin.artefact", None),
):
    register_provider(_name, _path, _extra)


def _lookup(config: ModelConfig) -> Provider:
    from forgebench.models.spec import SpecError

    spec = config.parsed
    if spec.provider == "builtin":
        entry = _REGISTRY.get(f"builtin/{spec.model}")
        if entry is None:
            raise SpecError(f"unknown builtin model {spec.model!r}; known: {', '.join(builtins())}")
        return entry
    entry = _REGISTRY.get(spec.provider)
    if entry is None:
        raise SpecError(f"unknown provider {spec.provider!r}; known: {', '.join(providers())}")
    return entry


def _module(config: ModelConfig) -> Any:
    """The backend module of ``config``; a missing optional extra is a one-line
    :class:`SpecError`."""
    from forgebench.models.spec import SpecError

    entry = _lookup(config)
    provider = config.parsed.provider
    try:
        return importlib.import_module(entry.module)
    except ImportError as exc:
        missing = getattr(exc, "name", None) or str(exc)
        if missing == entry.module or (missing and missing.startswith("forgebench")):
            raise SpecError(f"provider {provider!r} is not available in this version") from None
        hint = f"; pip install 'forgebench[{entry.extra}]'" if entry.extra else ""
        raise SpecError(
            f"model {config.name}: provider {provider!r} needs package {missing!r}{hint}"
        ) from None


def create_model(config: ModelConfig) -> Model:
    """Build the backend for ``config``; a missing optional extra is a one-line :class:`SpecError`."""
    model: Model = _module(config).create(config)
    return model


@dataclass(frozen=True)
class Capabilities:
    """What a backend can do, as its module declares it (``READS_TEXT``, ``JUDGES_ONLY``), read
    without building the model (nothing is sent, no client is opened)."""

    reads_text: bool = True
    """Whether the model reads the prompt's text (a pixel detector does not: it can be neither
    a judge nor an option extractor)."""
    judges: tuple[str, ...] | None = None
    """The benchmarks whose judge requests it understands (None: any; ``builtin/rules`` grades
    only Mandela's evidence ladder)."""
    constrained_answers: bool = False
    """Whether it can hold an answer to a few strings (``Request.choice``; module attribute
    ``CONSTRAINED_ANSWERS``): a model without it is refused ``MCQ_CHOICE`` before anything is
    sent."""


def capabilities(config: ModelConfig) -> Capabilities:
    """The declared capabilities of ``config``'s backend."""
    module = _module(config)
    judges = getattr(module, "JUDGES_ONLY", None)
    return Capabilities(
        reads_text=bool(getattr(module, "READS_TEXT", True)),
        judges=tuple(judges) if judges is not None else None,
        constrained_answers=bool(getattr(module, "CONSTRAINED_ANSWERS", False)),
    )


def describe_request(model: Model, request: Request) -> dict[str, Any]:
    """What is stored as a task's request: the exact parameters, each image as its variant id.

    Backends may define ``describe_request(request) -> dict`` (the OpenAI backend returns the
    request body with the data URL replaced by ``variant:<id>``); otherwise a generic record.
    """
    describe = getattr(model, "describe_request", None)
    if callable(describe):
        out: dict[str, Any] = describe(request)
        return out
    out = {
        "model": model.name,
        "prompt": request.prompt,
        "image": request.images[0].variant_id if request.images else None,
        "params": dict(request.params),
    }
    if len(request.images) > 1:
        out["images"] = [ref.variant_id for ref in request.images]
    return out
