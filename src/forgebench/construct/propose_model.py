"""``forgebench propose --model SPEC``: ask a model for edit specifications as JSON.

Seed 000 §3.2: "A multimodal model proposes edit specifications, which are verified against
Wikidata or curated fact tables before rendering." Per scene, the model sees the seed image, its
scene record and the fact table (as JSON), and is asked for a JSON array of specifications in the
fields of :class:`~forgebench.construct.specs.EditSpec` (prompt :data:`PROMPT_VERSION`, ours). The
answer's first JSON array is parsed and every element validated; an answer that is not a JSON
array, or holds an invalid element, is asked again with the error appended (up to ``retries``
times), and a scene whose answers stay invalid yields no proposal and one recorded failure.
Answers are stored (:class:`~forgebench.construct.ask.Asker`), so a rerun asks nothing twice.
The model's proposals are candidates: verification decides, and any contradiction it wrote is
replaced by the one computed from the facts.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

from forgebench.construct.ask import Asker, AskError
from forgebench.construct.facts import Knowledge
from forgebench.construct.scenes import SceneRecord
from forgebench.construct.specs import EditSpec, SpecError, parse_spec

PROMPT_VERSION = "propose-v1"
MAX_FACTS = 200
"""Fact-table entities shown to the model per scene (the first ones)."""

PROMPT = """You design knowledge-only image forgeries for a benchmark. The image is a canonical {noun} with this scene record:
{scene}

Fact table (entities with dates and places):
{facts}

Propose up to {n} edits. Each must contradict exactly one recorded fact (a person dead or not yet born at the event date, an object introduced after it, a landmark of another place, changed visible text, a changed attribute of a recorded object) and be otherwise plausible. Answer with only a JSON array of objects with these fields:
"family" ("K1".."K6"), "k1_type" (K1 only: "date_impossible", "cross_domain" or "absent_celebrity"), "operation" ("insert", "replace", "remove", "recolour", "retext"), "region" ([x0, y0, x1, y1] pixel box in the image), "saliency" ("C1", "C2" or "C3"), "instruction" (one sentence for the image editor), "entity" ({{"name": ..., "role": ...}}: what is inserted; use fact-table names), "target" (the recorded element acted on, if any), "text" (K4: the new text), "attribute" (K5: {{"name": ..., "value": ...}})."""

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def _first_array(text: str) -> list[Any]:
    """The first JSON array in an answer (code fences allowed); ``ValueError`` otherwise."""
    m = _FENCE.search(text)
    body = m.group(1) if m else text
    start = body.find("[")
    if start < 0:
        raise ValueError("no JSON array in the answer")
    try:
        value, _ = json.JSONDecoder().raw_decode(body[start:])
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg} at char {exc.pos})") from None
    if not isinstance(value, list):
        raise ValueError("the answer's JSON is not an array")
    return value


def parse_answer(text: str, scene: SceneRecord, proposer: str) -> list[EditSpec]:
    """The specifications of one answer; ``ValueError`` naming the first problem."""
    out: list[EditSpec] = []
    for i, obj in enumerate(_first_array(text)):
        if not isinstance(obj, dict):
            raise ValueError(f"element {i} is not an object")
        row = {**obj, "id": f"{scene.id}-m{i}", "seed_id": scene.id, "proposer": proposer}
        row.pop("contradiction", None)
        try:
            out.append(parse_spec(row, f"element {i}"))
        except SpecError as exc:
            raise ValueError(str(exc)) from None
    return out


def scene_prompt(scene: SceneRecord, k: Knowledge, n: int) -> str:
    """The first question for one scene."""
    facts = [
        f.model_dump(mode="json", exclude_none=True, exclude={"portraits"})
        for f in list(k.facts.values())[:MAX_FACTS]
    ]
    record = scene.model_dump(mode="json", exclude_none=True, exclude={"image", "slots"})
    return PROMPT.format(
        noun=scene.noun or "image", scene=json.dumps(record), facts=json.dumps(facts), n=n
    )


async def propose_scene(
    asker: Asker, scene: SceneRecord, k: Knowledge, seed_root: Path, n: int = 3, retries: int = 2
) -> tuple[list[EditSpec], str | None]:
    """(specifications, None) or ([], why) after the last retry."""
    prompt = scene_prompt(scene, k, n)
    why = ""
    for _ in range(retries + 1):
        try:
            text = await asker.ask(PROMPT_VERSION, prompt, seed_root / scene.image)
        except AskError as exc:
            return [], str(exc)
        try:
            return parse_answer(text, scene, asker.name), None
        except ValueError as exc:
            why = str(exc)
            prompt = f"{prompt}\n\nYour previous answer was invalid: {why}. Answer again with only the JSON array."
    return [], f"invalid answer after {retries + 1} tries: {why}"


def propose_with_model(
    spec: str, k: Knowledge, seed_root: Path, ledger: Path, n: int = 3, retries: int = 2
) -> tuple[list[EditSpec], dict[str, str]]:
    """Ask for every scene; returns the proposals and, per failed scene, why."""

    async def run() -> tuple[list[EditSpec], dict[str, str]]:
        asker = Asker(spec, ledger)
        try:
            results = await asyncio.gather(
                *(propose_scene(asker, s, k, seed_root, n, retries) for s in k.scenes.values())
            )
        finally:
            await asker.aclose()
        specs = [s for r, _ in results for s in r]
        failed = {
            sc.id: why for sc, (_, why) in zip(k.scenes.values(), results, strict=True) if why
        }
        return specs, failed

    return asyncio.run(run())
