"""The first-request gate every constraining backend sends through (``choice.ChoiceGate``), on its
own: which request goes alone when the first one tells nothing about the field."""

from __future__ import annotations

import asyncio

import pytest

from forgebench.models.base import ModelError, Request, Response
from forgebench.models.choice import OPENAI_FORMS, ChoiceGate

LETTERS = ("A", "B")


def _run(replies: list[object], count: int) -> tuple[list[object], list[bool]]:
    """Send ``count`` constrained requests at once through one gate; the k-th send answers
    ``replies[k]`` (a text, a (text, finish reason), or a :class:`ModelError` to raise) after a
    short wait. Returns each request's outcome and, per send, whether it was alone (no other send
    was in flight at any time during it)."""
    gate = ChoiceGate("json_schema", OPENAI_FORMS)
    inflight: set[int] = set()
    alone: list[bool] = []

    async def send(request: Request) -> Response:
        k = len(alone)
        alone.append(not inflight)
        for other in inflight:
            alone[other] = False
        inflight.add(k)
        await asyncio.sleep(0.01)
        inflight.discard(k)
        reply = replies[min(k, len(replies) - 1)]
        if isinstance(reply, ModelError):
            raise reply
        text, finish = reply if isinstance(reply, tuple) else (reply, "stop")
        return Response(text=str(text), finish_reason=str(finish))

    async def one(k: int) -> object:
        try:
            return await gate.run(send, Request(prompt=f"q{k}", choice=LETTERS))
        except ModelError as exc:
            return exc

    async def scenario() -> list[object]:
        return list(await asyncio.gather(*(one(k) for k in range(count))))

    outs = asyncio.run(scenario())
    return outs, alone


@pytest.mark.parametrize(
    "first",
    [ModelError("HTTP 429: slow down", retryable=True, status=429), ("I cannot.", "refusal")],
    ids=["rate-limited", "refused"],
)
def test_a_first_request_that_tells_nothing_lets_the_next_go_alone(first: object) -> None:
    outs, alone = _run([first, "B"], 6)
    # the first and its replacement each went alone; the four left went together after them
    assert alone == [True, True, False, False, False, False]
    assert isinstance(outs[1], Response) and outs[1].text == "B"
    assert sum(isinstance(o, Response) for o in outs) == (6 if isinstance(first, tuple) else 5)


def test_a_rejection_stops_every_request_with_one_line() -> None:
    first = ModelError("HTTP 422: unknown field response_format", retryable=True, status=422)
    outs, alone = _run([first], 5)
    assert alone == [True]
    assert {str(o) for o in outs} == {str(outs[0])} and "field response_format" in str(outs[0])
    assert all(isinstance(o, ModelError) and not o.retryable for o in outs)
