"""The Forensics suite (seed 002) behind the seam: the release TSV and our JSONL folder, the
release's MCQ prompt, option extraction (rules, then ``builtin/embed`` and an LLM extractor as
judge stages; ``--extraction``, ``--extractor-prompt``), accuracy and perspective scores, robustness, attribution and the prompt studies.

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
(``vlmevalkit/FILE`` replays stay ``full``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgebench.suites.base import (
    DatasetWriter,
    Headline,
    ImportSettings,
    ItemTags,
    JudgeOutcome,
    Loaded,
    Output,
    Section,
    Selection,
    Suite,
    SuiteError,
    SuiteOption,
    Validation,
)
from forgebench.suites.forensics.ids import CONDITIONS, MCQ, MCQ_CHOICE, PROBES, TILED
from forgebench.suites.forensics.protocol import PARTS, protocol, stratified
from forgebench.suites.forensics.taxonomy import PERSPECTIVES

if TYPE_CHECKING:
    import pandas as pd
    import typer

    from forgebench.interop.layout import DatasetLayout
    from forgebench.interop.run_formats import RunWriter
    from forgebench.models.spec import ModelConfig
    from forgebench.run.images import VariantCache
    from forgebench.run.judging import JudgeSettings
    from forgebench.run.tasks import Question
    from forgebench.suites.forensics.contract import ForensicsItem
    from forgebench.suites.forensics.questions import ForensicsQuestion, ImageSpec


def _variant(spec: ImageSpec, condition: str, cache: VariantCache | None = None) -> Any:
    """The variant a question shows; the other frames' digests through ``cache``'s index of
    source files when given (a dataset prepared before is not read again)."""
    from forgebench.run.images import VariantSpec, source_info

    if spec.op == "file":
        return VariantSpec(source=spec.sources[0], condition="full")
    if condition == TILED:
        # hashed under the image condition ``full``, as a schema-4 store holds it: the tasks the
        # migration relabels keep the key this question makes
        condition = "full"
    info = cache.source_info if cache is not None else source_info
    others = [info(p).sha256 for p in spec.sources[1:]]
    from forgebench.suites.forensics.perturb import RENDERER_VERSION

    return VariantSpec(
        source=spec.sources[0],
        condition=condition,
        params={"op": spec.op, "seed": spec.seed, "more_sources": others},
        renderer=RENDERER_VERSION,
        render=lambda _data, _what: spec.render(),
    )


class ForensicsSuite(Suite):
    """Forensics-Bench: multiple-choice forgery questions over five perspectives."""

    name = "forensics"
    title = "Forensics-Bench (seed 002)"
    probes = PROBES
    conditions = CONDITIONS
    parts = PARTS
    verdict_codes = ("A", "B", "C", "D", "Z")
    """The viewer's verdict facet: the extracted option letter (``Z``: refusal or none found)."""
    group_labels = ("type", "modality")
    """The viewer's grouping facets: forgery type and forgery modality (``viewer_tags``)."""
    options = (
        SuiteOption(
            "extraction",
            "Forensics: which rules read the option letters: ours (rules) or the release's "
            "literal ones (release-rules, to reproduce Table 2)",
            stages=("judge", "metrics"),
            choices=("rules", "release-rules"),
            default="rules",
        ),
        SuiteOption(
            "extractor_prompt",
            "Forensics: the LLM extractor's prompt: ours (default) or the release's VLMEvalKit "
            "matcher prompt (release)",
            stages=("judge",),
            choices=("default", "release"),
            default="default",
        ),
    )
    headline = (
        Headline("MCQ", "full", "acc"),
        *(Headline("MCQ", "full", "persp", p) for p in PERSPECTIVES),
    )
    """Accuracy of the released questions and the five perspective scores."""
    interval_note = "items resampled"

    def export_target(
        self, item: Mapping[str, Any], probe: str, extra: Mapping[str, Any]
    ) -> str | None:
        answer = extra.get("answer") or item.get("answer")
        return str(answer) if answer else None

    def run_formats(self) -> Mapping[str, RunWriter]:
        from forgebench.suites.forensics.vlmevalkit_export import write_vlmevalkit

        return {"vlmevalkit": write_vlmevalkit}

    def dataset_formats(self) -> Mapping[str, DatasetWriter]:
        from forgebench.suites.forensics.interop import write_release_tsv

        return {"release-tsv": write_release_tsv}

    def dataset_layout(self) -> DatasetLayout:
        from forgebench.suites.forensics.interop import layout

        return layout()

    def detect(self, path: Path) -> bool:
        from forgebench.suites.forensics.marker import is_forensics_dataset

        return is_forensics_dataset(path)

    def validate(
        self, path: Path, progress: Callable[[int, int], None] | None = None
    ) -> Validation:
        from forgebench.suites.forensics.verbs import validate

        return validate(path)

    def imports(self, src: Path) -> bool:
        from forgebench.suites.forensics.verbs import imports

        return imports(src)

    def import_(
        self,
        src: Path,
        out: Path,
        settings: ImportSettings,
        progress: Callable[[int, int], None] | None = None,
    ) -> Output:
        from forgebench.suites.forensics.verbs import import_

        return import_(src, out, settings, progress)

    def prompt_templates(self) -> list[str]:
        from forgebench.suites.forensics.verbs import prompt_templates

        return prompt_templates()

    def prompts(self, dataset: Path, item_id: str) -> list[str]:
        from forgebench.suites.forensics.verbs import prompts

        return prompts(self, dataset, item_id)

    def load(self, path: Path, selection: Selection) -> Loaded:
        from forgebench.suites.forensics.contract import open_items

        try:
            items = open_items(path)
        except (OSError, ValueError) as exc:
            raise SuiteError(str(exc).splitlines()[0]) from None
        if selection.sample is not None and selection.sample < 1:
            raise SuiteError("--sample must be at least 1 (items per type code)")
        return Loaded(root=path, items=stratified(items, selection.sample))

    def questions(
        self,
        loaded: Loaded,
        selection: Selection,
        cache: VariantCache,
        *,
        render_images: bool = True,
    ) -> Iterable[Question]:
        from forgebench.run.tasks import Question
        from forgebench.suites.forensics.questions import expand

        probes, conditions = protocol(selection)  # errors now, before anything is rendered

        def bind(item: ForensicsItem, fq: ForensicsQuestion) -> Question:
            if len(fq.images) != 1 and fq.condition not in ("multi_image", "full"):
                raise SuiteError(f"item {fq.item_id}: {len(fq.images)} images in one question")
            specs = [_variant(im, fq.condition, cache) for im in fq.images]
            refs = cache.ensure_all(specs, render=render_images)
            extra: dict[str, Any] = {
                "options": fq.options, "answer": fq.answer, "type_code": item.type_code,
                "question": item.question if fq.probe in (MCQ, MCQ_CHOICE) else fq.text,
            }  # fmt: skip
            if fq.choice:  # the letters the server may answer (Request.choice)
                extra["choice"] = list(fq.choice)
            return Question(
                fq.item_id, fq.probe, fq.condition, fq.text, fq.version, extra=extra,
                benchmark=self.name, images=refs,
                fallback=bind(item, fq.fallback) if fq.fallback is not None else None,
            )  # fmt: skip

        def generate() -> Iterator[Question]:
            for it in loaded.items:  # one item at a time: the dataset stays on disk
                for fq in expand([it], loaded.root, probes=probes, conditions=conditions):
                    yield bind(it, fq)

        return generate()

    def score(
        self, run_dir: Path, judge: str | None, options: Mapping[str, str] | None = None
    ) -> Path | None:
        from forgebench.suites.forensics.run_score import score_run

        return score_run(run_dir, judge, (options or {}).get("extraction"))

    def judge(
        self, run_dir: Path, config: ModelConfig, settings: JudgeSettings
    ) -> JudgeOutcome | None:
        from forgebench.suites.forensics.judge import extract_run

        stats = extract_run(run_dir, config, settings)
        return JudgeOutcome(stats.judge, stats.summary(), stats.fatal)

    def summary(self, run_dir: Path, judge: str | None) -> list[Any]:
        from forgebench.suites.forensics.verbs import summary

        return summary(run_dir, judge)

    def tables(
        self, run_dir: Path, out_dir: Path | None, judge: str | None, reps: int = 2000
    ) -> Output:
        from forgebench.suites.forensics.verbs import tables

        return tables(run_dir, out_dir, judge)

    def figures(self, run_dir: Path, out_dir: Path | None, judge: str | None) -> Output:
        from forgebench.suites.forensics.verbs import figures

        return figures(run_dir, out_dir, judge)

    def export_rows(self, run_dir: Path, judge: str | None) -> pd.DataFrame:
        from forgebench.suites.forensics.verbs import export_rows

        return export_rows(run_dir, judge)

    def report(
        self, run_dir: Path, out_dir: Path, judge: str | None, dataset: Path | None = None
    ) -> Section | None:
        from forgebench.results.metrics_csv import read_metrics
        from forgebench.suites.forensics.report_section import write_report

        path = run_dir / "metrics.csv"
        if not path.is_file():
            return Section(
                self.title,
                "",
                notes=[f"warning: no metrics.csv yet (forgebench metrics {run_dir})"],
            )
        metrics = read_metrics(path, benchmark=self.name, judge=judge)
        if metrics.empty:
            return None
        from forgebench.report.groups import model_groups
        from forgebench.suites.forensics.item_view import write_item_view

        # the item page first: it validates the stored items, so a damaged row is one line
        # before any table or figure is written
        page = write_item_view(run_dir, out_dir, dataset)
        groups = model_groups(run_dir / "config.json", set(metrics["model"]))
        body, files, notes = write_report(metrics, out_dir, groups)
        if page is not None:
            files.append(page)
            body += (
                f"<p><a href='{page.name}'>Every item: image, options, answers and letters</a></p>"
            )
        return Section(title=self.title, html=body, files=files, notes=notes)

    def headline_intervals(self, run_dir: Path, out_dir: Path, judge: str | None) -> Any:
        from forgebench.suites.forensics.intervals import headline_intervals

        return headline_intervals(run_dir)

    def variant_views(
        self, dataset_root: Path, item: Mapping[str, Any]
    ) -> Iterator[tuple[str, Any]]:
        """What ``full`` showed when it is not the item's file (a video's tile; a candidate row
        tiled, as models of one image see it), as the tasks under that condition showed them
        (the report finds them among the item's answers, else renders the variant once); a
        multi-image row's files, in order."""
        if len(item.get("images") or ()) < 2:  # ``full`` shows a single image's file as it is
            return
        from forgebench.report.site_items import AskedImage
        from forgebench.suites.forensics.contract import validated
        from forgebench.suites.forensics.questions import shown_images
        from forgebench.suites.forensics.studies import candidate_row

        model = validated(item)
        shown = shown_images(model, dataset_root, "full")
        if shown and shown[0].op != "file":
            yield "as asked", AskedImage("full", lambda: _variant(shown[0], "full"))
        if candidate_row(model):  # as models of one image see it
            tiled = shown_images(model, dataset_root, TILED)[0]
            yield "tiled", AskedImage(TILED, lambda: _variant(tiled, TILED))
        if len(model.images) > 1:  # full or multi_image: each image apart, in order
            n = len(model.images)
            for k, rel in enumerate(model.images, start=1):
                yield f"image {k} of {n}", dataset_root / rel

    def viewer_answer(
        self, verdict: str | None, detail: Mapping[str, Any]
    ) -> tuple[str | None, str]:
        from forgebench.suites.forensics.item_view import found_by

        return verdict, found_by(detail) if verdict is not None else ""

    def viewer_facts(self, item: Mapping[str, Any]) -> list[tuple[str, str]]:
        from forgebench.suites.forensics.item_view import item_facts

        return item_facts(item)

    def viewer_tags(self, item: Mapping[str, Any]) -> ItemTags:
        from forgebench.suites.forensics.viewer_tags import item_tags

        return item_tags(item)

    def cli(self) -> typer.Typer:
        from forgebench.suites.forensics.cli import forensics_app

        return forensics_app

    def providers(self) -> Mapping[str, str]:
        return {
            "builtin/artefact": "forgebench.suites.forensics.artefact_model",
            "builtin/embed": "forgebench.suites.forensics.embed_extract",
            "vlmevalkit": "forgebench.suites.forensics.vlmevalkit_model",
        }

    def demo(self) -> Any:
        from forgebench.suites.forensics.demo_part import PART

        return PART


SUITE = ForensicsSuite()
