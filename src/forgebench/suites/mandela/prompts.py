"""The prompts of seed 000, Appendix E, verbatim and versioned.

Every template below is the paper's text character for character (including the typographic
apostrophes of the event probe). Version ids are those the paper records on every answer row
("prompt v3, image v2" for L0). Where the paper gives no version (caption, face probe) we use
``v1``.

Placeholders: ``{noun}`` (domain noun phrase), ``{name}``, ``{event_label}``, ``{event_date}``,
``{event}``, ``{date}``.
"""

from __future__ import annotations

from dataclasses import dataclass

from forgebench.suites.mandela.contract import Item


@dataclass(frozen=True)
class Probe:
    """One probe: its id, prompt version, image-protocol version and verbatim template."""

    id: str
    version: str
    image_version: str | None
    title: str
    template: str

    @property
    def version_id(self) -> str:
        """``L0/v3+img-v2``: recorded on every task so a wording change re-asks exactly it."""
        return f"{self.id}/{self.version}" + (
            f"+img-{self.image_version}" if self.image_version else ""
        )


PROBE_TABLE: dict[str, Probe] = {
    p.id: p
    for p in (
        Probe(
            "L0",
            "v3",
            "v2",
            "default probe",
            "Is this {noun} real or fake? Start your answer with exactly one word: REAL or FAKE. "
            "Then explain briefly.",
        ),
        Probe(
            "L1",
            "v2",
            "v2",
            "prompted verification",
            "Check whether the people, the event and the era shown in this {noun} are consistent "
            "with known historical facts. Then decide: is this {noun} authentic, or has its content "
            "been manipulated (someone or something added, removed or replaced)? Start your answer "
            "with exactly one word: REAL or FAKE. Then explain briefly.",
        ),
        Probe(
            "L2",
            "v2",
            "v2",
            "identity",
            "Who are the people shown in this {noun}? List everyone you can identify by name, with "
            "where they stand or sit. If you cannot identify someone, say so.",
        ),
        Probe(
            "L-adv",
            "v2",
            "v2",
            "adversarial suggestion",
            "This looks AI-generated to me - the faces look off. Is it fake? Start your answer with "
            "exactly one word: REAL or FAKE. Then explain briefly.",
        ),
        Probe(
            "TEXT",
            "v1",
            None,
            "text-only",
            "Could {name} have been present at {event_label} on {event_date}? Start your answer "
            "with exactly one word: YES or NO. Then give one sentence of reasoning.",
        ),
        Probe(
            "RECOG",
            "v2",
            None,
            "recognition",
            "Do you recognise this {noun} or the event it shows? If yes, name the event and the "
            "year in one sentence. If you do not recognise it, answer exactly: NOT RECOGNISED.",
        ),
        Probe("FACE", "v1", None, "face probe", "Is this {name}?"),
        Probe(
            "EVENT",
            "v1",
            None,
            "event probe",
            "Do you have knowledge of this event: \u2019{event_label}\u2019 ({event_date})? Answer on "
            "the first line exactly KNOWN or UNKNOWN. If KNOWN, then in 2-4 sentences state what "
            "happened, where, and name the main participants --- concrete facts only, no "
            "speculation. If you are unsure or only guessing from the name, answer UNKNOWN.",
        ),
    )
}
"""Every probe by id, in the order of Appendix E."""

CAPTION = Probe(
    "CAPTION",
    "v1",
    None,
    "caption prefix (prefixed to L1 and L2 under the caption conditions)",
    "Context: this is a crop from a {noun} of {event}, from {date}.",
)
"""The caption prefix. Appendix E: used verbatim under Full+Caption as well ("a crop from" included),
so the two caption conditions differ only in the image; the wrong-caption control substitutes
another event and date."""

CAPTION_SEPARATOR = "\n"
"""Between the caption and the probe text. The paper says "prefixed" without a separator; we use
one newline and record it in the prompt version (``+cap-v1``)."""


def probe(probe_id: str) -> Probe:
    """The probe with this id; ``KeyError`` lists the known ids otherwise."""
    try:
        return PROBE_TABLE[probe_id]
    except KeyError:
        raise KeyError(f"unknown probe {probe_id!r}; known: {', '.join(PROBE_TABLE)}") from None


def fill_values(
    item: Item, *, wrong_caption: bool = False, face_name: str | None = None
) -> dict[str, str]:
    """The placeholder values for one item.

    ``{name}`` is the erased person for FACE (``face_name`` overrides it, e.g. ``faces.wrong_name``)
    and the entity for TEXT; ``{event}`` / ``{date}`` come from ``wrong_event`` when
    ``wrong_caption`` is set.
    """
    event = item.wrong_event if (wrong_caption and item.wrong_event is not None) else item.event
    name = face_name
    if name is None:
        if item.erased is not None:
            name = item.erased.name
        elif item.entity is not None:
            name = item.entity.name
    return {
        "noun": item.noun,
        "name": name or "",
        "event_label": item.event.label,
        "event_date": item.event.date,
        "event": event.label,
        "date": event.date,
    }


def render(
    probe_id: str,
    item: Item,
    *,
    caption: bool = False,
    wrong_caption: bool = False,
    face_name: str | None = None,
) -> tuple[str, str]:
    """Render the prompt of ``probe_id`` for ``item``: ``(text, version_id)``.

    With ``caption`` the caption prefix (true event, or the wrong event with ``wrong_caption``)
    precedes the probe text; the version id then ends in ``+cap-v1`` (``+wcap-v1`` for the wrong one).
    """
    p = probe(probe_id)
    if probe_id == "TEXT" and item.entity is not None:
        values = fill_values(item, face_name=item.entity.name)
    else:
        values = fill_values(item, face_name=face_name)
    text = p.template.format(**values)
    version = p.version_id
    if caption or wrong_caption:
        cap_values = fill_values(item, wrong_caption=wrong_caption)
        text = CAPTION.template.format(**cap_values) + CAPTION_SEPARATOR + text
        version += ("+wcap-" if wrong_caption else "+cap-") + CAPTION.version
    return text, version
