"""Mandela's run verbs behind the seam: the verdict stage, the console summary, tables, figures,
the export's own columns and the judge calibration (what Mandela's facets call;
``suites/facets.py`` says what each returns)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgebench.suites.base import Output, SuiteError
from forgebench.suites.mandela.contract import FAMILIES

if TYPE_CHECKING:
    import pandas as pd


def parse(run_dir: Path) -> str | None:
    """Store a verdict for every Mandela answer lacking one; a count line (None: none new)."""
    from forgebench.run.store import Store
    from forgebench.suites.mandela.parse_run import parse_run

    with Store.open(run_dir, create=False) as store:
        stats = parse_run(store)
    if not stats.parsed:
        return None
    return f"verdicts: {stats.parsed} answers parsed ({stats.misses} misses)"


def _fmt(v: object, signed: bool = False) -> str:
    if not isinstance(v, int | float) or math.isnan(v):
        return "—"
    return f"{v:+.1f}" if signed else f"{v:.1f}"


def summary(run_dir: Path, judge: str | None) -> list[Any]:
    """Table-2-style summary from the Mandela rows of ``RUN/metrics.csv``: per model KGR, Det,
    Auth, Bal under L0 and L1, L-adv Auth, L0 KGR by family and the elicitation gap."""
    from rich.table import Table

    from forgebench.results.metrics_csv import read_metrics

    path = Path(run_dir) / "metrics.csv"
    if not path.is_file():
        return []
    m = read_metrics(path, benchmark="mandela", judge=judge)
    if m.empty:
        return []
    lookup: dict[tuple[object, ...], object] = {
        (r.model, r.probe, r.condition, r.subset, r.metric): r.value
        for r in m.itertuples(index=False)
    }
    judges = sorted({str(j) for j in m["judge"].dropna() if str(j)})
    t = Table(title=f"Mandela results (strict scoring; judge: {', '.join(judges) or 'none'})")
    t.add_column("Model", overflow="fold")
    for probe in ("L0", "L1"):
        for k in ("KGR", "Det", "Auth", "Bal"):
            t.add_column(f"{probe}\n{k}", justify="right")
    t.add_column("L-adv\nAuth", justify="right")
    t.add_column("ΔKGR", justify="right")
    fam = Table(title="KGR by knowledge family (L0)")
    fam.add_column("Model")
    for f in FAMILIES:
        fam.add_column(f, justify="right")
    for model in sorted(set(m["model"])):
        cells = [str(model)]
        for probe in ("L0", "L1"):
            for k in ("kgr", "det", "auth", "bal"):
                cells.append(_fmt(lookup.get((model, probe, "full", "all", k))))
        cells.append(_fmt(lookup.get((model, "L-adv", "full", "all", "auth"))))
        cells.append(_fmt(lookup.get((model, "L1", "full", "all", "gap")), signed=True))
        t.add_row(*cells)
        fam.add_row(
            str(model), *(_fmt(lookup.get((model, "L0", "full", f, "kgr"))) for f in FAMILIES)
        )
    return [t, fam, "ΔKGR = KGR(L1) - KGR(L0), the elicitation gap; — = not in this run."]


def tables(run_dir: Path, out_dir: Path | None, judge: str | None, reps: int) -> Output:
    """Seed 000's tables as Markdown, LaTeX (booktabs) and CSV."""
    from forgebench.suites.mandela.tables import write_tables

    result = write_tables(run_dir, out_dir, judge=judge, reps=reps)
    numbers = ", ".join(str(t.number) for t in result.tables) or "none"
    return Output(
        files=result.files,
        lines=[
            f"mandela tables written: {numbers} (judge: {result.judge or '-'})",
            *(f"  table {s.number} skipped: {s.reason}" for s in result.skipped),
            str(result.out_dir / "tables.md"),
        ],
    )


def figures(run_dir: Path, out_dir: Path | None, judge: str | None) -> Output:
    """Figure 4 (a-c) and the per-family KGR charts as PNG and SVG."""
    from forgebench.suites.mandela.figures import write_figures

    try:
        written = write_figures(run_dir, out_dir, judge=judge)
    except ValueError as exc:
        raise SuiteError(str(exc)) from None
    notes = [] if written else [f"mandela: {run_dir / 'metrics.csv'}: no numbers any figure needs"]
    return Output(files=written, lines=[str(p) for p in written], notes=notes)


EXPORT_COLUMNS = (
    "finish_reason", "verdict", "miss_why", "correct", "level", "grade_status", "judge",
    "judge_reason", "names_erased", "names_principal", "l2_cannot", "recog_year", "seed_id",
    "label", "family", "analysis_family", "control_for", "k1_type", "variant", "domain",
    "saliency", "peripheral", "peripheral_k1", "named_insertion", "has_principal",
)  # fmt: skip
"""Mandela's own columns of the export, after the shared ones (``frame.py`` defines them)."""


def export_rows(run_dir: Path, judge: str | None) -> pd.DataFrame:
    """Each task's verdict, grade (of ``judge``) and item attributes, verdicts parsed first."""
    from forgebench.suites.mandela.frame import load_frame

    parse(run_dir)
    frame = load_frame(run_dir, judge)
    return frame[["task_key", *(c for c in EXPORT_COLUMNS if c in frame.columns)]].copy()


def calibrate_sample(
    run_dir: Path, n: int, judge: str | None, seed: int, out: Path | None
) -> Output:
    """A blinded sample stratified by model, probe, verdict and judge level (Appendix F)."""
    from forgebench.suites.mandela.calibration_io import draw_sample
    from forgebench.suites.mandela.frame import load_frame
    from forgebench.util.atomic import write_text
    from forgebench.util.csvsafe import frame_text

    sample = draw_sample(run_dir, load_frame(run_dir, judge), n, seed)
    path = out or run_dir / "calibration_sample.csv"
    write_text(path, frame_text(sample))  # for people: no formulas, a CR never ends a row
    return Output(
        files=[path],
        lines=[f"{len(sample)} answers sampled -> {path} (fill human_level with E0-E4)"],
    )


def _kappa(value: float) -> str:
    """A kappa for the console: ``undefined`` when both graders used one level (0/0)."""
    return "undefined" if value != value else f"{value:.2f}"


def calibrate_score(
    run_dir: Path, human: Path | None, judge: str | None, against: str | None
) -> Output:
    """Agreement of a judge with human grades (Table 4 layout), or of two judges."""
    from rich.table import Table

    from forgebench.analysis.calibration import agreement, by_level, confusion
    from forgebench.suites.mandela.calibration_io import (
        CalibrationError,
        judge_levels,
        pair_levels,
        read_levels,
    )
    from forgebench.suites.mandela.frame import connect, resolve_judge

    if human is None and (judge is None or against is None):
        raise CalibrationError("give HUMAN.csv, or two judges with --judge A --against-judge B")
    if human is not None:
        con = connect(run_dir)
        try:
            name = against or resolve_judge(con, judge)
        finally:
            con.close()
        if name is None:
            raise CalibrationError("no judge grades in this run: run forgebench judge first")
        reference, blank = read_levels(human)
        ref_name, col_name = "Human", name
    else:
        assert judge is not None and against is not None
        reference, blank = judge_levels(run_dir, judge), 0
        ref_name, col_name = judge, against
    pairs = pair_levels(reference, judge_levels(run_dir, col_name))
    if not pairs:
        raise CalibrationError(f"no answer has both a {ref_name} level and a {col_name} level")
    matrix = confusion(pairs)
    a = agreement(matrix)
    t = Table(title=f"{ref_name} (rows) against {col_name} (columns), {a['n']} answers")
    for col in (ref_name, "E0", "E1", "E2", "E3", "E4", "n", "exact", "±1"):
        t.add_column(col, justify="left" if col == ref_name else "right")
    for lvl, row in enumerate(by_level(matrix)):
        ex = "-" if row["n"] == 0 else f"{row['exact']:.1f}"
        w1 = "-" if row["n"] == 0 else f"{row['within_one']:.1f}"
        t.add_row(f"E{lvl}", *(str(int(v)) for v in matrix[lvl]), str(row["n"]), ex, w1)
    lines: list[Any] = [
        t,
        f"exact {a['exact']:.1f}%  kappa {_kappa(a['kappa'])}  "
        f"weighted kappa {_kappa(a['weighted_kappa'])}  "
        f"within one {a['within_one']:.1f}%  E0 vs E1+ {a['e0_agreement']:.1f}%  "
        f"E3+ vs below {a['kgr_agreement']:.1f}%  judge above {a['judge_above']}, "
        f"below {a['judge_below']}",
    ]
    if blank or len(pairs) < len(reference):
        lines.append(
            f"skipped: {blank} rows without a level, "
            f"{len(reference) - len(pairs)} without a {col_name} level"
        )
    return Output(lines=lines)
