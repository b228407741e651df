"""From what the tools saw to contradictions with the KB (the verifier's reasoning).

Input: an :class:`Observation` of one image (the recognised scene, the text lines, the faces and
who they are) and the event context (the recognised scene's event, else the caption's). Output:
:class:`Finding` s, each a recorded fact the image contradicts, phrased to name the entity, where
it is and the contradiction:

- **person vs date**: an identified person who died before, or was born after, the event date;
- **person vs place**: an identified person whose recorded whereabouts (``places``) on the event
  date are elsewhere (place names are compared as text: neither may contain the other, so a city
  inside the event's country still counts as elsewhere);
- **person not recorded**: an identified person who is not among the recognised scene's people;
- **absent figure**: a recorded person of the recognised scene with a reference portrait whose
  recorded place in the image holds a face that is not theirs (absent celebrity);
- **text vs record**: a recorded text line that now reads differently (at least two characters,
  or any digit, differ after dropping case, spaces and punctuation, so single-letter OCR
  confusions do not count);
- **anachronistic text**: a line naming a KB entity introduced after the event date;
- **recorded objects** (``objects.py``): a recorded colour changed, a recorded object gone.

A person the recognised scene records as present is never a finding (the record places them
there). Nothing else is a finding: an unknown face is never named, and text or objects the KB does not
record are not evidence either way (an anchor-free edit contradicts no fact).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from forgebench.construct.scenes import FactEntity, SceneRecord
from forgebench.suites.mandela.names import fold
from forgebench.suites.mandela.verifier.faces import Face
from forgebench.suites.mandela.verifier.kb import Date, KnowledgeBase, compare_dates, parse_date
from forgebench.suites.mandela.verifier.ocr import TextLine
from forgebench.suites.mandela.verifier.scenes import Box, SceneMatch

_YEAR = re.compile(r"(?<!\d)(1\d{3}|20\d{2})(?!\d)")
MIN_VISIBLE = 0.8
"""Share of a recorded box that must be inside the image for it to be checked."""
MIN_TEXT_VISIBLE = 0.98
"""A recorded text line is read only when it is (all but) wholly inside the image."""


@dataclass(frozen=True)
class SeenFace:
    """A detected face and who it is (None: nobody the KB knows)."""

    face: Face
    identity: tuple[str, float] | None


@dataclass
class Observation:
    """What the tools saw in one image."""

    size: tuple[int, int]
    """``(width, height)``."""
    scene: SceneMatch | None = None
    text: list[TextLine] = field(default_factory=list)
    faces: list[SeenFace] = field(default_factory=list)


@dataclass(frozen=True)
class Event:
    """The event an image is checked against."""

    label: str
    date: str | None
    place: str | None
    source: str
    """``scene`` (recognised) or ``caption`` (read from the prompt)."""

    @property
    def when(self) -> Date | None:
        """The event date."""
        return parse_date(self.date)

    def describe(self) -> str:
        """``label (date)``."""
        return f"{self.label} ({self.date})" if self.date else self.label


@dataclass(frozen=True)
class Finding:
    """One recorded fact the image contradicts."""

    kind: str
    """``person_date``, ``person_place``, ``person_not_recorded``, ``absent``, ``text``,
    ``text_anachronism``, ``colour``, ``missing_object`` (``objects.py``)."""
    entity: str
    """The anomalous entity as the answer names it."""
    box: Box
    """Where it is in the image."""
    statement: str
    """One or two sentences naming the entity, its position and the contradiction."""


def position(box: Box, size: tuple[int, int]) -> str:
    """``at the upper left`` / ``in the centre`` / ... for a box in an image of ``size``."""
    w, h = size
    cx, cy = (box[0] + box[2]) / 2 / max(w, 1), (box[1] + box[3]) / 2 / max(h, 1)
    vert = "upper" if cy < 1 / 3 else "lower" if cy > 2 / 3 else ""
    horiz = "left" if cx < 1 / 3 else "right" if cx > 2 / 3 else ""
    if not vert and not horiz:
        return "in the centre"
    if not vert:
        return f"at the {horiz}"
    return f"at the {vert} {horiz}".rstrip() if horiz else f"at the {vert} centre"


def _overlap(a: Box, b: Box) -> float:
    """Intersection area over the smaller box's area."""
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    if iw <= 0 or ih <= 0:
        return 0.0
    small = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return iw * ih / max(small, 1)


def _year(d: Date) -> str:
    return str(d.year)


def _lifespan(e: FactEntity) -> str:
    born, died = parse_date(e.born), parse_date(e.died)
    if born and died:
        return f" ({born.year}-{died.year})"
    return f" (born {born.year})" if born else ""


def _about(e: FactEntity, lifespan: bool = False) -> str:
    desc = getattr(e, "description", None)
    life = _lifespan(e) if lifespan else ""
    return f"{life}, {desc}" if isinstance(desc, str) and desc else life


def _recorded(scene: SceneRecord | None, e: FactEntity) -> bool:
    if scene is None:
        return False
    names = {fold(n) for n in (e.name, *e.aliases)}
    return any(p.entity == e.id or fold(p.name) in names for p in scene.people)


def place_mismatch(recorded: str, event_place: str | None) -> bool:
    """True when neither place name contains the other (folded)."""
    if not event_place:
        return False
    a, b = fold(recorded), fold(event_place)
    return a not in b and b not in a


def person_findings(
    kb: KnowledgeBase, obs: Observation, event: Event | None, noun: str
) -> list[Finding]:
    """Identified people who cannot be in this event."""
    out: list[Finding] = []
    scene = obs.scene.scene if obs.scene else None
    when = event.when if event else None
    for seen in obs.faces:
        if seen.identity is None:
            continue
        e = kb.entity(seen.identity[0])
        if e is None:
            continue
        if _recorded(scene, e):
            continue  # recorded among this scene's people: present by the record itself
        where = position(seen.face.box, obs.size)
        who = f"The face {where} is {e.name}{_about(e)}"
        born, died = parse_date(e.born), parse_date(e.died)
        if event is not None and when is not None:
            if died is not None and compare_dates(died, when) == -1:
                out.append(
                    Finding(
                        "person_date",
                        e.name,
                        seen.face.box,
                        f"{who}: {e.name} died in {_year(died)}, before {event.describe()}, "
                        f"so {e.name} cannot be in this {noun}.",
                    )
                )
                continue
            if born is not None and compare_dates(born, when) == 1:
                out.append(
                    Finding(
                        "person_date",
                        e.name,
                        seen.face.box,
                        f"{who}: {e.name} was born in {_year(born)}, after {event.describe()}.",
                    )
                )
                continue
            placed = whereabouts(e, when)
            if placed and place_mismatch(placed, event.place):
                out.append(
                    Finding(
                        "person_place",
                        e.name,
                        seen.face.box,
                        f"{who}: on {event.date} {e.name} was at {placed}, not at {event.place} "
                        f"for {event.label}.",
                    )
                )
                continue
        if scene is not None and event is not None:
            out.append(
                Finding(
                    "person_not_recorded",
                    e.name,
                    seen.face.box,
                    f"The face {where} is {e.name}{_about(e, lifespan=True)}: {e.name} was not "
                    f"part of {event.describe()}; "
                    f"{e.name} is not among the people recorded in this {noun}.",
                )
            )
    return out


def whereabouts(e: FactEntity, when: Date) -> str | None:
    """Where the fact table places ``e`` on ``when`` (a ``places`` row whose bounds hold it)."""
    for row in e.places:
        place = row.get("place")
        start, end = parse_date(row.get("from")), parse_date(row.get("to"))
        if not place or (start is None and end is None):
            continue
        if start is not None and compare_dates(start, when) not in (-1, 0):
            continue
        if end is not None and compare_dates(end, when) not in (1, 0):
            continue
        return place
    return None


def absent_findings(
    kb: KnowledgeBase, obs: Observation, gallery_ids: set[str], noun: str
) -> list[Finding]:
    """Recorded people of the recognised scene whose place holds someone else's face."""
    if obs.scene is None:
        return []
    out: list[Finding] = []
    for person in obs.scene.scene.people:
        e = kb.person_entity(person.name, person.entity)
        if e is None or e.id not in gallery_ids or person.box is None:
            continue
        mapped = obs.scene.map_box(person.box)
        if mapped is None or mapped[1] < MIN_VISIBLE:
            continue
        box = mapped[0]
        here = [s for s in obs.faces if _overlap(s.face.box, box) >= 0.5]
        if not here or any(s.identity and s.identity[0] == e.id for s in here):
            continue
        seen = max(here, key=lambda s: s.face.score)
        where = position(seen.face.box, obs.size)
        role = f" ({person.role})" if person.role else ""
        other = kb.entity(seen.identity[0]) if seen.identity else None
        instead = f"{other.name}'s" if other else "one I cannot identify"
        out.append(
            Finding(
                "absent",
                e.name,
                seen.face.box,
                f"The person {where} is not {e.name}{role}: this {noun} shows {e.name} there, "
                f"but the face there is {instead}: {e.name} has been removed and replaced by "
                "someone else.",
            )
        )
    return out


def _squash(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", fold(text))


def _distance(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def differs(read: str, recorded: str) -> bool:
    """True when ``read`` contradicts ``recorded`` beyond OCR noise (see the module docstring)."""
    a, b = _squash(read), _squash(recorded)
    if a == b:
        return False
    if re.sub(r"\D", "", a) != re.sub(r"\D", "", b):
        return True
    return _distance(a, b) >= 2


def text_findings(kb: KnowledgeBase, obs: Observation, event: Event | None) -> list[Finding]:
    """Recorded text that reads differently, and text naming an entity from after the event."""
    out: list[Finding] = []
    used: set[int] = set()
    if obs.scene is not None:
        scene = obs.scene.scene
        for rec in scene.text:
            if rec.box is None:
                continue
            mapped = obs.scene.map_box(rec.box)
            if mapped is None or mapped[1] < MIN_TEXT_VISIBLE:
                continue  # a line cut by the image edge reads short: no evidence
            box = mapped[0]
            idx = [i for i, ln in enumerate(obs.text) if _overlap(ln.box, box) >= 0.5]
            if idx and max(obs.text[i].box[1] for i in idx) < min(obs.text[i].box[3] for i in idx):
                idx.sort(key=lambda i: obs.text[i].box[0])  # pieces of one line: left to right
            used.update(idx)
            if not idx:
                continue  # nothing legible there: no evidence either way
            read = " ".join(obs.text[i].text for i in idx)
            if not differs(read, rec.text):
                continue
            lines = [obs.text[i] for i in idx]
            where = position(_union([ln.box for ln in lines]), obs.size)
            why = _text_reason(read, rec.text, event)
            out.append(
                Finding(
                    "text",
                    read,
                    _union([ln.box for ln in lines]),
                    f"The text {where} reads '{read}', but the recorded text there is "
                    f"'{rec.text}'{why}.",
                )
            )
    when = event.when if event else None
    if event is None or when is None:
        return out
    for i, ln in enumerate(obs.text):
        if i in used:
            continue
        e = _entity_in(kb, ln.text)
        intro = parse_date(e.introduced) if e else None
        if e is None or intro is None or compare_dates(intro, when) != 1:
            continue
        other = next((a for a in e.aliases if fold(a) != fold(ln.text)), None)
        called = f"{e.name} ({other})" if other and fold(e.name) == fold(ln.text) else e.name
        out.append(
            Finding(
                "text_anachronism",
                e.name,
                ln.box,
                f"The text {position(ln.box, obs.size)} reads '{ln.text}': the {called} was "
                f"introduced in {intro.year}, after {event.describe()}, so it did not exist yet.",
            )
        )
    return out


def _entity_in(kb: KnowledgeBase, text: str) -> FactEntity | None:
    hit = kb.by_name(text)
    if hit is not None:
        return hit
    words = [w for w in re.split(r"[^\w]+", text) if len(w) >= 3]
    for n in (3, 2, 1):
        for i in range(len(words) - n + 1):
            hit = kb.by_name(" ".join(words[i : i + n]))
            if hit is not None:
                return hit
    return None


def _union(boxes: list[Box]) -> Box:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _text_reason(read: str, recorded: str, event: Event | None) -> str:
    if event is None:
        return ""
    years_read, years_rec = set(_YEAR.findall(read)), set(_YEAR.findall(recorded))
    if years_rec and years_read and years_read != years_rec:
        rec, got = "/".join(sorted(years_rec)), "/".join(sorted(years_read))
        return f": {event.label} took place in {rec}, not {got}"
    place_words = set(re.findall(r"\w{3,}", fold(event.place or "")))
    if place_words & set(re.findall(r"\w{3,}", fold(recorded))):
        return f": {event.label} took place in {event.place}"
    return f" ({event.describe()})"
