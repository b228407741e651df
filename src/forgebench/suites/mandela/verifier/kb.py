"""The verifier's knowledge base: a folder with ``scenes.jsonl``, ``kb.jsonl`` and images.

A KB folder holds the scene records and the fact table of ``construct/scenes.py``
(:class:`SceneRecord`, :class:`FactEntity`); every image path in them is relative to the folder:

```
KB/
  scenes.jsonl   one SceneRecord per canonical image (event, date, place, people, objects, text)
  kb.jsonl       one FactEntity per person / object / place (born, died, introduced, places,
                 portraits)
  images/...     the canonical images the scene records name
  portraits/...  reference portraits the fact entities name (face identity)
```

Dates are ISO strings (``YYYY``, ``YYYY-MM``, ``YYYY-MM-DD``); a leading ``c.`` / ``circa`` is
accepted (``c. 1998``) and read as that year. :func:`compare_dates` only calls one date before
another when their known parts say so (``1992-01-01`` is before ``c. 1998``; ``1998`` is not
before ``1998-02-07``).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from forgebench.construct.scenes import (
    KB_FILE,
    SCENES_FILE,
    FactEntity,
    SceneError,
    SceneRecord,
    load_facts,
    load_scenes,
)
from forgebench.errors import UserError
from forgebench.suites.mandela.names import fold
from forgebench.util.images import ImageCheckError, inspect_image
from forgebench.util.paths import outside_reason

_DATE = re.compile(
    r"^\s*(?:c\.|ca\.|circa|about)?\s*(?P<y>\d{3,4})(?:-(?P<m>\d{1,2})(?:-(?P<d>\d{1,2}))?)?\b",
    re.I,
)


class KBError(UserError):
    """A knowledge-base folder that cannot be used; one line naming the file."""


@dataclass(frozen=True, order=True)
class Date:
    """A date known to year, month or day precision."""

    year: int
    month: int | None = None
    day: int | None = None

    def __str__(self) -> str:
        out = f"{self.year:04d}"
        if self.month is not None:
            out += f"-{self.month:02d}"
            if self.day is not None:
                out += f"-{self.day:02d}"
        return out


def parse_date(text: str | None) -> Date | None:
    """``1998-02-07`` / ``1998-02`` / ``1998`` / ``c. 1998`` as a :class:`Date`; None otherwise."""
    if not text:
        return None
    m = _DATE.match(str(text))
    if not m:
        return None
    month = int(m["m"]) if m["m"] else None
    day = int(m["d"]) if m["d"] and month else None
    if month is not None and not 1 <= month <= 12:
        return None
    return Date(int(m["y"]), month, day)


def date_problem(text: object) -> str | None:
    """Why a KB date is not one :func:`parse_date` reads in full (a month 13, a 45th day, text
    after the date), or None. A date that is read in part would silently drop a check."""
    if text is None or text == "":
        return None
    if not isinstance(text, str):
        return f"{text!r} is not a date string"
    m = _DATE.match(text)
    if m is None or text[m.end() :].strip():
        return f"{text!r} is not a date (YYYY, YYYY-MM or YYYY-MM-DD)"
    month, day = (int(m["m"]) if m["m"] else None), (int(m["d"]) if m["d"] else None)
    try:
        _dt.date(int(m["y"]), month or 1, day or 1)
    except ValueError:
        return f"{text!r} is not a calendar date"
    return None


def compare_dates(a: Date, b: Date) -> int | None:
    """-1 when ``a`` is surely before ``b``, 1 when surely after, 0 when the same day, None when
    the known parts cannot tell (different precision within the same year or month)."""
    for x, y in ((a.year, b.year), (a.month, b.month), (a.day, b.day)):
        if x is None or y is None:
            return None
        if x != y:
            return -1 if x < y else 1
    return 0


@dataclass
class KnowledgeBase:
    """Scene records and fact entities of one KB folder, with name lookup."""

    root: Path
    scenes: list[SceneRecord]
    facts: list[FactEntity]
    _by_id: dict[str, FactEntity] = field(default_factory=dict, repr=False)
    _by_name: dict[str, FactEntity] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for e in self.facts:
            self._by_id[e.id] = e
            for n in (e.name, *e.aliases):
                self._by_name.setdefault(fold(n).strip(), e)

    def entity(self, entity_id: str | None) -> FactEntity | None:
        """The fact entity with this id."""
        return self._by_id.get(entity_id) if entity_id else None

    def by_name(self, name: str) -> FactEntity | None:
        """The fact entity whose name or an alias is ``name`` (case and accents folded)."""
        return self._by_name.get(fold(name).strip())

    def person_entity(self, name: str, entity_id: str | None = None) -> FactEntity | None:
        """A scene person's fact entity: by id when given, else by name."""
        return self.entity(entity_id) or self.by_name(name)

    def scene_by_event(self, label: str) -> SceneRecord | None:
        """The scene whose event label is ``label`` (folded, exact)."""
        key = fold(label).strip()
        for s in self.scenes:
            if fold(s.event.label).strip() == key:
                return s
        return None

    def path(self, relative: str) -> Path:
        """A KB-relative path as an absolute one."""
        return self.root / relative

    def fingerprint(self) -> str:
        """SHA-256 over the two JSONL files and every image they name (what answers depend on)."""
        h = hashlib.sha256()
        paths = [SCENES_FILE, KB_FILE]
        paths += sorted({s.image for s in self.scenes})
        paths += sorted({p for e in self.facts for p in e.portraits})
        for rel in paths:
            p = self.root / rel
            h.update(rel.encode())
            if p.is_file():
                h.update(p.read_bytes())
        return h.hexdigest()[:16]


def load_kb(root: Path) -> KnowledgeBase:
    """Read a KB folder; :class:`KBError` (one line) when a file is missing or malformed."""
    root = Path(root)
    if not root.is_dir():
        raise KBError(f"{root}: knowledge-base folder not found")
    facts_path = root / KB_FILE
    scenes_path = root / SCENES_FILE
    if not facts_path.is_file():
        raise KBError(f"{facts_path}: missing (the fact table, one entity per line)")
    try:
        facts = load_facts(facts_path)
        scenes = load_scenes(scenes_path) if scenes_path.is_file() else []
    except SceneError as exc:
        raise KBError(f"{root}: {exc}") from None
    for s in scenes:
        where = f"{scenes_path}: scene {s.id!r}"
        _check_image(root, s.image, f"{where}: image")
        _check_date(s.event.date, f"{where}: event.date")
    for e in facts:
        where = f"{facts_path}: entity {e.id!r}"
        for p in e.portraits:
            _check_image(root, p, f"{where}: portrait")
        for name in ("born", "died", "introduced"):
            _check_date(getattr(e, name), f"{where}: {name}")
        for k, row in enumerate(e.places):
            for bound in ("from", "to"):
                _check_date(row.get(bound), f"{where}: places.{k}.{bound}")
    return KnowledgeBase(root, scenes, facts)


def _check_date(text: object, where: str) -> None:
    why = date_problem(text)
    if why is not None:
        raise KBError(f"{where}: {why}")


def _check_image(root: Path, rel: str, where: str) -> None:
    """A KB image stays inside the folder (no ``..``, absolute path or link out) and its header
    is within the dataset pixel limit (a bomb is refused before anything decodes it)."""
    why = outside_reason(root, rel, "knowledge-base folder")
    if why is not None:
        raise KBError(f"{where}: {why}")
    if not (root / rel).is_file():
        raise KBError(f"{where} {rel!r} not found")
    try:
        inspect_image(root / rel, decode=False)
    except ImageCheckError as exc:
        raise KBError(f"{where} {rel!r}: {exc}") from None
