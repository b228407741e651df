"""``builtin/rules``: the deterministic evidence-ladder judge as a :class:`Model`.

It reads the structured judge input from ``Request.meta["judge_input"]`` (built by
``score.judge``), grades it with ``score.judge_rules.grade`` and replies with the same JSON object an
LLM judge must return, so the judge stage treats it like any other judge. It approximates the
Appendix F rubric by string matching (see ``judge_rules.py``); a request without
``judge_input`` is a non-retryable error (this model only judges).
"""

from __future__ import annotations

import json

from forgebench.models.base import ModelError, Request, Response, Usage
from forgebench.models.spec import ModelConfig
from forgebench.suites.mandela.judge_rules import grade
from forgebench.suites.mandela.uptake import reply_json, rules_uptake

JUDGES_ONLY = ("mandela",)
"""It grades Mandela's evidence-ladder judge requests only (``judge_input``)."""


class RulesJudge:
    """Offline rule-based judge."""

    def __init__(self, name: str) -> None:
        self.name = name

    async def generate(self, request: Request) -> Response:
        """Grade ``request.meta["judge_input"]`` (or ``["uptake_input"]``, Table 11's uptake and
        dispute) and reply with the judge JSON."""
        uptake = request.meta.get("uptake_input")
        if isinstance(uptake, dict):
            text = reply_json(rules_uptake(uptake))
            return Response(
                text=text, raw={"judge": "rules"}, usage=Usage(0, 0), finish_reason="stop"
            )
        judge_input = request.meta.get("judge_input")
        if not isinstance(judge_input, dict):
            raise ModelError(
                f"{self.name} only grades answers: the request carries no judge_input",
                retryable=False,
            )
        reply = grade(judge_input)
        text = json.dumps(
            {
                "level": reply.level,
                "reason": reply.reason,
                "identity_asserted": reply.identity_asserted,
                "contradiction_asserted": reply.contradiction_asserted,
            },
            ensure_ascii=False,
        )
        return Response(text=text, raw={"judge": "rules"}, usage=Usage(0, 0), finish_reason="stop")

    async def aclose(self) -> None:
        """Nothing to release."""


def create(config: ModelConfig) -> RulesJudge:
    """The rules judge under the spec's name (``builtin/rules`` unless aliased)."""
    return RulesJudge(config.name)
