"""The viewer's data files: the ``file://``-safe script wrapper, each answer's facet positions and
packed code, and a data page's answers column-wise.

:func:`.site.build_site` walks the items and writes the pages; what a page holds of its items'
answers (one list per field: model, probe, condition, verdict and level positions, text, reason,
error, note, the shown pictures and the pictures an answer made) is cut here from the columns of
:class:`.site_answers.ViewerAnswers`, one slice per field, which the page turns back into one
object per answer when it loads (``report/html/viewer.js``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from forgebench.report.facets import LEVEL_TAIL, VERDICT_TAIL, AnswerView, vocabulary
from forgebench.report.site_answers import ViewerAnswers, pack_codes
from forgebench.report.site_items import AnswerPictures, made_pictures


def js_file(name: str, payload: Any) -> str:
    """A data file that works from ``file://``: it assigns to ``window.FB`` (pages and index
    chunks also notify)."""
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    head = "window.FB = window.FB || {};\n"
    if name == "page":
        return (
            head
            + f"(FB.pages = FB.pages || {{}})[{payload['n']}] = {body};\nif (FB.onpage) FB.onpage({payload['n']});\n"
        )
    if name == "rows":
        return (
            head
            + f"(FB.rowChunks = FB.rowChunks || {{}})[{payload['k']}] = {body};\nif (FB.onrows) FB.onrows({payload['k']});\n"
        )
    return head + f"FB.{name} = {body};\n"


@dataclass
class AnswerFacets:
    """Each answer's verdict, level and note positions and packed code."""

    verdicts: list[str]
    levels: list[str]
    notes: list[str]
    verdict: np.ndarray
    level: np.ndarray
    note: np.ndarray
    codes: np.ndarray
    radix: list[int]


def answer_facets(
    ans: ViewerAnswers,
    views: Mapping[str, AnswerView],
    verdicts: Sequence[str],
    levels: Sequence[str],
) -> AnswerFacets:
    """The facet vocabularies in display order (see :mod:`.facets`) and each answer's positions
    in them, packed with its model, probe and condition into one integer
    (:func:`.site_answers.pack_codes`)."""
    shown, at = ans.facets(views)
    verdict_codes = vocabulary(verdicts, (v for v, _l, _n in shown), VERDICT_TAIL)
    level_codes = vocabulary(levels, (lv for _v, lv, _n in shown), LEVEL_TAIL)
    notes = list(dict.fromkeys(["", *(n for _v, _l, n in shown)]))

    def positions(values: list[str], pick: int) -> np.ndarray:
        where = {v: i for i, v in enumerate(values)}
        return np.array([where[case[pick]] for case in shown], dtype=np.int64)[at]

    verdict, level, note = (
        positions(verdict_codes, 0),
        positions(level_codes, 1),
        positions(notes, 2),
    )
    radix = [
        len(ans.models),
        len(ans.probes),
        len(ans.conditions),
        len(verdict_codes),
        len(level_codes),
    ]
    codes = pack_codes([ans.model_pos, ans.probe_pos, ans.condition_pos, verdict, level], radix)
    return AnswerFacets(verdict_codes, level_codes, notes, verdict, level, note, codes, radix)


class PageAnswers:
    """The answers of a page's items, column-wise (the page decodes them).

    ``group_pics`` (by image group: the written pictures of that list of shown images, None when
    it has none) is filled by the caller as it walks the items; a page reads the groups of its own
    items, which are written before the page is."""

    def __init__(
        self,
        ans: ViewerAnswers,
        fac: AnswerFacets,
        group_at: np.ndarray,
        group_pics: Mapping[int, list[str | None] | None],
        answer_pictures: Mapping[str, AnswerPictures] | None,
        warnings: list[str],
    ) -> None:
        self.ans, self.fac, self.group_at, self.group_pics = ans, fac, group_at, group_pics
        self.answer_pictures, self.warnings = answer_pictures, warnings
        self.answered = ans.table.column("answered").to_numpy(zero_copy_only=False).astype(bool)
        self.benchmark_col = ans.table.column("benchmark")
        self.made_rows = np.zeros(len(ans), dtype=bool)
        made_by = {b for b in (answer_pictures or {})}
        if made_by:
            import pyarrow as pa
            import pyarrow.compute as pc

            wanted = pa.array(sorted(made_by), type=pa.large_string())
            self.made_rows = self.answered & pc.is_in(
                self.benchmark_col, value_set=wanted
            ).to_numpy(zero_copy_only=False)
        self.columns = {
            "t": ans.table.column("text"),
            "r": ans.table.column("reason"),
            "e": ans.table.column("error"),
        }

    def __call__(self, first: int, last: int) -> dict[str, Any]:
        """The answers of items ``first..last``."""
        ans, fac, starts, columns = self.ans, self.fac, self.ans.starts, self.columns
        lo, hi = int(starts[first]), int(starts[last + 1])
        cut = slice(lo, hi)
        shown: dict[str, Any] = {
            "n": np.diff(starts[first : last + 2]).tolist(),
            "m": ans.model_pos[cut].tolist(),
            "p": ans.probe_pos[cut].tolist(),
            "c": ans.condition_pos[cut].tolist(),
            "v": fac.verdict[cut].tolist(),
            "l": fac.level[cut].tolist(),
            "t": columns["t"].slice(lo, hi - lo).to_pylist(),
            "r": columns["r"].slice(lo, hi - lo).to_pylist(),
        }
        errors = columns["e"].slice(lo, hi - lo).to_pylist()
        shown["e"] = [
            None if yes else e for e, yes in zip(errors, self.answered[cut].tolist(), strict=True)
        ]
        if fac.note[cut].any():
            shown["s"] = fac.note[cut].tolist()
        used, inverse = np.unique(self.group_at[cut], return_inverse=True)
        listed = [g for g in used.tolist() if self.group_pics.get(g) is not None]
        if listed:
            where = {g: k for k, g in enumerate(listed)}
            shown["iv"] = [self.group_pics[g] for g in listed]
            shown["i"] = np.array([where.get(g, -1) for g in used.tolist()])[inverse].tolist()
        if self.made_rows[cut].any():
            made: list[list[list[str]] | None] = []
            for row in range(lo, hi):
                pics_of = None
                if self.made_rows[row]:
                    pics_of = (
                        made_pictures(
                            self.answer_pictures,
                            str(self.benchmark_col[row]),
                            str(ans.table.column("model")[row]),
                            str(ans.table.column("item_id")[row]),
                            self.warnings,
                        )
                        or None
                    )
                made.append(pics_of)
            if any(made):
                shown["o"] = made
        return shown
