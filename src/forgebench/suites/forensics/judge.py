"""The extractors of the chain as the judge stage: ``forgebench judge RUN --judge SPEC``.

Only answers the stages before it leave undecided are sent (:func:`.extract_chain.undecided`):
for ``builtin/embed``, those the rules leave undecided; for an LLM, those that ``builtin/embed``
(where it has judged the run) did not decide either. ``--extraction`` names the rules
(``rules``, ``release-rules``). The LLM reads the question, the options and the answer: our prompt
(:func:`.llm_extractor.extractor_prompt`, :func:`.llm_extractor.parse_extractor_reply`), or with
``--extractor-prompt release`` the release's matcher prompt (:mod:`.release_match`), whose reply
is read as the release reads it and asked again up to three times in all when it cannot be read;
where the release would then draw a random letter, ``Z`` is stored (its raw reply says so).
``builtin/embed`` gets the question, options and answer in the request's ``meta["extract"]``.

Letters are stored as judgements of kind ``letter`` under the judge's name (``builtin/embed``;
an LLM's name, with ``+release`` for the release prompt); resumable: a task the judge has
already judged is not asked again. ``forgebench metrics RUN --judge NAME`` uses them;
metrics.csv's ``judge`` column then names it. Transport errors are retried by the runner and
reported, never stored as a letter.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from forgebench.models.base import Model, Request, Response
from forgebench.models.registry import create_model
from forgebench.models.spec import ModelConfig
from forgebench.run.judge_stage import JudgeStage, judge_session, run_stage
from forgebench.run.judging import JudgeSettings
from forgebench.run.send.runner import Call, CallOutcome
from forgebench.run.store import Judgement, Store
from forgebench.suites.base import SuiteError
from forgebench.suites.forensics.embed_extract import VERSION as EMBED_VERSION
from forgebench.suites.forensics.extract import NO_OPTION
from forgebench.suites.forensics.extract_chain import EMBED_JUDGE, LETTER_KIND, rules_for, undecided
from forgebench.suites.forensics.ids import MCQ_CHOICE
from forgebench.suites.forensics.llm_extractor import (
    EXTRACTOR_VERSION,
    extractor_prompt,
    parse_extractor_reply,
)
from forgebench.suites.forensics.release_match import (
    RELEASE_PROMPT_VERSION,
    RELEASE_TRIES,
    parse_release_reply,
    release_prompt,
)
from forgebench.suites.forensics.scores import BENCHMARK

PROMPTS = ("default", "release")
"""Values of ``--extractor-prompt``."""


@dataclass
class ExtractorStats:
    """What one extractor pass did."""

    judge: str
    undecided: int = 0
    """Answers the rules left undecided."""
    existing: int = 0
    judged: int = 0
    letters: int = 0
    """Of ``judged``, replies naming an option (the rest are Z)."""
    errors: int = 0
    errors_text: str = ""
    """``errors`` as the summary says it (with the first reason when every call failed)."""
    fatal: str | None = None
    """Why the extractor stopped early (the runner gave up on it), if it did."""
    elapsed_s: float = 0.0

    def summary(self) -> str:
        return (
            f"extractor {self.judge}: {self.undecided} undecided answers, {self.existing} already "
            f"judged, {self.judged} judged now ({self.letters} to a letter, "
            f"{self.judged - self.letters} to Z), {self.errors_text or f'{self.errors} errors'}, "
            f"{self.elapsed_s:.1f} s"
        )


def _todo(
    store: Store, judge: str, extraction: str | None
) -> tuple[list[tuple[str, str, dict[str, str], str]], int]:
    rules = rules_for(extraction)
    done = store.judged_keys(judge, LETTER_KIND)
    embedded = store.judged_values(EMBED_JUDGE, LETTER_KIND) if judge != EMBED_JUDGE else {}
    todo, existing = [], 0
    for rec in store.records(BENCHMARK, answered=True):
        if rec.probe == MCQ_CHOICE:  # read as the letter it is, never sent to an extractor
            continue
        extra = rec.extra
        options = {str(k): str(v) for k, v in (extra.get("options") or {}).items()}
        text = rec.text or ""
        question = str(extra.get("question", ""))
        if not undecided(rules(text, options, question), embedded.get(rec.key)):
            continue
        if rec.key in done:
            existing += 1
            continue
        todo.append((rec.key, question, options, text))
    return todo, existing


class ReleaseTries:
    """The release's loop around its matcher: ask again while the reply cannot be read, three
    tries in all (transport retries stay the runner's). The last reply is returned, with every
    reply of the loop in ``raw["release_replies"]``."""

    def __init__(self, inner: Model) -> None:
        self.inner = inner
        self.name = inner.name

    async def generate(self, request: Request) -> Response:
        options = request.meta["options"]
        replies: list[str] = []
        for _ in range(RELEASE_TRIES):
            response = await self.inner.generate(request)
            replies.append(response.text)
            if parse_release_reply(response.text, options) is not None:
                break
        response.raw = {**response.raw, "release_replies": replies}
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


def _is_embed(config: ModelConfig) -> bool:
    return config.parsed.provider == "builtin" and config.parsed.model == "embed"


def _prompt_choice(settings: JudgeSettings) -> str:
    choice = settings.options.get("extractor_prompt") or "default"
    if choice not in PROMPTS:
        raise SuiteError(f"--extractor-prompt must be one of {', '.join(PROMPTS)}, not {choice!r}")
    return choice


async def extract_run_async(
    run_dir: Path,
    config: ModelConfig,
    settings: JudgeSettings | None = None,
    *,
    model: Model | None = None,
) -> ExtractorStats:
    """Ask the extractor about every undecided answer of the run (see the module docstring).
    ``settings`` override the judge config's concurrency, rate, attempts and timeout; their
    ``console`` draws a progress bar. ``model`` replaces the one the config would create."""
    started = time.monotonic()
    settings = settings or JudgeSettings()
    extraction = settings.options.get("extraction")
    rules_for(extraction)  # a bad value is refused before anything is opened
    embed = _is_embed(config)
    release = _prompt_choice(settings) == "release" and not embed
    owned: Model | None = None
    if release and model is None:
        model = owned = ReleaseTries(create_model(config))
    elif release and model is not None:
        model = ReleaseTries(model)
    try:
        return await _extract(run_dir, config, settings, model, embed, release, extraction, started)
    finally:
        if owned is not None:
            await owned.aclose()


async def _extract(
    run_dir: Path, config: ModelConfig, settings: JudgeSettings, model: Model | None,
    embed: bool, release: bool, extraction: str | None, started: float,
) -> ExtractorStats:  # fmt: skip
    async with judge_session(run_dir, config, model) as (store, judge_model):
        name = EMBED_JUDGE if embed else judge_model.name + ("+release" if release else "")
        todo, existing = _todo(store, name, extraction)
        stats = ExtractorStats(judge=name, undecided=len(todo) + existing, existing=existing)
        options_of = {key: opts for key, _q, opts, _t in todo}
        params = config.generation_params()

        def calls() -> Iterator[Call]:
            for key, question, options, text in todo:
                meta: dict[str, object] = {"task_key": key, "options": options}
                if embed:
                    meta["extract"] = {"question": question, "options": options, "answer": text}
                    prompt = text
                elif release:
                    prompt = release_prompt(question, options, text)
                else:
                    prompt = extractor_prompt(question, options, text)
                yield Call(key, Request(prompt=prompt, params=dict(params), meta=meta))

        def on_reply(out: CallOutcome, response: Response) -> Judgement:
            options = options_of[out.key]
            raw = response.text
            if release:
                read = parse_release_reply(response.text, options)
                letter = read or NO_OPTION
                if read is None:
                    raw += f"\n[{RELEASE_TRIES} tries unread: the release draws a random letter; Z]"
            elif embed:
                letter = response.text if response.text in {*options, NO_OPTION} else NO_OPTION
                raw = json.dumps(response.raw, ensure_ascii=False)
            else:
                letter = parse_extractor_reply(response.text, options)
            stats.letters += letter != "Z"
            version = (
                RELEASE_PROMPT_VERSION if release else EMBED_VERSION if embed else EXTRACTOR_VERSION
            )
            return Judgement(
                task_key=out.key, judge=name, kind=LETTER_KIND, status="graded",
                version=version, judge_spec=config.spec, value=letter,
                raw=raw, attempts=out.attempts,
            )  # fmt: skip

        stage = JudgeStage(f"extract {name}", calls(), len(todo), on_reply)
        result = await run_stage(store, judge_model, config, settings, stage)
    stats.judged, stats.errors, stats.fatal = result.judged, result.errors, result.fatal
    stats.errors_text = result.errors_text()
    stats.elapsed_s = time.monotonic() - started
    return stats


def extract_run(
    run_dir: Path, config: ModelConfig, settings: JudgeSettings | None = None
) -> ExtractorStats:
    """Synchronous :func:`extract_run_async`."""
    return asyncio.run(extract_run_async(Path(run_dir), config, settings))
