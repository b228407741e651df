"""Constrained answers: a request whose answer the server must hold to one of a few strings
(Forensics' ``MCQ_CHOICE``: one option letter), in the request-body form the server supports.

A :class:`~forgebench.models.base.Request` with a non-empty ``choice`` asks for it; a backend that
can constrain declares ``CHOICE_FORMS`` (the forms it sends) in its module, and one that cannot is
refused before anything is sent (:func:`refusal`). The forms, picked per model with
``choice_form`` in its models file:

- ``json_schema`` (the default): OpenAI's ``response_format`` with a strict JSON schema whose
  ``answer`` is an enum of the letters; the answer is then ``{"answer": "B"}``. OpenAI, vLLM,
  SGLang, llama.cpp's server, LM Studio and Ollama read it.
- ``structured_outputs``: vLLM's ``"structured_outputs": {"choice": [...]}`` (vLLM 0.10.2 on);
  the answer is the bare letter.
- ``guided_choice``: the older vLLM field ``"guided_choice": [...]`` (before 0.10.2; removed
  later); the answer is the bare letter.

A server that does not know a field may reject it (a 4xx: :func:`rejected`) or silently ignore it
and answer free text (:func:`conforms` tells); the OpenAI-compatible backend sends a model's first
constrained request alone and stops the model with one line when either happens, before more is
sent. :func:`read_choice` reads a constrained answer back (a bare letter, or the JSON's
``answer``); anything else is no letter. The form is how the server is told, not what is asked: it
is not part of a task's key (switching it after a rejection asks the same tasks).

Everything a provider needs is here, in small functions of the form and the letters, so a provider
registry can carry them later.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, Literal

ChoiceForm = Literal["json_schema", "structured_outputs", "guided_choice"]
CHOICE_FORMS: tuple[ChoiceForm, ...] = ("json_schema", "structured_outputs", "guided_choice")
"""The request-body forms of a constrained answer."""
DEFAULT_FORM: ChoiceForm = "json_schema"
"""The form a model uses unless its models file sets ``choice_form``."""
SCHEMA_NAME = "option_letter"
"""The ``json_schema`` form's schema name."""

FIELD: dict[str, str] = {
    "json_schema": "response_format",
    "structured_outputs": "structured_outputs",
    "guided_choice": "guided_choice",
}
"""The top-level request field each form sets (what a rejection names)."""


def choice_fields(form: str, letters: Sequence[str]) -> dict[str, Any]:
    """The request-body fields that hold the answer to one of ``letters`` in ``form``."""
    allowed = [str(x) for x in letters]
    if form == "structured_outputs":
        return {"structured_outputs": {"choice": allowed}}
    if form == "guided_choice":
        return {"guided_choice": allowed}
    if form == "json_schema":
        schema = {
            "type": "object",
            "properties": {"answer": {"type": "string", "enum": allowed}},
            "required": ["answer"],
            "additionalProperties": False,
        }
        return {
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": SCHEMA_NAME, "schema": schema, "strict": True},
            }
        }
    raise ValueError(f"unknown choice_form {form!r} (known: {', '.join(CHOICE_FORMS)})")


_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.S)


def read_choice(text: str, letters: Sequence[str]) -> str | None:
    """The letter a constrained answer gives: the whole answer is one of ``letters`` (surrounding
    blanks, quotes or a final full stop aside), or a JSON object whose ``answer`` is; None for
    anything else (a server that ignored the constraint answers free text)."""
    allowed = {str(x) for x in letters}
    body = (text or "").strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1).strip()
    if body.startswith("{"):
        try:
            data = json.loads(body)
        except json.JSONDecodeError:
            return None
        value = data.get("answer") if isinstance(data, dict) else None
        body = value.strip() if isinstance(value, str) else ""
    body = body.strip().removesuffix(".").strip("\"' ")
    return body if body in allowed else None


EXEMPT = frozenset({"refusal", "content_filter"})
"""Finish reasons whose free text is no sign of an ignored constraint (a safety refusal)."""


def conforms(text: str, letters: Sequence[str]) -> bool:
    """Whether an answer has the constrained shape (:func:`read_choice` reads a letter)."""
    return read_choice(text, letters) is not None


REJECTION_STATUS = frozenset({400, 404, 415, 422, 501})
"""Statuses with which a server refuses a body it does not understand (a 4xx that is not a rate
limit, a timeout, a conflict, a too-large payload or a bad key; 501 for servers that say so)."""


def rejected(form: str, reason: str) -> str:
    """One line: the server refused the first constrained request (``reason``: ``HTTP 400:
    ...``, the server's own words), which differs from a free-form one by the field of ``form``."""
    field = FIELD.get(form, form)
    others = " or ".join(f'"{f}"' for f in CHOICE_FORMS if f != form)
    return (
        f"the server rejected the first constrained-answer request, field {field} "
        f'(choice_form = "{form}"): {reason}; nothing more was sent. Set choice_form = '
        f"{others} in its models file, or leave --protocol choice out for it"
    )


def ignored(form: str, text: str) -> str:
    """One line: the server answered the first constrained request with free text."""
    field = FIELD.get(form, form)
    snippet = " ".join((text or "").split())[:60]
    return (
        f'the server ignored the constrained-answer field {field} (choice_form = "{form}"): '
        f"its first MCQ_CHOICE answer is free text ({snippet!r}); nothing more was sent. Set "
        "another choice_form in its models file, or leave --protocol choice out for it"
    )


def refusal(model: str, provider: str) -> str:
    """One line: ``model``'s backend cannot hold an answer to the given letters."""
    return (
        f"model {model} ({provider}/...) cannot constrain its answer to one option letter "
        "(MCQ_CHOICE needs an OpenAI-compatible server or a replay file); leave --protocol "
        "choice out for it (ask it in a run of its own)"
    )
