"""Models files: many models with per-model settings in one TOML file.

::

    [[models]]
    spec = "qwen8b=openai/Qwen3-VL-8B@http://127.0.0.1:8000/v1"
    group = "open"
    concurrency = 32
    max_tokens = 512

    [[models]]
    spec = "openai/gpt-5.6"
    rpm = 500
    price_in = 1.25     # USD per million input tokens
    price_out = 10.0
    reasoning = { effort = "low" }
    image_limits = "openai"   # or max_side / max_pixels / max_image_bytes (models/image_limits.py)

Every table takes the fields of :class:`~forgebench.models.spec.ModelConfig`. TOML has no null:
``temperature = "omit"`` (likewise ``max_tokens``, ``seed``) leaves the field out of every request,
for APIs that refuse it. Unknown fields,
bad values, bad specs and two models with one name are refused with one line naming the file
and the model's index.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from pydantic import ValidationError

from forgebench.models.spec import ModelConfig, SpecError, parse_spec

OMITTABLE: frozenset[str] = frozenset({"temperature", "max_tokens", "seed"})
"""Fields that ``"omit"`` sets to None (not sent)."""


def load_models_file(path: Path | str) -> list[ModelConfig]:
    """Read a models file; raise :class:`SpecError` (one line: file, model index, problem)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SpecError(f"{path}: models file not found") from None
    except OSError as exc:
        raise SpecError(f"{path}: cannot read models file ({exc.strerror})") from None
    return parse_models_file(raw, path)


def parse_models_file(raw: bytes, path: Path | str) -> list[ModelConfig]:
    """The models of a models file's bytes ``raw``; :class:`SpecError` (one line naming ``path``,
    the model's index and the problem) on anything wrong."""
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SpecError(f"{path}: invalid TOML: {exc}") from None
    unknown = sorted(set(data) - {"models"})
    if unknown:
        raise SpecError(
            f"{path}: unknown top-level key(s) {', '.join(unknown)}; expected [[models]]"
        )
    tables = data.get("models")
    if not isinstance(tables, list) or not tables:
        raise SpecError(f"{path}: no [[models]] tables")
    out: list[ModelConfig] = []
    seen: dict[str, int] = {}
    for index, table in enumerate(tables):
        where = f"{path}: models[{index}]"
        if not isinstance(table, dict):
            raise SpecError(f"{where}: expected a table")
        spec = table.get("spec")
        if not isinstance(spec, str):
            raise SpecError(f"{where}: missing 'spec' (e.g. spec = \"openai/gpt-5.6\")")
        try:
            parse_spec(spec)
        except SpecError as exc:
            raise SpecError(f"{where}: {exc}") from None
        table = {
            k: (None if k in OMITTABLE and isinstance(v, str) and v.lower() == "omit" else v)
            for k, v in table.items()
        }
        try:
            config = ModelConfig.model_validate(table)
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = ".".join(str(p) for p in first["loc"]) or "-"
            msg = first["msg"].removeprefix("Value error, ")
            raise SpecError(f"{where}: {loc}: {msg}") from None
        if config.name in seen:
            raise SpecError(
                f"{where}: model name {config.name!r} is already used by models[{seen[config.name]}]"
                " (give one an alias: ALIAS=PROVIDER/MODEL)"
            )
        seen[config.name] = index
        out.append(config)
    return out
