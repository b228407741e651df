"""Forensics' verbs behind the seam: ``validate``, ``prompts``, the
console summary, tables, figures and the export's own columns (what its
facets call; ``suites/facets.py`` says what each returns)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgebench.suites.base import Output, Selection, SuiteError, Validation

if TYPE_CHECKING:
    import pandas as pd

    from forgebench.suites.base import Suite


def validate(path: Path) -> Validation:
    """Every problem of a Forensics folder; when valid, its items by task."""
    from forgebench.suites.forensics.validate import validate_forensics

    report = validate_forensics(path)
    tasks = ", ".join(f"{k} {v}" for k, v in sorted(report.by_task.items()))
    return Validation(
        errors=[str(p) for p in report.errors],
        warnings=[str(p) for p in report.warnings],
        summary=[f"forensics dataset: {report.items} items ({tasks})"] if not report.errors else [],
        items=report.items,
    )


def prompt_templates() -> list[str]:
    """The multiple-choice prompt as the release asks it (VLMEvalKit's layout)."""
    from forgebench.suites.forensics.prompt import MCQ_VERSION, render_text

    text = render_text("{question}", {"A": "{A}", "B": "{B}", "...": "..."}, hint="{hint}")
    return [
        f"MCQ\nversion: {MCQ_VERSION}\ntitle: the release's multiple-choice question "
        f"(images first; the Hint line only when the row has one)\n{text}"
    ]


def prompts(suite: Suite, dataset: Path, item_id: str) -> list[str]:
    """The exact prompts one item receives under the default protocol."""
    from forgebench.run.images import VariantCache

    loaded = suite.load(dataset, Selection())
    one = [it for it in loaded.items if str(getattr(it, "id", "")) == item_id]
    if not one:
        raise SuiteError(f"{dataset}: no item {item_id!r}")
    loaded.items = one
    blocks = []
    for q in suite.questions(loaded, Selection(), VariantCache(), render_images=False):
        for shown, who in ((q, ""), (q.fallback, " (in its place for max_images = 1)")):
            if shown is not None:
                blocks.append(
                    f"{shown.probe} / {shown.condition}{who}\nversion: {shown.prompt_version}\n"
                    f"images: {len(shown.images)}\n---\n{shown.prompt}"
                )
    return blocks


def _metrics(run_dir: Path, judge: str | None) -> pd.DataFrame | None:
    from forgebench.results.metrics_csv import read_metrics

    path = run_dir / "metrics.csv"
    if not path.is_file():
        return None
    m = read_metrics(path, benchmark="forensics", judge=judge)
    return None if m.empty else m


def summary(run_dir: Path, judge: str | None) -> list[Any]:
    """Table 2 and the Z share (probe MCQ, condition full) as a console table."""
    from forgebench.suites.forensics.report_section import summary_table

    m = _metrics(run_dir, judge)
    table = summary_table(m) if m is not None else None
    return [table] if table is not None else []


def _need_metrics(run_dir: Path, judge: str | None) -> pd.DataFrame:
    m = _metrics(run_dir, judge)
    if m is None:
        raise SuiteError(f"{run_dir / 'metrics.csv'}: no Forensics metrics (score the run first)")
    return m


def tables(run_dir: Path, out_dir: Path | None, judge: str | None) -> Output:
    """Tables 2, 3, 4, 12-14 and the per-type tables as CSV, Markdown and LaTeX."""
    from forgebench.report.groups import model_groups
    from forgebench.suites.forensics.report_section import write_tables

    out = out_dir if out_dir is not None else run_dir / "report"
    metrics = _need_metrics(run_dir, judge)
    groups = model_groups(run_dir / "config.json", sorted(set(metrics["model"])))
    files, notes, _shown, _downloads = write_tables(metrics, out, groups)
    written = ", ".join(p.name for p in files if p.suffix == ".csv") or "none"
    return Output(files=files, lines=[f"forensics tables written: {written}"], notes=notes)


def figures(run_dir: Path, out_dir: Path | None, judge: str | None) -> Output:
    """Figures 4-8 (accuracy by each perspective) as PNG and SVG."""
    from forgebench.suites.forensics.figures import write_figures

    out = out_dir if out_dir is not None else run_dir / "report" / "figures"
    written = write_figures(_need_metrics(run_dir, judge), out)
    notes = (
        [] if written else [f"forensics: {run_dir / 'metrics.csv'}: no numbers any figure needs"]
    )
    return Output(files=written, lines=[str(p) for p in written], notes=notes)


def export_rows(run_dir: Path, judge: str | None) -> pd.DataFrame:
    """Each task's type code and its five perspective values, the right letter, the extracted
    letter, how it was found (``letter``, ``text``, ``embed``, ``extractor``, ``missing``, or for a
    ``Z`` of the rules why: ``two_options``, ``hedge``, ``refusal``, ``nothing``) and whether it is
    correct; verdicts stored as ``metrics`` stores them."""
    from forgebench.run.store import Store
    from forgebench.suites.forensics.run_score import score_frame
    from forgebench.suites.forensics.taxonomy import PERSPECTIVES

    with Store.open(run_dir, create=False) as store:
        frame, verdicts = score_frame(store, judge)
        store.put_verdicts(verdicts)
    cols = ["task_key", "type_code", *(f"persp_{p}" for p in PERSPECTIVES)]
    cols += ["answer", "letter", "found_by", "extractor", "correct"]
    if frame.empty:
        import pandas as pd

        return pd.DataFrame(columns=cols)
    parts = frame["type_code"].str.split("-", expand=True).reindex(columns=range(5))
    for k, p in enumerate(PERSPECTIVES):
        frame[f"persp_{p}"] = parts[k]
    # a Z of the rules says why (two_options, hedge, refusal, nothing) instead of its step
    if "why" in frame:
        why = frame["why"].fillna("").astype(str)
        frame["step"] = frame["step"].where(why == "", why)
    frame = frame.rename(columns={"step": "found_by", "judge": "extractor"})
    return frame[cols]
