"""The Forensics suite (seed 002): the core. A dataset is the release TSV imported into our JSONL
folder (:mod:`.marker` recognises it); ``metrics`` reads the option letters (rules, then
``builtin/embed`` and an LLM extractor's letters) and writes accuracy and perspective scores
(:mod:`.run_score`); ``outcome`` is whether the letter read is the answer (:mod:`.outcome`).

Protocol (:mod:`.protocol`): ``MCQ`` under ``full`` on every item by default; the opt-in parts
of ``--protocol`` add robustness, JPEG, attribution, constrained answers (``choice``:
``MCQ_CHOICE``) and the prompt studies.

What ``full`` shows, per release row kind (:mod:`.studies` has the details): a single-image row,
its image; a video row released as frames, the frames tiled into one image (the paper's
"single-image input", Table 2's setting); a video row released as one tiled image, that image;
a candidate row (a segmentation or detection question: the item and its candidates), the images
as separate images, in order, as the release's evaluation sends them (its Table 2). A model that
takes one image per question (``max_images = 1`` in its models file) is asked such a row under
``tiled`` instead (the images tiled into one, in order); ``--conditions tiled`` asks it of every
model. ``multi_image`` (Table 11) sends the images of every row with more than one as separate
images, in order; a model of one image is refused before anything is sent when it is asked.

Answers are replayed by (``item_id``, probe ``MCQ``, condition ``full``) like any other suite
(``vlmevalkit/FILE`` replays stay ``full``). The rest are facets, one file each under
:mod:`.facets` (``--extraction`` and ``--extractor-prompt`` are its own options).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from forgebench.suites.base import (
    Headline,
    Loaded,
    Outcome,
    Protocol,
    Selection,
    Suite,
    SuiteOption,
    lazy,
)
from forgebench.suites.forensics.ids import CONDITIONS, PROBES
from forgebench.suites.forensics.marker import is_forensics_dataset
from forgebench.suites.forensics.protocol import PARTS, protocol
from forgebench.suites.forensics.taxonomy import PERSPECTIVES

if TYPE_CHECKING:
    from forgebench.run.images import VariantCache
    from forgebench.run.tasks import Question

_load = lazy("forgebench.suites.forensics.binding:load")
_questions = lazy("forgebench.suites.forensics.binding:questions")
_score_run = lazy("forgebench.suites.forensics.run_score:score_run")
_outcome = lazy("forgebench.suites.forensics.outcome:outcome")

EXTRACTION = SuiteOption(
    "extraction",
    "Forensics: which rules read the option letters: ours (rules) or the release's "
    "literal ones (release-rules, to reproduce Table 2)",
    stages=("judge", "metrics"),
    choices=("rules", "release-rules"),
    default="rules",
)
EXTRACTOR_PROMPT = SuiteOption(
    "extractor_prompt",
    "Forensics: the LLM extractor's prompt: ours (default) or the release's VLMEvalKit "
    "matcher prompt (release)",
    stages=("judge",),
    choices=("default", "release"),
    default="default",
)


class ForensicsSuite(Suite):
    """Forensics-Bench: multiple-choice forgery questions over five perspectives."""

    name = "forensics"
    title = "Forensics-Bench (seed 002)"
    protocol = Protocol(PROBES, CONDITIONS, PARTS, (EXTRACTION, EXTRACTOR_PROMPT))
    source = "the Forensics-Bench release TSV, imported with forgebench import"
    headline = (
        Headline("MCQ", "full", "acc"),
        *(Headline("MCQ", "full", "persp", p) for p in PERSPECTIVES),
    )
    """Accuracy of the released questions and the five perspective scores."""
    facets: ClassVar[Mapping[str, str]] = {
        "demo": ".facets.demo:DEMO",
        "dataset": ".facets.dataset:DATASET",
        "import": ".facets.importer:IMPORTER",
        "prompts": ".facets.prompts:PROMPTS",
        "judge": ".facets.judge:JUDGE",
        "tables": ".facets.tables:TABLES",
        "figures": ".facets.figures:FIGURES",
        "report": ".facets.report:REPORT",
        "viewer": ".facets.viewer:VIEWER",
        "export": ".facets.export:EXPORT",
        "commands": ".facets.commands:COMMANDS",
        "providers": ".facets.providers:PROVIDERS",
    }

    def detect(self, path: Path) -> bool:
        return is_forensics_dataset(path)

    def load(self, path: Path, selection: Selection) -> Loaded:
        loaded: Loaded = _load(path, selection)
        return loaded

    def questions(
        self,
        loaded: Loaded,
        selection: Selection,
        cache: VariantCache,
        *,
        render_images: bool = True,
    ) -> Iterable[Question]:
        probes, conditions = protocol(selection)  # errors now, before anything is rendered
        asked: Iterable[Question] = _questions(loaded, probes, conditions, cache, render_images)
        return asked

    def score(
        self, run_dir: Path, judge: str | None, options: Mapping[str, str] | None = None
    ) -> Path | None:
        written: Path | None = _score_run(run_dir, judge, (options or {}).get("extraction"))
        return written

    def outcome(self, run_dir: Path, judge: str | None) -> list[Outcome]:
        rows: list[Outcome] = _outcome(run_dir, judge)
        return rows


SUITE = ForensicsSuite()
