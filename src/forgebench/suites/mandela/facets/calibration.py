"""Mandela's calibration facet: a blinded sample stratified by model, probe, verdict and level,
and a judge's agreement with people's grades (Appendix F; :mod:`..calibration_io`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.table import Table

from forgebench.analysis.calibration import agreement, by_level, confusion
from forgebench.suites import facets
from forgebench.suites.mandela.calibration_io import (
    CalibrationError,
    draw_sample,
    judge_levels,
    pair_levels,
    read_levels,
)
from forgebench.suites.mandela.frame import connect, load_frame, resolve_judge
from forgebench.suites.outputs import Output
from forgebench.util.atomic import write_text
from forgebench.util.csvsafe import frame_text


def _kappa(value: float) -> str:
    """A kappa for the console: ``undefined`` when both graders used one level (0/0)."""
    return "undefined" if value != value else f"{value:.2f}"


class MandelaCalibration(facets.Calibration):
    def sample(
        self, run_dir: Path, n: int, judge: str | None, seed: int, out: Path | None
    ) -> Output:
        """A blinded sample stratified by model, probe, verdict and judge level (Appendix F)."""
        sample = draw_sample(run_dir, load_frame(run_dir, judge), n, seed)
        path = out or run_dir / "calibration_sample.csv"
        write_text(path, frame_text(sample))  # for people: no formulas, a CR never ends a row
        return Output(
            files=[path],
            lines=[f"{len(sample)} answers sampled -> {path} (fill human_level with E0-E4)"],
        )

    def score(
        self, run_dir: Path, human: Path | None, judge: str | None, against: str | None
    ) -> Output:
        """Agreement of a judge with human grades (Table 4 layout), or of two judges."""
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


CALIBRATION = MandelaCalibration()
