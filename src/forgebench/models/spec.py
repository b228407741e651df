"""Model specs and per-model configuration (DESIGN.md "Model specs").

A spec is ``[ALIAS=]PROVIDER/MODEL[@BASE_URL]``: ``openai/gpt-5.6``,
``qwen8b=openai/Qwen3-VL-8B@http://127.0.0.1:8000/v1``, ``hf/PATH``, ``replay/FILE``,
``builtin/artefact``. The alias, else ``PROVIDER/MODEL`` (never the URL), is the model's name in
every output. Replicas of one model: ``...@URL1,URL2`` (or ``base_urls = [...]`` in a models file);
requests are balanced over them (``models/replicas.py``) and the URLs are never part of the name. A models file (TOML) lists many models with per-model options
(:class:`ModelConfig`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from forgebench.errors import UserError

_SPEC_RE = re.compile(
    r"^(?:(?P<alias>[A-Za-z0-9_.\-]+)=)?(?P<provider>[a-z]+)/(?P<model>[^@]+?)(?:@(?P<url>\S+))?$"
)


class SpecError(UserError, ValueError):
    """A model spec or models file a user wrote wrong; the message is one clear line."""


class ModelSpec(BaseModel):
    """A parsed ``[ALIAS=]PROVIDER/MODEL[@BASE_URL]``."""

    model_config = ConfigDict(frozen=True)

    provider: str
    """A registered provider (``models.registry.providers()``)."""
    model: str
    """Provider-specific model id, path or file."""
    alias: str | None = None
    """Name in every output, when given."""
    base_url: str | None = None
    """Server URL (OpenAI-compatible servers); never part of the name."""

    @property
    def name(self) -> str:
        """The model's name in every output."""
        return self.alias or f"{self.provider}/{self.model}"

    @property
    def base_urls(self) -> list[str]:
        """The replicas' URLs (``@URL1,URL2``); empty when the spec names none."""
        return [u for u in (self.base_url or "").split(",") if u]

    def __str__(self) -> str:
        s = f"{self.provider}/{self.model}"
        if self.alias:
            s = f"{self.alias}={s}"
        return s + (f"@{self.base_url}" if self.base_url else "")


def parse_spec(text: str) -> ModelSpec:
    """Parse a model spec, raising :class:`SpecError` with one clear line."""
    m = _SPEC_RE.match(text.strip())
    if not m:
        raise SpecError(
            f"bad model spec {text!r}: expected [ALIAS=]PROVIDER/MODEL[@BASE_URL], "
            "e.g. qwen8b=openai/Qwen3-VL-8B@http://127.0.0.1:8000/v1"
        )
    provider = m.group("provider")
    from forgebench.models.registry import providers

    known = providers()
    if provider not in known:
        raise SpecError(
            f"bad model spec {text!r}: unknown provider {provider!r}; known: {', '.join(known)}"
        )
    url = m.group("url")
    spec = ModelSpec(
        provider=provider, model=m.group("model"), alias=m.group("alias"), base_url=url
    )
    if url is not None:
        urls = spec.base_urls
        if spec.provider == "builtin":
            # builtin models are offline: what follows @ is a local folder (builtin/verifier@KB)
            from forgebench.models.checks import local_path_problem

            why = local_path_problem(url)
        elif "," in url:
            why = _replica_problem(spec.provider, urls)
        else:
            why = _url_problem(url)
        if why is not None:
            raise SpecError(f"bad model spec for {m.group('alias') or m.group('model')!r}: {why}")
    return spec


def _url_problem(url: str) -> str | None:
    from forgebench.models.checks import base_url_problem

    return base_url_problem(url)


def _replica_problem(provider: str, urls: list[str]) -> str | None:
    """Why a list of replica URLs is unusable (None when it is fine)."""
    if provider != "openai":
        return f"several base URLs need an openai/... model, not {provider}/..."
    if not urls:
        return "the list of base URLs is empty"
    for u in urls:
        why = _url_problem(u)
        if why is not None:
            return why
    if len(set(urls)) != len(urls):
        return "a base URL is listed twice"
    return None


class ModelConfig(BaseModel):
    """One model's settings (a ``[[models]]`` table of a models file, or defaults for ``--model``)."""

    model_config = ConfigDict(extra="forbid")

    spec: str
    """The model spec ``[ALIAS=]PROVIDER/MODEL[@BASE_URL]``."""
    base_urls: list[str] | None = None
    """Replicas of an ``openai/...`` model (instead of ``@URL`` in the spec); requests go to the
    one with the fewest in flight. Never part of the model's name or its task keys."""
    group: str | None = None
    """``proprietary`` or ``open`` (table grouping in the report)."""
    concurrency: int = Field(default=8, ge=1)
    """Requests in flight at once for this model."""
    rpm: float | None = Field(default=None, gt=0)
    """Requests per minute (None: unlimited)."""
    temperature: float | None = 0.0
    """Sampling temperature; 0 by default, None to omit it for APIs that refuse it."""
    max_tokens: int | None = 1024
    """Completion token cap."""
    seed: int | None = None
    """Sampling seed, where the server supports one."""
    reasoning: dict[str, Any] | None = None
    """Reasoning/thinking options passed through (e.g. ``{effort = "low"}``)."""
    extra_body: dict[str, Any] = Field(default_factory=dict)
    """Extra request-body fields, merged into every request."""
    api_key_env: str | None = None
    """Environment variable holding the key (default per provider); the key is never stored."""
    timeout_s: float = Field(default=120.0, gt=0)
    """Per-request timeout."""
    max_attempts: int = Field(default=6, ge=1)
    """Attempts per task before it is stored as an error."""
    price_in: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    """USD per million input tokens, for cost estimates."""
    price_out: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    """USD per million output tokens, for cost estimates."""
    price_image: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    """USD per output image (image editors), for ``--dry-run`` and ``--max-cost``."""
    images_per_call: int = Field(default=1, ge=0)
    """Images one call is expected to return before any has (cost estimates with price_image)."""
    max_images: int | None = Field(default=None, ge=1)
    """The most images this model takes in one question (None: no limit known; set 1 for a
    single-image model). A run that would ask it a question with more is refused before
    anything is sent (:meth:`check_images`); images are never dropped."""

    choice_form: Literal["json_schema", "structured_outputs", "guided_choice"] | None = None
    """How a constrained answer (``--protocol choice``) is asked of an OpenAI-compatible server:
    ``json_schema`` (``response_format``; the default), ``structured_outputs`` (vLLM 0.10.2 on) or
    ``guided_choice`` (older vLLM); see :mod:`forgebench.models.choice`. Not part of task keys."""

    @model_validator(mode="after")
    def _check_base_urls(self) -> ModelConfig:
        if self.base_urls is None:
            return self
        spec = parse_spec(self.spec)
        if spec.base_url:
            raise ValueError("give the URLs either in the spec (@URL1,URL2) or in base_urls")
        problem = _replica_problem(spec.provider, self.base_urls)
        if problem:
            raise ValueError(problem)
        return self

    @property
    def parsed(self) -> ModelSpec:
        """The parsed spec."""
        return parse_spec(self.spec)

    def replica_urls(self) -> list[str]:
        """The server URLs of this model (``base_urls``, else the spec's ``@URL1,URL2``)."""
        return list(self.base_urls) if self.base_urls else self.parsed.base_urls

    @property
    def name(self) -> str:
        """The model's name in every output."""
        return self.parsed.name

    def check_images(self, count: int, what: str) -> None:
        """Refuse (:class:`SpecError`, one line) a question of ``count`` images over
        :attr:`max_images`; ``what`` names the question."""
        if self.max_images is not None and count > self.max_images:
            s = "" if self.max_images == 1 else "s"
            raise SpecError(
                f"model {self.name} takes at most {self.max_images} image{s} per question "
                f"(max_images) but {what} shows {count}: leave that condition out for it"
            )

    def generation_params(self) -> dict[str, Any]:
        """The parameters that shape a request (and so enter the task key)."""
        out: dict[str, Any] = {}
        if self.temperature is not None:
            out["temperature"] = self.temperature
        if self.max_tokens is not None:
            out["max_tokens"] = self.max_tokens
        if self.seed is not None:
            out["seed"] = self.seed
        if self.reasoning:
            out["reasoning"] = self.reasoning
        if self.extra_body:
            out["extra_body"] = self.extra_body
        return out


def check_unique_names(configs: Iterable[ModelConfig]) -> None:
    """Refuse two models of one name (their answers would mix): :class:`SpecError`."""
    names = [c.name for c in configs]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise SpecError(
            f"two models are named {dupes[0]!r}; give one an alias (ALIAS=PROVIDER/MODEL)"
        )
