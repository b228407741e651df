"""What every report figure costs and how large it is at 1 to 50 models (measured, printed;
nothing asserted).

Each figure of the Mandela and Forensics sections is built from the synthetic metrics frames of
``tests/support/figure_metrics.py`` (the models' names vary in length like real ones; the
Forensics frame holds the paper's first ``--codes`` type codes, default all 112, and the six
perturbation kinds at five levels) and written as the report writes it
(``forgebench.report.style.write_figure``: PNG at 200 dpi, SVG, CSV). Printed per figure and
model count: the figure's size (inches), the chart kind of the per-type and per-perspective
figures (bars, bars by model, heatmap), whether a label overlaps another or leaves the canvas
(``figure_text.text_problems``), and the wall and CPU seconds to build and to write it; then
the total per model count.

    .venv/bin/python benchmarks/figure_sizes.py [--models 1,2,10,25,50] [--codes 112]
        [--out DIR] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _builders(n: int, codes: int) -> dict[str, Callable[[], Any]]:
    sys.path.insert(0, str(ROOT / "tests"))
    from forgebench.suites.forensics import figures as ff
    from forgebench.suites.mandela import figures as mf
    from forgebench.suites.mandela.tables.inputs import Metrics
    from support.figure_metrics import forensics_metrics, mandela_metrics

    met = Metrics(mandela_metrics(n))
    fm = forensics_metrics(n, codes)
    out: dict[str, Callable[[], Any]] = {
        "fig4_prompting": lambda: mf.figure_prompting(met),
        "fig4_penalty": lambda: mf.figure_penalty(met),
        "fig4_erase_swap": lambda: mf.figure_erase_swap(met),
        "family_kgr_L0": lambda: mf.figure_family(met, "L0"),
        "family_kgr_L1": lambda: mf.figure_family(met, "L1"),
        "forensics_fig2_overview": lambda: ff.overview_figure(fm),
    }
    for p in ff.PERSPECTIVES:
        out[f"forensics_fig{ff.FIGURE_NUMBER[p]}_{p}"] = lambda p=p: ff.perspective_figure(fm, p)
    out["forensics_type_heatmap"] = lambda: ff.type_heatmap(fm)
    out["forensics_robustness_levels"] = lambda: ff.robustness_figure(fm)
    return out


def _kind(fig: Any) -> str:
    ax = fig.axes[0]
    if ax.images:
        return "heatmap"
    return f"bars x{len(ax.containers)}" if ax.containers else ""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default="1,2,10,25,50")
    ap.add_argument("--codes", type=int, default=112)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    import matplotlib.pyplot as plt

    from forgebench.report.figure_text import text_problems
    from forgebench.report.style import figure_style, write_figure

    counts = [int(x) for x in args.models.split(",")]
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        base = args.out or Path(tmp)
        print(f"{'figure':30} {'n':>3} {'inches':>13} {'kind':>9} {'ok':>3} "
              f"{'build s':>8} {'write s':>8} {'CPU s':>6}")  # fmt: skip
        for n in counts:
            total_wall = total_cpu = 0.0
            for name, build in _builders(n, args.codes).items():
                w0, c0 = time.perf_counter(), time.process_time()
                with figure_style():
                    made = build()
                if made is None:
                    continue
                fig, data = made
                w1 = time.perf_counter()
                write_figure(fig, base / f"models_{n}", name, data)  # closes the figure
                w2, c2 = time.perf_counter(), time.process_time()
                total_wall += w2 - w0
                total_cpu += c2 - c0
                with figure_style():  # rebuilt for the check: not timed
                    again = build()[0]
                    problems = text_problems(again, render=False)
                    size = again.get_size_inches()
                    kind = _kind(again)
                    plt.close(again)
                rows.append({
                    "figure": name, "models": n, "width_in": round(float(size[0]), 2),
                    "height_in": round(float(size[1]), 2), "kind": kind,
                    "problems": problems, "build_s": round(w1 - w0, 3),
                    "write_s": round(w2 - w1, 3), "cpu_s": round(c2 - c0, 3),
                })  # fmt: skip
                print(f"{name:30} {n:>3} {size[0]:>6.1f}x{size[1]:<6.1f} {kind:>9} "
                      f"{'yes' if not problems else 'NO':>3} {w1 - w0:>8.2f} {w2 - w1:>8.2f} "
                      f"{c2 - c0:>6.2f}")  # fmt: skip
            print(f"{'all figures':30} {n:>3} {'':>13} {'':>9} {'':>3} "
                  f"{'':>8} {total_wall:>8.2f} {total_cpu:>6.2f}  (wall, CPU: build + write)")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
