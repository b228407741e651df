"""Backend registry: a model spec's provider names the module that builds its :class:`Model`.

Each backend module exposes ``create(config: ModelConfig) -> Model`` and is imported only when a
spec names its provider, so optional extras (``anthropic``, ``google``, ``hf``) are needed only by
the runs that use them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from forgebench.models.base import Model, Request
from forgebench.util.registry import Registry, RegistryError

if TYPE_CHECKING:  # pydantic loads when a spec is parsed, not when a suite registers a provider
    from forgebench.models.spec import ModelConfig


ENTRY_POINTS = "forgebench.providers"
"""The entry-point group through which an installed package adds a provider: the entry's name
is the provider (``myapi``, or ``builtin/NAME``), its value the module exposing ``create``."""


def _is_backend(module: Any) -> bool:
    return callable(getattr(module, "create", None))


PROVIDERS: Registry[Any] = Registry("provider", check=_is_backend, group=ENTRY_POINTS)
"""Provider name -> its backend module (lazy: imported when a spec names it). An entry's
``meta["extra"]`` names the optional extra that installs its dependencies."""


def register_provider(name: str, module: str, extra: str | None = None) -> None:
    """Register a backend: ``name`` is a provider (``openai``) or ``builtin/NAME``.

    Adding a backend is one module plus this one call (or an entry point in group
    ``forgebench.providers``); suites register theirs (``builtin/rules`` is Mandela's) when they
    are loaded, so no module under ``models/`` imports a suite. Registering a name again
    replaces it (the last registration wins).
    """
    origin = "forgebench" if module.startswith("forgebench.") else "register"
    PROVIDERS.add(name, module, origin=origin, extra=extra)


def providers() -> list[str]:
    """Provider names a spec may use (``builtin`` once, for every ``builtin/NAME``)."""
    return sorted({n.split("/", 1)[0] for n in PROVIDERS.names()})


def builtins() -> list[str]:
    """Registered builtin model names (``artefact``, ``rules``, ...)."""
    return sorted(n.split("/", 1)[1] for n in PROVIDERS.names() if n.startswith("builtin/"))


for _name, _path, _extra in (
    ("openai", "forgebench.models.openai_compat", None),
    ("anthropic", "forgebench.models.anthropic", "anthropic"),
    ("google", "forgebench.models.google", "google"),
    ("hf", "forgebench.models.hf_local", "hf"),
    ("replay", "forgebench.models.replay", None),
    ("builtin/artefact", "forgebench.models.builtin.artefact", None),
):
    register_provider(_name, _path, _extra)


def _key(config: ModelConfig) -> str:
    # inside: light path (--help, version, status...: no spec parser) + circle: spec imports registry
    from forgebench.models.spec import SpecError

    spec = config.parsed
    if spec.provider == "builtin":
        key = f"builtin/{spec.model}"
        if key not in PROVIDERS:
            raise SpecError(f"unknown builtin model {spec.model!r}; known: {', '.join(builtins())}")
        return key
    if spec.provider not in PROVIDERS:
        raise SpecError(f"unknown provider {spec.provider!r}; known: {', '.join(providers())}")
    return spec.provider


def _module(config: ModelConfig) -> Any:
    """The backend module of ``config``; a missing optional extra is a one-line
    :class:`SpecError`."""
    # inside: light path (--help, version, status...: no spec parser) + circle: spec imports registry
    from forgebench.models.spec import SpecError

    key = _key(config)
    entry = PROVIDERS.entry(key)
    provider = config.parsed.provider
    module_name = str(entry.target) if not entry.resolved else ""
    try:
        return PROVIDERS.get(key)
    except RegistryError as exc:
        raise SpecError(f"model {config.name}: {exc}") from None
    except ImportError as exc:
        missing = getattr(exc, "name", None) or str(exc)
        if missing == module_name or (missing and missing.startswith("forgebench")):
            raise SpecError(f"provider {provider!r} is not available in this version") from None
        extra = entry.meta.get("extra")
        hint = f"; pip install 'forgebench[{extra}]'" if extra else ""
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
    choice_forms: Mapping[str, str] | None = field(default_factory=dict)
    """The constrained-answer forms it sends, each with the request field it sets, its default
    first (module attribute ``CHOICE_FORMS``; :mod:`forgebench.models.choice`); empty where it
    cannot constrain; None where it replays constrained answers and sends no form (module
    attribute ``CONSTRAINED_ANSWERS = True`` without ``CHOICE_FORMS``)."""

    @property
    def constrained_answers(self) -> bool:
        """Whether it can hold an answer to a few strings (``Request.choice``): a model without
        it is refused ``MCQ_CHOICE`` before anything is sent."""
        return self.choice_forms is None or bool(self.choice_forms)


def capabilities(config: ModelConfig) -> Capabilities:
    """The declared capabilities of ``config``'s backend."""
    return _capabilities(_module(config))


def _capabilities(module: Any) -> Capabilities:
    judges = getattr(module, "JUDGES_ONLY", None)
    forms = getattr(module, "CHOICE_FORMS", None)
    replays = forms is None and bool(getattr(module, "CONSTRAINED_ANSWERS", False))
    return Capabilities(
        reads_text=bool(getattr(module, "READS_TEXT", True)),
        judges=tuple(judges) if judges is not None else None,
        choice_forms=None if replays else dict(forms or {}),
    )


def constraining_providers() -> list[str]:
    """The registered providers whose backends can constrain an answer (what a refusal of
    ``MCQ_CHOICE`` names); a backend that cannot be imported here is left out."""
    out: list[str] = []
    for name in PROVIDERS.names():
        try:
            module = PROVIDERS.get(name)
        except (ImportError, RegistryError):
            continue
        if _capabilities(module).constrained_answers:
            out.append(name)
    return sorted(out)


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
