"""Reading the question: what a model is told, parsed from the prompt text (Appendix E wording).

The verifier knows only what any model is shown. The caption conditions prefix
``Context: this is a crop from a {noun} of {event}, from {date}.``; TEXT asks
``Could {name} have been present at {event_label} on {event_date}?``; FACE asks ``Is this {name}?``;
EVENT asks ``Do you have knowledge of this event: '{event_label}' ({event_date})?``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_CAPTION = re.compile(
    r"Context:\s*this is a crop from an?\s+(?P<noun>.+?)\s+of\s+(?P<event>.+),\s+from\s+"
    r"(?P<date>[^\n]+?)\.\s*(?:\n|$)",
    re.I,
)
_TEXT = re.compile(
    r"Could\s+(?P<name>.+?)\s+have been present at\s+(?P<event>.+)\s+on\s+(?P<date>[^?]+)\?", re.S
)
_FACE = re.compile(r"^\s*Is this\s+(?P<name>.+?)\?\s*$", re.S)
_EVENT = re.compile(
    r"knowledge of this event:\s*[\u2018\u2019'\"](?P<event>.+?)[\u2018\u2019'\"]\s*"
    r"\((?P<date>[^)]*)\)"
)
_NOUN = re.compile(
    r"\bthis\s+(?P<noun>[a-z][a-z ]{1,30}?)\s+(?:real or fake|are consistent|authentic|or the event)"
    r"|people shown in this\s+(?P<noun2>[a-z][a-z ]{1,30}?)\?",
    re.I,
)


@dataclass(frozen=True)
class Caption:
    """The caption a prompt carries."""

    noun: str
    event: str
    date: str


def caption(prompt: str) -> Caption | None:
    """The caption prefix of a prompt, if any."""
    m = _CAPTION.search(prompt)
    return Caption(m["noun"], m["event"].strip(), m["date"].strip()) if m else None


def noun(prompt: str) -> str:
    """The domain noun the prompt uses (``photograph``, ``painting`` ...); ``image`` if none."""
    m = _NOUN.search(prompt)
    if not m:
        return "image"
    return (m["noun"] or m["noun2"]).strip()


def text_question(prompt: str) -> tuple[str, str, str] | None:
    """``(name, event_label, event_date)`` of a TEXT prompt."""
    m = _TEXT.search(prompt)
    return (m["name"].strip(), m["event"].strip(), m["date"].strip()) if m else None


def face_name(prompt: str) -> str | None:
    """The name a FACE prompt asks about."""
    m = _FACE.match(prompt)
    return m["name"].strip() if m else None


def event_question(prompt: str) -> tuple[str, str] | None:
    """``(event_label, event_date)`` of an EVENT prompt."""
    m = _EVENT.search(prompt)
    return (m["event"].strip(), m["date"].strip()) if m else None


def probe_of(prompt: str) -> str:
    """The probe a prompt is (for requests without ``meta['probe']``)."""
    if "REAL or FAKE" in prompt:
        return "L0"
    if _TEXT.search(prompt):
        return "TEXT"
    if _EVENT.search(prompt):
        return "EVENT"
    if "NOT RECOGNISED" in prompt:
        return "RECOG"
    if "Who are the people" in prompt:
        return "L2"
    if _FACE.match(prompt):
        return "FACE"
    return "UNKNOWN"
