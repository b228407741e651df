"""``forgebench validate`` for a Forensics dataset folder: every problem, one line each.

Lines read ``FILE:LINE: FIELD: message`` (``items.jsonl:17: type: 'XX' is not one of ...``), in
the style of the Mandela validator; nothing is written. Errors: a line that is not a JSON
object; a field missing, of the wrong type or outside Table 5's abbreviations; options that are
not ``A``, ``B``, ... without gaps, or empty; an answer that is not an option; a ``type_code`` or
``category`` that disagrees with the five perspective fields; a duplicate ``id``; an image path
that is absolute or leaves the folder, is missing, or does not decode. Warnings (exit code
unchanged): a ``resolution`` that differs from the first image's size; a video item whose
``frames`` count differs from its image count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from forgebench.suites.forensics.contract import ITEMS_FILE, ForensicsItem
from forgebench.util.images import ImageCheckError, inspect_image
from forgebench.util.jsonl import iter_jsonl
from forgebench.util.paths import outside_reason
from forgebench.util.problems import Problem


@dataclass
class ForensicsReport:
    """The outcome of :func:`validate_forensics`."""

    root: Path
    errors: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    items: int = 0
    """Lines that hold a valid item."""
    by_task: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """No error (warnings allowed)."""
        return not self.errors


def _check_image(root: Path, rel: str) -> str | tuple[int, int]:
    """The image's size, or what is wrong with it."""
    why = outside_reason(root, rel)
    if why is not None:
        return why
    f = root / rel
    if not f.is_file():
        return f"{rel!r} not found"
    try:
        info = inspect_image(f)  # the pixel limit is checked from the header first
    except ImageCheckError as exc:
        return f"{rel!r} does not decode ({exc})"
    return info.size


def validate_forensics(root: Path) -> ForensicsReport:
    """Check a Forensics dataset folder (see the module docstring)."""
    report = ForensicsReport(root)
    path = root / ITEMS_FILE
    if not path.is_file():
        report.errors.append(Problem(ITEMS_FILE, None, "-", "missing"))
        return report
    seen: dict[str, int] = {}
    checked: dict[str, str | tuple[int, int]] = {}
    for lineno, obj, err in iter_jsonl(path):
        if obj is None:
            report.errors.append(Problem(ITEMS_FILE, lineno, "-", err or "unreadable"))
            continue
        try:
            item = ForensicsItem.model_validate(obj)
        except ValidationError as exc:
            for e in exc.errors():
                loc = ".".join(str(x) for x in e["loc"]) or "-"
                msg = str(e["msg"]).removeprefix("Value error, ")
                report.errors.append(Problem(ITEMS_FILE, lineno, loc, msg))
            continue
        if item.id in seen:
            report.errors.append(
                Problem(
                    ITEMS_FILE,
                    lineno,
                    "id",
                    f"duplicate {item.id!r} (first on line {seen[item.id]})",
                )
            )
            continue
        seen[item.id] = lineno
        results = [checked.get(rel) or _check_image(root, rel) for rel in item.images]
        checked.update(zip(item.images, results, strict=True))
        bad = [(k, r) for k, r in enumerate(results) if isinstance(r, str)]
        for k, msg in bad:
            report.errors.append(Problem(ITEMS_FILE, lineno, f"images.{k}", str(msg)))
        if bad:
            continue
        size = results[0]
        if item.resolution is not None and size is not None and tuple(item.resolution) != size:
            report.warnings.append(
                Problem(
                    ITEMS_FILE,
                    lineno,
                    "resolution",
                    f"{list(item.resolution)} but the image is {list(size)}",
                    "warning",
                )
            )
        if item.frames is not None and len(item.frames) != len(item.images):
            report.warnings.append(
                Problem(
                    ITEMS_FILE,
                    lineno,
                    "frames",
                    f"{len(item.frames)} frame indices for {len(item.images)} images",
                    "warning",
                )
            )
        report.items += 1
        report.by_task[item.task] = report.by_task.get(item.task, 0) + 1
    return report
