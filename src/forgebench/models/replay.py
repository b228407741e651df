"""``replay/FILE``: answers produced elsewhere, read from a JSONL or CSV file.

Each row is one answer: ``text`` plus either ``task_key`` or (``item_id``, ``probe``,
``condition``), optionally ``model``, ``finish_reason``, ``input_tokens``, ``output_tokens``;
other columns are ignored. A request is answered by its ``task_key`` first, then by
(``item_id``, ``probe``, ``condition``) from ``request.meta``. A task without a row is a
non-retryable :class:`ModelError` (stored as an error, never an invented answer).

Choices where the issue is silent: when rows name more than one ``model``, the replay model keeps
the rows whose ``model`` equals its own name (so ``gpt4o=replay/all.jsonl`` replays ``gpt4o``'s
rows) and refuses the file if none match; when they name one model, or none, every row is used.
An empty ``text`` is a valid (empty) answer. The whole file is checked at :func:`create`: a
missing file, a bad JSON line, a missing ``text`` column, a row without a key or two rows for one
key is a :class:`SpecError` naming the file and line.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from forgebench.models.base import Model, ModelError, Request, Response, Usage
from forgebench.models.spec import ModelConfig, SpecError
from forgebench.util.jsonl import JSONTooDeep, load_json_bounded

CONSTRAINED_ANSWERS = True
"""It replays constrained answers (``MCQ_CHOICE``) as they were recorded."""
FORMATS: dict[str, str] = {".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".csv": "csv"}
"""File suffix -> format."""


class ReplayRow(BaseModel):
    """One stored answer of a replay file."""

    model_config = ConfigDict(extra="ignore", protected_namespaces=())

    text: str
    """What the model said."""
    task_key: str | None = None
    """The forgebench task key the answer belongs to (preferred lookup)."""
    item_id: str | None = None
    """Dataset item id (with ``probe`` and ``condition``, the fallback lookup)."""
    probe: str | None = None
    """Probe id (``L0``, ``L1``, ...)."""
    condition: str | None = None
    """Condition id (``full``, ``crop``, ...)."""
    model: str | None = None
    """Which model answered (selects rows when the file holds several models)."""
    finish_reason: str | None = None
    """``stop``, ``length``, ``content_filter``, ``refusal``, ... as recorded."""
    input_tokens: int | None = None
    """Prompt tokens as recorded."""
    output_tokens: int | None = None
    """Completion tokens as recorded."""

    @field_validator(
        "task_key",
        "item_id",
        "probe",
        "condition",
        "model",
        "finish_reason",
        "input_tokens",
        "output_tokens",
        mode="before",
    )
    @classmethod
    def _blank_is_none(cls, v: Any) -> Any:
        return None if isinstance(v, str) and not v.strip() else v

    @property
    def triple(self) -> tuple[str, str, str] | None:
        """(item_id, probe, condition) when all three are given."""
        if self.item_id is None or self.probe is None or self.condition is None:
            return None
        return (self.item_id, self.probe, self.condition)


def _raw_rows(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """(line number, row) pairs of a JSONL or CSV file, or :class:`SpecError`."""
    kind = FORMATS.get(path.suffix.lower())
    if kind is None:
        raise SpecError(f"replay {path}: unknown format {path.suffix!r}; use .jsonl or .csv")
    if not path.is_file():
        raise SpecError(f"replay {path}: file not found")
    rows: list[tuple[int, dict[str, Any]]] = []
    try:
        with path.open(encoding="utf-8", newline="") as fh:
            if kind == "csv":
                reader = csv.DictReader(fh)
                if reader.fieldnames is None or "text" not in reader.fieldnames:
                    raise SpecError(f"replay {path}: no 'text' column in the CSV header")
                for row in reader:
                    rows.append((reader.line_num, dict(row)))
            else:
                for n, line in enumerate(fh, start=1):
                    if not line.strip():
                        continue
                    try:
                        obj = load_json_bounded(line)
                    except json.JSONDecodeError as exc:
                        raise SpecError(f"replay {path} line {n}: bad JSON ({exc.msg})") from exc
                    except JSONTooDeep as exc:
                        raise SpecError(f"replay {path} line {n}: {exc}") from None
                    if not isinstance(obj, dict):
                        raise SpecError(f"replay {path} line {n}: expected a JSON object")
                    rows.append((n, obj))
    except UnicodeDecodeError as exc:
        raise SpecError(f"replay {path}: not UTF-8 text ({exc.reason})") from exc
    except OSError as exc:
        raise SpecError(f"replay {path}: cannot read ({exc.strerror or exc})") from exc
    return rows


def _parse_row(path: Path, line: int, raw: dict[str, Any]) -> ReplayRow:
    if "text" not in raw or raw["text"] is None:
        raise SpecError(f"replay {path} line {line}: no 'text'")
    try:
        row = ReplayRow.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"])
        raise SpecError(f"replay {path} line {line}: bad {field!r} ({err['msg']})") from exc
    if row.task_key is None and row.triple is None:
        raise SpecError(
            f"replay {path} line {line}: needs task_key or item_id, probe and condition"
        )
    return row


class ReplayModel:
    """Answers looked up in a replay file (no network, no randomness)."""

    def __init__(self, name: str, path: Path, rows: list[tuple[int, ReplayRow]]) -> None:
        self.name = name
        self._path = path
        self._by_key: dict[str, tuple[int, ReplayRow]] = {}
        self._by_triple: dict[tuple[str, str, str], tuple[int, ReplayRow]] = {}
        self._count = len(rows)
        for line, row in rows:
            if row.task_key is not None:
                self._add(self._by_key, row.task_key, line, row, f"task_key {row.task_key}")
            if row.triple is not None:
                item, probe, cond = row.triple
                what = f"item {item} probe {probe} condition {cond}"
                self._add(self._by_triple, row.triple, line, row, what)

    def _add(
        self,
        index: dict[Any, tuple[int, ReplayRow]],
        key: Any,
        line: int,
        row: ReplayRow,
        what: str,
    ) -> None:
        if key in index:
            first = index[key][0]
            raise SpecError(
                f"replay {self._path} line {line}: second answer for {what} (first on line {first})"
            )
        index[key] = (line, row)

    def __len__(self) -> int:
        """The number of answers this model replays."""
        return self._count

    async def generate(self, request: Request) -> Response:
        """The stored answer for the request's task; non-retryable :class:`ModelError` if none."""
        meta = request.meta
        found = self._by_key.get(str(meta["task_key"])) if meta.get("task_key") else None
        triple = (str(meta.get("item_id")), str(meta.get("probe")), str(meta.get("condition")))
        if found is None:
            found = self._by_triple.get(triple)
        if found is None:
            raise ModelError(
                f"replay {self._path} has no answer for item {triple[0]} probe {triple[1]} "
                f"condition {triple[2]}",
                retryable=False,
                task_only=True,
            )
        line, row = found
        return Response(
            text=row.text,
            raw={"replay": str(self._path), "line": line, **row.model_dump(exclude_none=True)},
            usage=Usage(input_tokens=row.input_tokens, output_tokens=row.output_tokens),
            finish_reason=row.finish_reason,
        )

    async def aclose(self) -> None:
        """Nothing to release."""


def load(path: Path, name: str) -> ReplayModel:
    """Read and check a replay file for the model called ``name``."""
    rows = [(line, _parse_row(path, line, raw)) for line, raw in _raw_rows(path)]
    models = sorted({r.model for _, r in rows if r.model is not None})
    if len(models) > 1:
        rows = [(line, r) for line, r in rows if r.model == name]
        if not rows:
            raise SpecError(
                f"replay {path} holds answers of several models ({', '.join(models)}); "
                "choose one with ALIAS=replay/FILE"
            )
    return ReplayModel(name, path, rows)


def create(config: ModelConfig) -> Model:
    """The model a ``replay/FILE`` spec names (the file is read and checked now)."""
    return load(Path(config.parsed.model).expanduser(), config.name)
