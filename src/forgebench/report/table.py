"""The table model of the report and its three renderings: Markdown, LaTeX (booktabs) and CSV.

A :class:`Table` is a caption, columns (each with an optional spanning group, as the paper's
two-row headers) and sections of rows (the paper's "Proprietary" / "Open weights" blocks). Each
cell keeps the raw value (written to CSV unrounded) and the text the paper would print.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field, replace

import numpy as np

from forgebench.util.csvsafe import neutralise
from forgebench.util.csvsafe import writer as csv_writer

MARKS_MD = {"†": "†", "¶": "¶", "§": "§", "r": "ʳ"}
MARKS_TEX = {"†": r"$^{\dagger}$", "¶": r"$^{\P}$", "§": r"$^{\S}$", "r": r"$^{r}$"}


@dataclass(frozen=True)
class Cell:
    """One table cell."""

    raw: float | int | str | None
    """The value written to CSV (numbers unrounded)."""
    text: str
    """The text printed in Markdown and LaTeX."""
    bold: bool = False
    """Printed in bold (the paper bolds significant detection changes)."""
    marks: str = ""
    """Footnote marks after the text: ``†`` judge, ``¶`` low recognition, ``r`` refusal."""


@dataclass(frozen=True)
class Column:
    """One column: its label and the spanning group above it."""

    label: str
    """Header text, e.g. ``KGR``."""
    group: str = ""
    """Spanning header, e.g. ``Default (L0)``; empty for none."""

    @property
    def key(self) -> str:
        """The CSV / Markdown header: group and label together."""
        return f"{self.group} {self.label}".strip() if self.group else self.label


@dataclass
class Table:
    """A rendered-ready table of the paper."""

    number: int
    """The paper's table number."""
    caption: str
    """Caption, written for this run (populations and conventions)."""
    columns: list[Column]
    """Columns, the first being the row label (usually ``Model``)."""
    sections: list[tuple[str | None, list[list[Cell]]]]
    """Row blocks, each with an optional heading (``Proprietary``, ``Open weights``)."""
    notes: list[str] = field(default_factory=list)
    """Footnotes: conventions, omitted columns, reasons for dashes."""
    slug: str | None = None
    """File stem when not ``table_NN`` (a suite's own tables: ``pixar_table2``)."""
    heading: str | None = None
    """Heading when not ``Table N`` (a figure's numbers shown as a table)."""

    @property
    def name(self) -> str:
        """``table_02`` and so on (file stem of the CSV), or the slug."""
        return self.slug or f"table_{self.number:02d}"

    @property
    def title(self) -> str:
        """``Table 2``, or the heading."""
        return self.heading or f"Table {self.number}"

    @property
    def rows(self) -> list[list[Cell]]:
        """All rows, sections concatenated."""
        return [row for _, rows in self.sections for row in rows]


@dataclass(frozen=True)
class Skipped:
    """A table the run's data cannot support, with the reason."""

    number: int
    """The paper's table number."""
    reason: str
    """Why it was skipped, naming what is missing."""

    def __iter__(self):  # type: ignore[no-untyped-def]
        """Unpacks as ``(number, reason)``."""
        return iter((self.number, self.reason))


# ---------------------------------------------------------------- cell constructors


def num(value: float | None, digits: int = 1) -> Cell:
    """A rate or value with fixed decimals; ``—`` when missing."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return Cell(None, "—")
    return Cell(float(value), f"{value:.{digits}f}")


def signed(value: float | None, digits: int = 1) -> Cell:
    """A difference with an explicit sign (``+4.8``, ``-9.0``, ``0.0``), as the paper prints."""
    if value is None or not math.isfinite(value):
        return Cell(None, "—")
    text = f"{value:+.{digits}f}"
    if float(text) == 0.0:
        text = f"{0.0:.{digits}f}"
    return Cell(float(value), text)


def text(value: str, marks: str = "", bold: bool = False) -> Cell:
    """A text cell."""
    return Cell(value, value, bold=bold, marks=marks)


def dash(raw: str | None = None) -> Cell:
    """A dash for a cell that cannot be computed (``raw`` says why in the CSV)."""
    return Cell(raw, "—")


def mark_best(
    sections: list[tuple[str | None, list[list[Cell]]]], *, skip: frozenset[str] = frozenset()
) -> list[tuple[str | None, list[list[Cell]]]]:
    """The sections with the best (highest) number of each column after the first printed in
    bold, every tied cell included; rows whose first cell's text is in ``skip`` (group averages)
    neither compete nor get marked."""
    competing = [r for _, rows in sections for r in rows if r and r[0].text not in skip]
    width = max((len(r) for r in competing), default=0)

    def number(cell: Cell) -> float | None:
        raw = cell.raw
        return float(raw) if isinstance(raw, int | float) and math.isfinite(raw) else None

    best: dict[int, float] = {}
    for j in range(1, width):
        vals = [v for r in competing if j < len(r) and (v := number(r[j])) is not None]
        if len(vals) > 1:
            best[j] = max(vals)

    def mark(row: list[Cell]) -> list[Cell]:
        if not row or row[0].text in skip:
            return row
        return [
            replace(c, bold=True) if j in best and number(c) == best[j] else c
            for j, c in enumerate(row)
        ]

    return [(heading, [mark(r) for r in rows]) for heading, rows in sections]


# ---------------------------------------------------------------- renderers


def _md_cell(cell: Cell) -> str:
    body = cell.text.replace("|", "\\|")
    if cell.bold and body != "—":
        body = f"**{body}**"
    return body + "".join(MARKS_MD.get(m, m) for m in cell.marks)


def to_markdown(table: Table) -> str:
    """The table as a Markdown section: heading, caption, pipe table, notes."""
    out = [f"## {table.title}", "", table.caption, ""]
    header = [c.key for c in table.columns]
    out.append("| " + " | ".join(header) + " |")
    out.append("|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|")
    for heading, rows in table.sections:
        if heading:
            out.append("| " + " | ".join([f"*{heading}*"] + [""] * (len(header) - 1)) + " |")
        for row in rows:
            out.append("| " + " | ".join(_md_cell(c) for c in row) + " |")
    if table.notes:
        out.append("")
        out.extend(f"- {n}" for n in table.notes)
    out.append("")
    return "\n".join(out)


_TEX_ESCAPES = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
}


def tex_escape(value: str) -> str:
    """Escape LaTeX specials and map the symbols the tables use (—, <, ≤, −, Δ)."""
    out = "".join(_TEX_ESCAPES.get(ch, ch) for ch in value)
    return (
        out.replace("—", "---")
        .replace("≤", r"$\leq$")
        .replace("<", r"$<$")
        .replace("Δ", r"$\Delta$")
        .replace("±", r"$\pm$")
    )


def _tex_cell(cell: Cell) -> str:
    body = cell.text
    if body.startswith("-") and body[1:2].isdigit():
        body = "$-$" + tex_escape(body[1:])
    else:
        body = tex_escape(body)
    if cell.bold and cell.text != "—":
        body = rf"\textbf{{{body}}}"
    return body + "".join(MARKS_TEX.get(m, m) for m in cell.marks)


def to_latex(table: Table) -> str:
    """The table as a booktabs ``table`` environment with spanning group headers."""
    ncol = len(table.columns)
    spec = "l" + "r" * (ncol - 1)
    lines = [
        r"\begin{table}[t]",
        r"\centering\small",
        rf"\caption{{{tex_escape(table.caption)}}}",
        rf"\label{{tab:{table.name}}}",
        rf"\begin{{tabular}}{{{spec}}}",
        r"\toprule",
    ]
    if any(c.group for c in table.columns):
        spans: list[tuple[str, int, int]] = []
        for i, c in enumerate(table.columns):
            if spans and spans[-1][0] == c.group:
                g, start, _ = spans[-1]
                spans[-1] = (g, start, i)
            else:
                spans.append((c.group, i, i))
        head: list[str] = []
        rules: list[str] = []
        for g, start, end in spans:
            width = end - start + 1
            if g:
                head.append(rf"\multicolumn{{{width}}}{{c}}{{{tex_escape(g)}}}")
                rules.append(rf"\cmidrule(lr){{{start + 1}-{end + 1}}}")
            else:
                head.extend([""] * width)
        lines.append(" & ".join(head) + r" \\")
        lines.append(" ".join(rules))
    lines.append(" & ".join(tex_escape(c.label) for c in table.columns) + r" \\")
    lines.append(r"\midrule")
    for k, (heading, rows) in enumerate(table.sections):
        if heading:
            if k:
                lines.append(r"\midrule")
            lines.append(rf"\multicolumn{{{ncol}}}{{l}}{{\textit{{{tex_escape(heading)}}}}} \\")
        for row in rows:
            lines.append(" & ".join(_tex_cell(c) for c in row) + r" \\")
    lines.append(r"\bottomrule")
    lines.append(r"\end{tabular}")
    if table.notes:
        lines.append(r"\par\smallskip\footnotesize " + " ".join(tex_escape(n) for n in table.notes))
    lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"


def to_csv(table: Table) -> str:
    """The table as CSV: a ``group`` column, then one column per table column, raw values (text
    that a spreadsheet would run as a formula gets a leading ``'``; numbers never do)."""
    buf = io.StringIO()
    writer = csv_writer(buf)  # a cell holding a CR or LF is quoted
    writer.writerow(["group", *(c.key for c in table.columns)])
    for heading, rows in table.sections:
        for row in rows:
            values = []
            for cell in row:
                if cell.raw is None:
                    values.append("")
                elif isinstance(cell.raw, float | np.floating):
                    values.append(repr(float(cell.raw)))  # never "np.float64(...)"
                elif isinstance(cell.raw, np.integer):
                    values.append(str(int(cell.raw)))
                else:
                    values.append(neutralise(str(cell.raw)))
            writer.writerow([neutralise(heading or ""), *values])
    return buf.getvalue()


def to_html(table: Table) -> str:
    """The table as an HTML ``<table>`` in the report's one table style: caption above, numbers
    right-aligned and text left (``td.t``), group headers spanning their columns, section rows,
    the bold cells of :func:`mark_best` in bold; every text escaped."""
    import html

    esc = html.escape
    groups: list[tuple[str, int]] = []
    for c in table.columns:
        if groups and groups[-1][0] == c.group:
            groups[-1] = (c.group, groups[-1][1] + 1)
        else:
            groups.append((c.group, 1))
    out = [f'<table class="num paper-table" id="{esc(table.name)}">']
    out.append(f"<caption>{esc(table.title)}. {esc(table.caption)}</caption><thead>")
    if any(g for g, _ in groups):
        out.append(
            "<tr>" + "".join(f'<th colspan="{n}">{esc(g)}</th>' for g, n in groups) + "</tr>"
        )
    out.append("<tr>" + "".join(f"<th>{esc(c.label)}</th>" for c in table.columns) + "</tr>")
    out.append("</thead><tbody>")
    width = len(table.columns)
    for heading, rows in table.sections:
        if heading:
            out.append(f'<tr class="section"><th colspan="{width}">{esc(heading)}</th></tr>')
        for row in rows:
            cells = []
            for cell in row:
                body = esc(cell.text) + "".join(esc(MARKS_MD.get(m, m)) for m in cell.marks)
                numeric = isinstance(cell.raw, int | float) or cell.text == "—"
                cls = "" if numeric else ' class="t"'
                if cell.bold and cell.text != "—":
                    body = f"<b>{body}</b>"
                cells.append(f"<td{cls}>{body}</td>")
            out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    if table.notes:
        out.append(
            '<ul class="table-notes">'
            + "".join(f"<li>{esc(n)}</li>" for n in table.notes)
            + "</ul>"
        )
    return "".join(out)
