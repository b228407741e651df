"""The verifier's answers, in each probe's own format (Appendix E), so the verdict parsers and the
judge treat them like any model's:

- L0 / L1 / L-adv: ``FAKE.`` followed by the findings (entity, position, contradiction), or
  ``REAL.`` followed by what was checked;
- L2: each identified person with where they are, and ``I cannot identify ...`` for the rest
  (a person whose face is not seen is never named from the scene record);
- RECOG: the recognised scene's event and year, or ``NOT RECOGNISED``;
- TEXT / FACE: ``YES`` / ``NO`` with one sentence, or ``UNKNOWN. ...`` (no verdict word, so a
  miss) when the KB cannot tell;
- EVENT: ``KNOWN`` with the recorded facts, or ``UNKNOWN``.
"""

from __future__ import annotations

from forgebench.suites.mandela.verifier.kb import KnowledgeBase, compare_dates, parse_date
from forgebench.suites.mandela.verifier.reasoning import (
    Event,
    Finding,
    Observation,
    place_mismatch,
    position,
    whereabouts,
)

MAX_FINDINGS = 3
"""At most this many findings are stated in one answer."""


def verdict_answer(
    findings: list[Finding], obs: Observation, event: Event | None, caption_event: str | None
) -> str:
    """REAL/FAKE and the explanation."""
    if findings:
        return "FAKE. " + " ".join(f.statement for f in findings[:MAX_FINDINGS])
    checked = []
    if obs.faces:
        known = sum(1 for s in obs.faces if s.identity)
        checked.append(f"{len(obs.faces)} face(s), {known} of them identified")
    if obs.text:
        checked.append(f"{len(obs.text)} line(s) of text")
    what = f" (I checked {' and '.join(checked)})" if checked else ""
    if event is not None and event.source == "scene":
        note = ""
        if caption_event and caption_event.casefold() != event.label.casefold():
            note = f" The caption names {caption_event}, but the image itself shows this event."
        return (
            f"REAL. I recognise this as {event.describe()}, and nothing in it contradicts "
            f"what is recorded about that event{what}.{note}"
        )
    return (
        "REAL. Nothing I can identify or read in it contradicts a fact I know"
        f"{what}; I find no evidence of manipulation."
    )


def l2_answer(kb: KnowledgeBase, obs: Observation) -> str:
    """Who is shown, by face identity only."""
    if not obs.faces:
        return "I cannot identify anyone: I find no face in this image."
    parts: list[str] = []
    unknown: list[str] = []
    for s in sorted(obs.faces, key=lambda s: s.face.box[0]):
        where = position(s.face.box, obs.size)
        e = kb.entity(s.identity[0]) if s.identity else None
        if e is None:
            unknown.append(where)
        else:
            parts.append(f"{e.name}, {where}")
    out = ""
    if parts:
        out = "I can identify: " + "; ".join(parts) + "."
    if unknown:
        out += (" " if out else "") + (
            "I cannot identify the person " + " or the person ".join(unknown) + "."
        )
    return out


def recog_answer(event: Event | None) -> str:
    """The recognised event and its year."""
    if event is None or event.source != "scene":
        return "NOT RECOGNISED"
    when = parse_date(event.date)
    year = f", {when.year}" if when else ""
    return f"Yes: {event.label}{year}."


def text_answer(kb: KnowledgeBase, name: str, event_label: str, event_date: str) -> str:
    """Could ``name`` have been present at the event on that date?"""
    e = kb.by_name(name)
    if e is None:
        return f"UNKNOWN. {name} is not in my knowledge base, so I cannot tell."
    when = parse_date(event_date)
    born, died = parse_date(e.born), parse_date(e.died)
    if when is None:
        return f"UNKNOWN. I cannot read the date {event_date!r}."
    if died is not None and compare_dates(died, when) == -1:
        return f"NO. {e.name} died in {died.year}, before {event_label} ({event_date})."
    if born is not None and compare_dates(born, when) == 1:
        return f"NO. {e.name} was born in {born.year}, after {event_label} ({event_date})."
    scene = kb.scene_by_event(event_label)
    if scene is not None and any(p.entity == e.id or p.name == e.name for p in scene.people):
        return f"YES. {e.name} is recorded among the people at {event_label}."
    placed = whereabouts(e, when)
    if placed and scene is not None and place_mismatch(placed, scene.event.place):
        return f"NO. On {event_date} {e.name} was at {placed}, not at {scene.event.place}."
    if born is None and died is None:
        return f"UNKNOWN. I do not know when {e.name} lived."
    return (
        f"YES. {e.name} was alive on {event_date}, and nothing I know places {e.name} "
        "elsewhere then."
    )


def event_answer(kb: KnowledgeBase, label: str, date: str) -> str:
    """Is the event in the KB?"""
    scene = kb.scene_by_event(label)
    if scene is None:
        return "UNKNOWN"
    ev = scene.event
    people = [p.name for p in scene.people]
    where = f" at {ev.place}" if ev.place else ""
    who = f" Recorded participants: {', '.join(people)}." if people else ""
    return f"KNOWN\n{ev.label} took place on {ev.date or date}{where}.{who}"
