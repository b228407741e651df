"""The page of ``forgebench compare``: ``OUT/index.html``, in the report's style (its
``viewer.css``), opening from disk with no script and no network.

One section per benchmark both runs hold: what makes an answer right, how many items each run
holds and how many both do (the population of the tests), then per model pair the headline
numbers side by side with B minus A, the exact McNemar tests, and the flipped answers, each
with the item's picture (written under ``OUT/img/`` as the report's viewer writes it:
:func:`forgebench.report.site_images.picture`) and both answers next to each other. The same
numbers are written as ``headline.csv``, ``tests.csv`` and ``flips.csv`` (formula-safe CSVs for
people, :mod:`forgebench.util.csvsafe`).
"""

from __future__ import annotations

import html
import shutil
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path

from forgebench.analysis.stats import format_p
from forgebench.results.compare import ALL, BenchmarkComparison, Flip
from forgebench.util.atomic import atomic_open, write_text
from forgebench.util.csvsafe import writer as csv_writer

__all__ = ["Answer", "write_compare"]

Answer = tuple[str | None, str | None, str | None]
"""A stored answer as the page shows it: (text, verdict, error), found by run (``A`` or
``B``) and task key."""

_CSS = """
.runs { color: var(--muted); }
.flips { display: flex; flex-direction: column; gap: .8rem; }
.flip { display: grid; grid-template-columns: 200px 1fr 1fr; gap: .8rem; border-bottom: 1px solid var(--line); padding-bottom: .6rem; }
.flip img { max-width: 200px; max-height: 160px; border: 1px solid var(--line); }
.flip pre { white-space: pre-wrap; background: var(--bg2); padding: .4rem; margin: .2rem 0; max-height: 16em; overflow: auto; }
.right { color: #1d6b2f; font-weight: 600; }
.wrong { color: var(--accent); font-weight: 600; }
"""


def _esc(value: object) -> str:
    return html.escape(str(value))


def _num(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "—"
    return f"{value:+.1f}" if signed else f"{value:.1f}"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], caption: str) -> str:
    out = [f'<div class="table-block"><table class="num"><caption>{_esc(caption)}</caption>']
    out.append("<thead><tr>" + "".join(f"<th>{_esc(h)}</th>" for h in head) + "</tr></thead>")
    out.append("<tbody>")
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{_esc(c)}</td>" for c in row) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def _answer(side: str, right: bool, answer: Answer | None) -> str:
    text, verdict, error = answer or (None, None, None)
    mark = "right" if right else "wrong"
    body = text if text is not None else (f"(error: {error})" if error else "(no answer)")
    got = f" · read as {_esc(verdict)}" if verdict else ""
    return (
        f'<div><b>Run {side}</b>: <span class="{mark}">{mark}</span>{got}'
        f"<pre>{_esc(body)}</pre></div>"
    )


def _flip_html(
    flip: Flip, answers: Mapping[tuple[str, str], Answer], pictures: Mapping[tuple[str, str], str]
) -> str:
    pic = pictures.get((flip.benchmark, flip.item_id))
    img = f'<img src="{_esc(pic)}" alt="{_esc(flip.item_id)}" loading="lazy">' if pic else ""
    return (
        f'<div class="flip" data-direction="{_esc(flip.direction)}">'
        f"<div><b>{_esc(flip.item_id)}</b><br><small>{_esc(flip.probe)} · "
        f"{_esc(flip.condition)} · {_esc(flip.direction)}</small><br>{img}</div>"
        f"{_answer('A', flip.right_a, answers.get(('A', flip.key_a)))}"
        f"{_answer('B', not flip.right_a, answers.get(('B', flip.key_b)))}</div>"
    )


def _section(
    bm: BenchmarkComparison,
    answers: Mapping[tuple[str, str], Answer],
    pictures: Mapping[tuple[str, str], str],
) -> str:
    out = [f'<section class="suite" id="suite-{_esc(bm.benchmark)}"><h2>{_esc(bm.title)}</h2>']
    out.append(f"<p>Right answer: {_esc(bm.right_means)}</p>")
    out.append(
        f"<p>Items asked: run A {bm.items_a}, run B {bm.items_b}; compared on the "
        f"<b>{bm.items_both}</b> both hold.</p>"
    )
    for pair in bm.pairs:
        name = pair.model_a if pair.model_a == pair.model_b else f"{pair.model_a} vs {pair.model_b}"
        out.append(f"<h3>{_esc(name)}</h3>")
        out.append(
            f"<p>Model items: A asked {pair.items_a}, B asked {pair.items_b}; "
            f"{pair.items_both} paired.</p>"
        )
        heads = [h for h in bm.headline if (h.model_a, h.model_b) == (pair.model_a, pair.model_b)]
        if heads:
            out.append(
                _table(
                    ["Metric", "A", "B", "B − A"],
                    [
                        [h.metric, _num(h.value_a), _num(h.value_b), _num(h.diff, True)]
                        for h in heads
                    ],
                    "Headline numbers (%, from each run's metrics.csv, on each run's own items)",
                )
            )
        if pair.tests:
            out.append(
                _table(
                    [
                        "Probe",
                        "Condition",
                        "Paired",
                        "Right A",
                        "Right B",
                        "Right → wrong",
                        "Wrong → right",
                        "p",
                    ],
                    [
                        [
                            t.probe if t.probe != ALL else "all",
                            t.condition,
                            str(t.n),
                            str(t.right_a),
                            str(t.right_b),
                            str(t.b),
                            str(t.c),
                            format_p(t.p),
                        ]
                        for t in pair.tests
                    ],
                    "Exact McNemar test on the answers both runs gave (first answer of each "
                    "question: epoch 1)",
                )
            )
        else:
            out.append("<p class='muted'>No question both runs asked of this pair.</p>")
        if pair.flips:
            out.append(f"<h4>Flipped answers ({len(pair.flips)})</h4><div class='flips'>")
            out.extend(_flip_html(f, answers, pictures) for f in pair.flips)
            out.append("</div>")
    out.append("</section>")
    return "".join(out)


def write_compare(
    out: Path,
    run_a: Path,
    run_b: Path,
    benchmarks: Sequence[BenchmarkComparison],
    answers: Mapping[tuple[str, str], Answer],
    pictures: Mapping[tuple[str, str], str],
) -> list[Path]:
    """Write the page, its style and the three CSVs under ``out`` (pictures are already there,
    at the paths ``pictures`` names); the files written."""
    out.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    tables = {
        "headline.csv": [h.row() for bm in benchmarks for h in bm.headline],
        "tests.csv": [t.row() for bm in benchmarks for t in bm.tests],
        "flips.csv": [
            {
                "benchmark": f.benchmark,
                "model_a": f.model_a,
                "model_b": f.model_b,
                "item_id": f.item_id,
                "probe": f.probe,
                "condition": f.condition,
                "direction": f.direction,
                "answer_a": (answers.get(("A", f.key_a)) or (None,))[0],
                "answer_b": (answers.get(("B", f.key_b)) or (None,))[0],
            }
            for bm in benchmarks
            for f in bm.flips
        ],
    }
    heads = {
        "headline.csv": [
            "benchmark",
            "model_a",
            "model_b",
            "metric",
            "a",
            "b",
            "diff",
            "n_a",
            "n_b",
        ],
        "tests.csv": [
            "benchmark",
            "model_a",
            "model_b",
            "probe",
            "condition",
            "n",
            "right_a",
            "right_b",
            "right_to_wrong",
            "wrong_to_right",
            "p",
        ],
        "flips.csv": [
            "benchmark",
            "model_a",
            "model_b",
            "item_id",
            "probe",
            "condition",
            "direction",
            "answer_a",
            "answer_b",
        ],
    }
    for name, rows in tables.items():
        path = out / name
        with atomic_open(path, "w", newline="") as fh:
            w = csv_writer(fh)
            w.writerow(heads[name])
            for r in rows:
                w.writerow(["" if r[c] is None else r[c] for c in heads[name]])
        files.append(path)
    with resources.as_file(resources.files("forgebench.report") / "html" / "viewer.css") as css:
        shutil.copyfile(css, out / "viewer.css")
    files.append(out / "viewer.css")
    title = f"forgebench compare: {run_a.name} (A) and {run_b.name} (B)"
    body = "".join(_section(bm, answers, pictures) for bm in benchmarks)
    links = " · ".join(f"<a href='{n}'>{n}</a>" for n in tables)
    page = (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{_esc(title)}</title><link rel='stylesheet' href='viewer.css'>"
        f"<style>{_CSS}</style></head><body><header><h1>{_esc(title)}</h1></header>"
        f"<section><p class='runs'>A: {_esc(run_a)}<br>B: {_esc(run_b)}</p>"
        f"<p class='downloads'>Download: {links}</p></section>{body}"
        "<footer class='muted'>Generated by forgebench. Opens from disk; no network.</footer>"
        "</body></html>"
    )
    index = out / "index.html"
    write_text(index, page)
    files.append(index)
    return files
