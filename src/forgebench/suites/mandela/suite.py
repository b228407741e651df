"""The Mandela suite (seed 000) behind the seam: its dataset folder, protocol table, prompts,
verdict parsers, E0-E4 judge, metrics, tables, figures and report headline.

Registered as a built-in entry of the suite registry (``forgebench.suites``). It brings ``builtin/rules``
(the offline evidence-ladder judge) and ``builtin/verifier`` (the knowledge verifier) as
providers. The bodies of its verb hooks live in :mod:`.verbs_dataset` and :mod:`.verbs_run`. ``--sample N`` keeps the items of the first N
seeds (canonical images, in file order), so paired analyses (a forgery and its original) stay
complete.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgebench.suites.base import (
    Headline,
    ImportSettings,
    ItemCard,
    ItemTags,
    JudgeOutcome,
    Loaded,
    Output,
    Section,
    Selection,
    Suite,
    SuiteError,
    TaskMatrix,
    Validation,
)
from forgebench.suites.mandela.ids import CONDITIONS, PROBES
from forgebench.suites.mandela.protocol_table import PARTS

if TYPE_CHECKING:
    import pandas as pd

    from forgebench.construct.parts import Construction
    from forgebench.interop.layout import DatasetLayout
    from forgebench.models.spec import ModelConfig
    from forgebench.run.images import VariantCache, VariantSpec
    from forgebench.run.judging import JudgeSettings
    from forgebench.run.tasks import Question
    from forgebench.suites.mandela.contract import Dataset


def sample_seeds(ds: Dataset, n: int | None) -> Dataset:
    """The dataset cut to the items of its first ``n`` seeds (in file order)."""
    from forgebench.suites.mandela.contract import Dataset

    if n is None:
        return ds
    keep = set(list(dict.fromkeys(it.seed_id for it in ds.items))[:n])
    return Dataset(root=ds.root, items=[it for it in ds.items if it.seed_id in keep], kb=ds.kb)


class MandelaSuite(Suite):
    """Mandela-Bench: knowledge-only forgeries of canonical images."""

    name = "mandela"
    title = "Mandela-Bench (seed 000)"
    probes = PROBES
    conditions = CONDITIONS
    parts = PARTS
    verdict_codes = (
        "FAKE", "REAL", "MISS", "YES", "NO", "RECOGNISED", "NOT_RECOGNISED",
        "NAMES", "CANNOT", "KNOWN", "UNKNOWN",
    )  # fmt: skip
    """The viewer's verdict facet: every code of ``verdict.VERDICTS``, the L0/L1 ones first."""
    level_codes = ("E0", "E1", "E2", "E3", "E4")
    """The viewer's level facet: the evidence ladder of the judge (Appendix F)."""
    group_labels = ("family", "domain")
    """The viewer's grouping facets: knowledge family (K0-K6) and image domain."""
    headline = tuple(Headline("L0", "full", m) for m in ("kgr", "det", "bal"))
    interval_note = "seeds resampled"
    """KGR, detection and balanced accuracy of the L0 question on every item."""

    def export_target(
        self, item: Mapping[str, Any], probe: str, extra: Mapping[str, Any]
    ) -> str | None:
        from forgebench.suites.mandela.interop import target

        return target(item, probe)

    def dataset_layout(self) -> DatasetLayout:
        from forgebench.suites.mandela.interop import layout

        return layout()

    def detect(self, path: Path) -> bool:
        return (path / "items.jsonl").is_file()

    def validate(
        self, path: Path, progress: Callable[[int, int], None] | None = None
    ) -> Validation:
        from forgebench.suites.mandela.verbs_dataset import validate

        return validate(path, progress)

    def imports(self, src: Path) -> bool:
        from forgebench.suites.mandela.verbs_dataset import imports

        return imports(src)

    def import_(
        self,
        src: Path,
        out: Path,
        settings: ImportSettings,
        progress: Callable[[int, int], None] | None = None,
    ) -> Output:
        from forgebench.suites.mandela.verbs_dataset import import_

        return import_(src, out, settings, progress)

    def prompt_templates(self) -> list[str]:
        from forgebench.suites.mandela.verbs_dataset import prompt_templates

        return prompt_templates()

    def prompts(self, dataset: Path, item_id: str) -> list[str]:
        from forgebench.suites.mandela.verbs_dataset import prompts

        return prompts(dataset, item_id)

    def task_matrix(self, dataset: Path, selection: Selection) -> TaskMatrix:
        from forgebench.suites.mandela.verbs_dataset import task_matrix

        return task_matrix(dataset, selection)

    def load(self, path: Path, selection: Selection) -> Loaded:
        from forgebench.suites.mandela.contract import DatasetError, load_dataset
        from forgebench.suites.mandela.preflight import check_dataset

        try:
            check_dataset(path)  # run refuses what validate rejects
            ds = sample_seeds(load_dataset(path), selection.sample)
        except DatasetError as exc:
            raise SuiteError(str(exc)) from None
        return Loaded(root=ds.root, items=ds.items, data=ds)

    def questions(
        self,
        loaded: Loaded,
        selection: Selection,
        cache: VariantCache,
        *,
        render_images: bool = True,
    ) -> Iterable[Question]:
        from forgebench.suites.mandela.expand import expand

        try:
            return expand(
                loaded.data,
                list(selection.probes) if selection.probes is not None else None,
                list(selection.conditions) if selection.conditions is not None else None,
                cache,
                render_images=render_images,
                parts=selection.parts,
            )
        except ValueError as exc:  # unknown probe / condition, ConditionError
            raise SuiteError(str(exc)) from None

    def score(
        self, run_dir: Path, judge: str | None, options: Mapping[str, str] | None = None
    ) -> Path | None:
        from forgebench.suites.mandela.metrics import write_metrics

        self.parse(run_dir)
        return write_metrics(run_dir, judge)

    def parse(self, run_dir: Path) -> str | None:
        from forgebench.suites.mandela.verbs_run import parse

        return parse(run_dir)

    def judge(
        self, run_dir: Path, config: ModelConfig, settings: JudgeSettings
    ) -> JudgeOutcome | None:
        from forgebench.suites.mandela.judge import judge_run

        self.parse(run_dir)
        stats = judge_run(run_dir, config.spec, settings, config=config)
        return JudgeOutcome(judge=stats.judge, summary=stats.summary(), fatal=stats.fatal)

    def summary(self, run_dir: Path, judge: str | None) -> list[Any]:
        from forgebench.suites.mandela.verbs_run import summary

        return summary(run_dir, judge)

    def tables(
        self, run_dir: Path, out_dir: Path | None, judge: str | None, reps: int = 2000
    ) -> Output:
        from forgebench.suites.mandela.verbs_run import tables

        return tables(run_dir, out_dir, judge, reps)

    def figures(self, run_dir: Path, out_dir: Path | None, judge: str | None) -> Output:
        from forgebench.suites.mandela.verbs_run import figures

        return figures(run_dir, out_dir, judge)

    def export_rows(self, run_dir: Path, judge: str | None) -> pd.DataFrame:
        from forgebench.suites.mandela.verbs_run import export_rows

        return export_rows(run_dir, judge)

    def calibrate_sample(
        self, run_dir: Path, n: int, judge: str | None, seed: int, out: Path | None
    ) -> Output:
        from forgebench.suites.mandela.verbs_run import calibrate_sample

        return calibrate_sample(run_dir, n, judge, seed, out)

    def calibrate_score(
        self, run_dir: Path, human: Path | None, judge: str | None, against: str | None
    ) -> Output:
        from forgebench.suites.mandela.verbs_run import calibrate_score

        return calibrate_score(run_dir, human, judge, against)

    def report(
        self, run_dir: Path, out_dir: Path, judge: str | None, dataset: Path | None = None
    ) -> Section | None:
        from forgebench.suites.mandela.figures import write_figures
        from forgebench.suites.mandela.headline import headline_html
        from forgebench.suites.mandela.tables import ReportError, write_tables

        notes: list[str] = []
        files: list[Path] = []
        if not (run_dir / "metrics.csv").is_file():
            notes.append(
                f"warning: no metrics.csv yet (forgebench metrics {run_dir}): "
                "tables and figures skipped"
            )
        else:
            try:
                tables = write_tables(run_dir, out_dir, judge=judge)
                notes += [f"  table {n} skipped: {why}" for n, why in tables.skipped]
                files += write_figures(run_dir, out_dir / "figures", judge=judge)
            except ReportError as exc:
                notes.append(f"warning: tables and figures skipped: {exc}")
        html = headline_html(run_dir, out_dir, judge)
        return Section(title=self.title, html=html, files=files, notes=notes)

    def headline_intervals(self, run_dir: Path, out_dir: Path, judge: str | None) -> Any:
        """The cluster-bootstrap intervals its report wrote (``report/bootstrap_ci.csv``:
        seeds resampled, :mod:`forgebench.analysis.bootstrap`)."""
        import pandas as pd

        path = out_dir / "bootstrap_ci.csv"
        if not path.is_file():
            return None
        ci = pd.read_csv(path, dtype={"model": "object"})
        return ci.assign(subset="all")

    def variant_views(
        self, dataset_root: Path, item: Mapping[str, Any]
    ) -> Iterator[tuple[str, VariantSpec]]:
        """The crop, mirror and face canvases as the variants the tasks show: the report takes
        them from the run's variant cache (or its own pictures), rendering only a missing one."""
        from forgebench.suites.mandela.conditions import variant_spec
        from forgebench.suites.mandela.contract import Item

        model = Item.model_validate(item)
        for cond in ("crop", "mirror", "face_original", "face_replacement"):
            if cond == "crop" and model.crop is None:
                continue
            if cond.startswith("face_") and model.faces is None:
                continue
            spec = variant_spec(dataset_root, model, cond)
            if spec is not None:
                yield cond, spec

    def viewer_tags(self, item: Mapping[str, Any]) -> ItemTags:
        """Grouped by family and domain; listed as label, family, domain, saliency; tagged with
        the K1 subtype and triple variant too; found by seed, entity, contradiction and event.
        Read from the stored dict as it is (an item the contract would now reject still shows)."""

        def text(key: str) -> str:
            return str(item.get(key) or "")

        def name(key: str, sub: str) -> str:
            value = item.get(key)
            return str(value.get(sub) or "") if isinstance(value, Mapping) else ""

        return ItemTags(
            groups=(text("family"), text("domain")),
            line=(text("label"), text("family"), text("domain"), text("saliency")),
            tags=tuple(text(k) for k in ("label", "family", "k1_type", "variant", "domain", "saliency")),
            search=(text("seed_id"), name("entity", "name"), text("contradiction"), name("event", "label")),
        )  # fmt: skip

    def viewer_card(self, item: Mapping[str, Any]) -> ItemCard:
        """Family, entity, event, edit... rows; the edit region outlined; paired with the
        authentic item of its seed (:mod:`.viewer_card`)."""
        from forgebench.suites.mandela.viewer_card import item_card

        return item_card(item)

    def rubric(self) -> str:
        from forgebench.suites.mandela.rubric import RUBRIC

        return str(RUBRIC)

    def providers(self) -> Mapping[str, str]:
        return {
            "builtin/rules": "forgebench.suites.mandela.rules_model",
            "builtin/verifier": "forgebench.suites.mandela.verifier.model",
        }

    def construction(self) -> Construction:
        from forgebench.suites.mandela.construct.parts import CONSTRUCTION

        return CONSTRUCTION

    def demo(self) -> Any:
        from forgebench.suites.mandela.demo_part import PART

        return PART


SUITE = MandelaSuite()
