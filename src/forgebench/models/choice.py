"""Constrained answers: a request whose answer the server must hold to one of a few strings
(Forensics' ``MCQ_CHOICE``: one option letter), in the request form the provider supports.

A :class:`~forgebench.models.base.Request` with a non-empty ``choice`` asks for it. A backend that
can constrain declares ``CHOICE_FORMS`` in its module: the forms it sends, each with the request
field it sets (the first is its default); ``choice_form`` in a models file picks another of them,
and a form its provider does not send is refused when the file is read (:func:`form_problem`). A
backend that cannot is refused before anything is sent (:func:`refusal`); ``replay`` replays the
recorded answers and sends no form. The forms:

- ``json_schema``: a JSON schema whose ``answer`` is an enum of the letters
  (:func:`answer_schema`); the answer is then ``{"answer": "B"}``. OpenAI-compatible servers take
  it as ``response_format`` (OpenAI, vLLM, SGLang, llama.cpp's server, LM Studio, Ollama), the
  Anthropic Messages API as ``output_config.format``.
- ``structured_outputs``: vLLM's ``"structured_outputs": {"choice": [...]}`` (vLLM 0.10.2 on);
  the answer is the bare letter.
- ``guided_choice``: the older vLLM field ``"guided_choice": [...]`` (before 0.10.2; removed
  later); the answer is the bare letter.
- ``enum``: Gemini's ``response_mime_type = "text/x.enum"`` with a ``response_schema`` of type
  ``STRING`` whose enum is the letters; the answer is the bare letter.

A server that does not know a field may reject it (a 4xx: :func:`rejected`) or silently ignore it
and answer free text (:func:`conforms` tells). Every backend that constrains sends a model's first
constrained request alone through its :class:`ChoiceGate`, which stops the model with one line
when either happens, before more is sent. :func:`read_choice` reads a constrained answer back (a
bare letter, or the JSON's ``answer``); anything else is no letter. The form is how the server is
told, not what is asked: it is not part of a task's key (switching it after a rejection asks the
same tasks).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Literal, get_args

from forgebench.models.base import ModelError, Request, Response

ChoiceForm = Literal["json_schema", "structured_outputs", "guided_choice", "enum"]
FORMS: tuple[str, ...] = get_args(ChoiceForm)
"""Every constrained-answer form some provider sends (``choice_form``'s values)."""
SCHEMA_NAME = "option_letter"
"""The OpenAI ``json_schema`` form's schema name."""
ENUM_MIME_TYPE = "text/x.enum"
"""Gemini's response MIME type for an answer held to a schema's enum (the ``enum`` form)."""

OPENAI_FORMS: dict[str, str] = {
    "json_schema": "response_format",
    "structured_outputs": "structured_outputs",
    "guided_choice": "guided_choice",
}
"""The forms an OpenAI-compatible server is sent, each with the top-level field it sets (what a
rejection names); the first is the default."""


def default_form(forms: Mapping[str, str]) -> str:
    """A provider's default form: the first it declares."""
    return next(iter(forms))


def form_problem(form: str, provider: str, forms: Mapping[str, str] | None) -> str | None:
    """Why ``choice_form = form`` cannot be used with ``provider`` (None when it can):
    ``forms`` is the provider's ``CHOICE_FORMS``, None where it sends none because it replays
    answers; empty where it cannot constrain at all."""
    if forms is None or form in forms:
        return None
    if not forms:
        return f"{provider}/... cannot constrain an answer, so choice_form {form!r} has no use"
    known = ", ".join(f'"{f}" ({field})' for f, field in forms.items())
    return f"{provider}/... does not send choice_form {form!r}; it sends {known}"


def answer_schema(letters: Sequence[str]) -> dict[str, Any]:
    """A JSON schema of one object whose ``answer`` is one of ``letters`` (the ``json_schema``
    form's schema, whichever field carries it)."""
    return {
        "type": "object",
        "properties": {"answer": {"type": "string", "enum": [str(x) for x in letters]}},
        "required": ["answer"],
        "additionalProperties": False,
    }


def choice_fields(form: str, letters: Sequence[str]) -> dict[str, Any]:
    """The OpenAI-compatible request-body fields that hold the answer to one of ``letters`` in
    ``form`` (one of :data:`OPENAI_FORMS`)."""
    allowed = [str(x) for x in letters]
    if form == "structured_outputs":
        return {"structured_outputs": {"choice": allowed}}
    if form == "guided_choice":
        return {"guided_choice": allowed}
    if form == "json_schema":
        schema = answer_schema(allowed)
        return {
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": SCHEMA_NAME, "schema": schema, "strict": True},
            }
        }
    raise ValueError(f"unknown choice_form {form!r} (known: {', '.join(OPENAI_FORMS)})")


_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.S)
_THINK = re.compile(r"^\s*(?:<think>.*?</think>\s*)+", re.S)
"""Reasoning blocks before the answer (the Anthropic and Google backends keep a thinking model's
thoughts as ``<think>...</think>`` before its text)."""


def read_choice(text: str, letters: Sequence[str]) -> str | None:
    """The letter a constrained answer gives: the whole answer (after any leading
    ``<think>...</think>`` blocks) is one of ``letters`` (surrounding blanks, quotes or a final
    full stop aside), or a JSON object whose ``answer`` is; None for anything else (a server that
    ignored the constraint answers free text)."""
    allowed = {str(x) for x in letters}
    body = _THINK.sub("", text or "").strip()
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


def _instead(form: str, forms: Mapping[str, str]) -> str:
    """What to do instead: another form the provider sends, or no ``--protocol choice``."""
    others = [f'"{f}"' for f in forms if f != form]
    if others:
        return (
            f"Set choice_form = {' or '.join(others)} in its models file, or leave --protocol "
            "choice out for it"
        )
    return "Leave --protocol choice out for it (its provider sends no other choice_form)"


def rejected(form: str, reason: str, forms: Mapping[str, str]) -> str:
    """One line: the server refused the first constrained request (``reason``: ``HTTP 400:
    ...``, the server's own words), which differs from a free-form one by the field that ``form``
    sets in the provider's ``forms``."""
    field = forms.get(form, form)
    return (
        f"the server rejected the first constrained-answer request, field {field} "
        f'(choice_form = "{form}"): {reason}; nothing more was sent. {_instead(form, forms)}'
    )


def ignored(form: str, text: str, forms: Mapping[str, str]) -> str:
    """One line: the server answered the first constrained request with free text."""
    field = forms.get(form, form)
    snippet = " ".join((text or "").split())[:60]
    return (
        f'the server ignored the constrained-answer field {field} (choice_form = "{form}"): '
        f"its first MCQ_CHOICE answer is free text ({snippet!r}); nothing more was sent. "
        f"{_instead(form, forms)}"
    )


def refusal(model: str, provider: str, able: Sequence[str]) -> str:
    """One line: ``model``'s backend cannot hold an answer to the given letters; ``able`` names
    the providers that can."""
    return (
        f"model {model} ({provider}/...) cannot constrain its answer to one option letter "
        f"(MCQ_CHOICE needs a provider that can: {', '.join(able)}); leave --protocol choice "
        "out for it (ask it in a run of its own)"
    )


class ChoiceGate:
    """One model's first constrained request, sent alone: every backend that constrains sends its
    constrained requests through one gate (:meth:`run`).

    While the first is out, the others wait. When the server refuses it with a status of
    :data:`REJECTION_STATUS` or answers it with free text (it ignored the field), the one line of
    :func:`rejected` or :func:`ignored` is raised (non-retryable) by it and by every waiting and
    later request, so the run stops the model before more is sent. Once an answer in shape has
    come back, requests go as any. A first request that fails for another reason (a timeout, a
    429, a bad key) or whose answer is a refusal (:data:`EXEMPT`) tells nothing about the field:
    the next request goes alone in its place.
    """

    def __init__(self, form: str, forms: Mapping[str, str]) -> None:
        self.form = form
        """The ``choice_form`` sent."""
        self.forms = dict(forms)
        """The provider's forms and fields (for the lines and their suggestions)."""
        self._first: asyncio.Future[str | None] | None = None
        """The outcome of the request that went alone: None once one came back in shape, else
        the line that stops the model; no future while none is out or decided."""

    async def run(
        self, send: Callable[[Request], Awaitable[Response]], request: Request
    ) -> Response:
        """``send(request)``, first alone or after the first came back in shape (see the class);
        :class:`~forgebench.models.base.ModelError` with the one line otherwise."""
        while True:
            gate = self._first
            if gate is None:
                return await self._lead(send, request)
            verdict = await asyncio.shield(gate)
            if verdict is not None:
                raise ModelError(verdict, retryable=False)
            if self._first is gate:  # it came back in shape: no more waiting
                return await send(request)
            # it told nothing: this request may go alone in its place

    async def _lead(
        self, send: Callable[[Request], Awaitable[Response]], request: Request
    ) -> Response:
        gate = self._first = asyncio.get_running_loop().create_future()
        try:
            response = await send(request)
        except ModelError as exc:
            if exc.status not in REJECTION_STATUS:
                self._pass(gate)
                raise
            verdict = rejected(self.form, str(exc), self.forms)
            gate.set_result(verdict)
            raise ModelError(verdict, retryable=False, status=exc.status) from None
        except BaseException:
            self._pass(gate)
            raise
        if response.finish_reason in EXEMPT:
            self._pass(gate)
            return response
        if not conforms(response.text, request.choice):
            verdict = ignored(self.form, response.text, self.forms)
            gate.set_result(verdict)
            raise ModelError(verdict, retryable=False)
        gate.set_result(None)
        return response

    def _pass(self, gate: asyncio.Future[str | None]) -> None:
        """The first request told nothing about the field: the next one goes alone."""
        self._first = None
        gate.set_result(None)
