"""Model specs and per-model configuration (DESIGN.md "Model specs").

A spec is ``[ALIAS=]PROVIDER/MODEL[@BASE_URL]``: ``openai/gpt-5.6``,
``qwen8b=openai/Qwen3-VL-8B@http://127.0.0.1:8000/v1``, ``hf/PATH``, ``replay/FILE``,
``builtin/artefact``. The alias, else ``PROVIDER/MODEL`` (never the URL), is the model's name in
every output. Replicas of one model: ``...@URL1,URL2`` (or ``base_urls = [...]`` in a models file);
requests are balanced over them (``models/replicas.py``) and the URLs are never part of the name. A models file (TOML) lists many models with per-model options
(:class:`ModelConfig`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from forgebench.errors import UserError
from forgebench.models.checks import base_url_problem, local_path_problem
from forgebench.models.choice import ChoiceForm, form_problem
from forgebench.models.image_limits import ImageLimits, resolve
from forgebench.models.registry import capabilities, providers

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


def split_spec(
    text: str,
    known: list[str],
    *,
    what: str = "model spec",
    grammar: str = "[ALIAS=]PROVIDER/MODEL[@BASE_URL]",
    example: str = "qwen8b=openai/Qwen3-VL-8B@http://127.0.0.1:8000/v1",
) -> ModelSpec:
    """The one reader of the ``[ALIAS=]PROVIDER/NAME[@URL]`` grammar (model specs and editor
    specs): the parts, the provider checked against ``known``; no URL check."""
    m = _SPEC_RE.match(text.strip())
    if not m:
        raise SpecError(f"bad {what} {text!r}: expected {grammar}, e.g. {example}")
    provider = m.group("provider")
    if provider not in known:
        raise SpecError(
            f"bad {what} {text!r}: unknown provider {provider!r}; known: {', '.join(known)}"
        )
    return ModelSpec(
        provider=provider, model=m.group("model"), alias=m.group("alias"), base_url=m.group("url")
    )


def parse_spec(text: str) -> ModelSpec:
    """Parse a model spec, raising :class:`SpecError` with one clear line."""
    spec = split_spec(text, providers())
    url = spec.base_url
    if url is not None:
        urls = spec.base_urls
        if spec.provider == "builtin":
            # builtin models are offline: what follows @ is a local folder (builtin/verifier@KB)
            why = local_path_problem(url)
        elif "," in url:
            why = _replica_problem(spec.provider, urls)
        else:
            why = _url_problem(url)
        if why is not None:
            raise SpecError(f"bad model spec for {spec.alias or spec.model!r}: {why}")
    return spec


def _url_problem(url: str) -> str | None:
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


MAX_REPLY_BYTES = 64 * 1024 * 1024
"""The default most bytes of one model reply read (``max_reply_bytes``, ``--max-reply-bytes``);
editors stop at the same size (``--max-reply-mb``)."""


@dataclass(frozen=True)
class NumberRule:
    """The range of one numeric model setting (inclusive bounds)."""

    low: float
    high: float
    integer: bool = False
    unit: str = ""


NUMBER_RULES: dict[str, NumberRule] = {
    "concurrency": NumberRule(1, 2**63 - 1, integer=True),
    "rpm": NumberRule(0.001, 1e9),
    "timeout_s": NumberRule(0.001, 1e6, unit=" s"),
    "max_attempts": NumberRule(1, 1000, integer=True),
    "max_reply_bytes": NumberRule(1024, 2**40, integer=True, unit=" bytes"),
    "max_tokens": NumberRule(1, 10**9, integer=True),
    "temperature": NumberRule(0, 100),
    "seed": NumberRule(-(2**63), 2**63 - 1, integer=True),
    "price_in": NumberRule(0, 1e6),
    "price_out": NumberRule(0, 1e6),
    "price_image": NumberRule(0, 1e6),
    "images_per_call": NumberRule(0, 10**6, integer=True),
    "max_images": NumberRule(1, 10**6, integer=True),
    "max_side": NumberRule(16, 10**6, integer=True, unit=" px"),
    "max_pixels": NumberRule(256, 10**12, integer=True, unit=" px"),
    "max_image_bytes": NumberRule(1024, 2**40, integer=True, unit=" bytes"),
}
"""Every numeric setting of a model (a models file's key, a flag's value): finite, in range.
The one table both the models file (:class:`ModelConfig`) and the command line
(:func:`check_setting`) check against (``rpm`` below 0.001 would make a run wait forever,
``timeout_s = inf`` overflow a client's clock)."""


def number_problem(name: str, value: Any, rule: NumberRule | None = None) -> str | None:
    """Why ``value`` is not a valid ``name`` (:data:`NUMBER_RULES`, or ``rule`` for a number
    that is not a model's setting, e.g. ``--epochs``), None when it is (None, an omitted
    setting, is valid)."""
    rule = rule or NUMBER_RULES.get(name)
    if rule is None or value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"expected a number, not {type(value).__name__}"
    if isinstance(value, float) and not math.isfinite(value):
        return f"must be a finite number, not {value}"
    if rule.integer and value != int(value):
        return f"must be a whole number, not {value:g}"
    if not rule.low <= value <= rule.high:
        low, high = (_number(b, rule.integer) for b in (rule.low, rule.high))
        return f"must be between {low} and {high}{rule.unit}, not {_number(value, False)}"
    return None


def _number(value: float, integer: bool) -> str:
    return str(int(value)) if integer or isinstance(value, int) else f"{value:g}"


def check_setting(name: str, value: Any, where: str) -> None:
    """Refuse (:class:`SpecError`, one line naming ``where``: a flag or a file) a numeric
    setting outside :data:`NUMBER_RULES`."""
    why = number_problem(name, value)
    if why is not None:
        raise SpecError(f"{where}: {name} {why}")


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
    concurrency: int = 8
    """Requests in flight at once for this model."""
    rpm: float | None = None
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
    timeout_s: float = 120.0
    """Per-request timeout."""
    max_attempts: int = 6
    """Attempts per task before it is stored as an error."""
    price_in: float | None = None
    """USD per million input tokens, for cost estimates."""
    price_out: float | None = None
    """USD per million output tokens, for cost estimates."""
    price_image: float | None = None
    """USD per output image (image editors), for ``--dry-run`` and ``--max-cost``."""
    max_reply_bytes: int = MAX_REPLY_BYTES
    """The most bytes of one reply read (64 MiB); a longer reply is the task's error, not retried."""
    images_per_call: int = 1
    """Images one call is expected to return before any has (cost estimates with price_image)."""
    max_images: int | None = None
    """The most images this model takes in one question (None: no limit known; set 1 for a
    single-image model). A run that would ask it a question with more is refused before
    anything is sent (:meth:`check_images`); images are never dropped."""

    max_side: int | None = None
    """The most pixels of an image's longer side this model is sent (None: no limit; an image
    over it is sent resized, its own variant: ``run/fit.py``)."""
    max_pixels: int | None = None
    """The most pixels (width x height) of an image this model is sent (None: no limit)."""
    max_image_bytes: int | None = None
    """The most bytes of an image file this model is sent, before base64 (None: no limit)."""
    image_limits: Literal["openai", "anthropic", "google"] | None = None
    """A provider's published image limits (``models/image_limits.py``); ``max_side``,
    ``max_pixels`` and ``max_image_bytes`` given beside it override its values."""

    choice_form: ChoiceForm | None = None
    """How a constrained answer (``--protocol choice``) is asked, among the forms the provider
    sends (its ``CHOICE_FORMS``; None: its default): ``openai`` ``json_schema``
    (``response_format``; the default), ``structured_outputs`` (vLLM 0.10.2 on) or
    ``guided_choice`` (older vLLM); ``anthropic`` ``json_schema`` (``output_config.format``);
    ``google`` ``enum`` (``response_schema``). See :mod:`forgebench.models.choice`. A form the
    provider does not send is refused here. Not part of task keys."""

    @field_validator(*NUMBER_RULES, mode="after")
    @classmethod
    def _check_number(cls, value: Any, info: Any) -> Any:
        why = number_problem(info.field_name, value)
        if why is not None:
            raise ValueError(why)
        return value

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

    @field_validator("choice_form", mode="after")
    @classmethod
    def _check_choice_form(cls, form: str | None, info: Any) -> str | None:
        """Refuse a ``choice_form`` the provider does not send (imports its backend module, which
        declares its forms; nothing is built or sent)."""
        spec = info.data.get("spec")
        if form is None or not isinstance(spec, str):
            return form

        config = ModelConfig.model_construct(spec=spec)
        why = form_problem(form, config.parsed.provider, capabilities(config).choice_forms)
        if why is not None:
            raise ValueError(why)
        return form

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

    def limits(self) -> ImageLimits | None:
        """The image limits of this model (its preset and settings); None where none is set,
        so every image is sent as it is and no task key changes."""
        return resolve(
            self.image_limits,
            max_side=self.max_side,
            max_pixels=self.max_pixels,
            max_image_bytes=self.max_image_bytes,
        )

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
