"""``forgebench propose --model SPEC``: ask a model for edit specifications as JSON.

Seed 000 §3.2: "A multimodal model proposes edit specifications, which are verified against
Wikidata or curated fact tables before rendering." Per scene, the model sees the seed image, its
scene record and the fact table (as JSON), and is asked for a JSON array of specifications in the
fields of :class:`~forgebench.construct.specs.EditSpec` (prompt :data:`PROMPT_VERSION`, ours). The
answer's first JSON array is parsed and every element validated; an answer that is not a JSON
array, or holds an invalid element, is asked again with the error appended (up to ``retries``
times), and a scene whose answers stay invalid yields no proposal and one recorded failure.
The scenes are asked in rounds, each round one batch through the engine's runner (the first
question of every scene, then the follow-ups of those answered invalidly); answers are stored in
the work store (``OUT/work/run.sqlite``, :class:`~forgebench.construct.ask.Asker`), so a rerun
asks nothing twice, and the work folder's lock keeps a second process from asking the same.
The model's proposals are candidates: verification decides, and any contradiction it wrote is
replaced by the one computed from the facts.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

from forgebench.construct.ask import Ask, Asker, AskError
from forgebench.construct.facts import Knowledge
from forgebench.construct.scenes import SceneRecord
from forgebench.construct.specs import EditSpec, SpecFileError, parse_spec
from forgebench.construct.workstore import WorkStore
from forgebench.run.lock import run_lock

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
        except SpecFileError as exc:
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


async def propose_scenes(
    asker: Asker,
    scenes: list[SceneRecord],
    k: Knowledge,
    seed_root: Path,
    n: int = 3,
    retries: int = 2,
) -> dict[str, tuple[list[EditSpec], str | None]]:
    """Scene id -> (specifications, None) or ([], why) after the last retry."""
    prompts = {s.id: scene_prompt(s, k, n) for s in scenes}
    out: dict[str, tuple[list[EditSpec], str | None]] = {}
    why: dict[str, str] = {}
    todo = list(scenes)
    for _ in range(retries + 1):
        if not todo:
            break
        asks = [Ask(PROMPT_VERSION, prompts[s.id], seed_root / s.image, s.id) for s in todo]
        answers = await asker.ask_many(asks)
        again = []
        for scene, text in zip(todo, answers, strict=True):
            if isinstance(text, AskError):
                out[scene.id] = ([], str(text))
                continue
            try:
                out[scene.id] = (parse_answer(text, scene, asker.name), None)
            except ValueError as exc:
                why[scene.id] = str(exc)
                prompts[scene.id] += (
                    f"\n\nYour previous answer was invalid: {exc}. "
                    "Answer again with only the JSON array."
                )
                again.append(scene)
        todo = again
    for scene in todo:
        out[scene.id] = ([], f"invalid answer after {retries + 1} tries: {why[scene.id]}")
    return out


def propose_with_model(
    spec: str,
    k: Knowledge,
    seed_root: Path,
    work: Path,
    n: int = 3,
    retries: int = 2,
    wait: bool = False,
) -> tuple[list[EditSpec], dict[str, str]]:
    """Ask for every scene, holding ``work``'s lock (:class:`~forgebench.run.lock.RunLocked`
    when another process holds it, unless ``wait``); returns the proposals and, per failed
    scene, why."""

    asker = Asker(spec)  # a bad spec fails here, before the work folder is touched

    async def run() -> dict[str, tuple[list[EditSpec], str | None]]:
        try:
            return await propose_scenes(asker, list(k.scenes.values()), k, seed_root, n, retries)
        finally:
            await asker.aclose()

    with run_lock(work, "propose", wait=wait):
        asker.work = WorkStore(work)
        try:
            results = asyncio.run(run())
        finally:
            asker.work.close()
    specs = [s for sid in k.scenes for s in results[sid][0]]
    failed = {sid: why for sid in k.scenes if (why := results[sid][1])}
    return specs, failed
