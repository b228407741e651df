"""PIXAR's viewer facet: LOCATED / NOT_FOUND / MISS verdicts with the pair's IoU and F1, the
original and the truth mask beside the edited image, and the predicted mask of an answer.

Pairs scored from files (a detector's score maps or predicted masks: ``pixar score --out RUN``,
the demo's detector) are answers too, from the run store's ``pair_scores``
(:mod:`..pair_scores`): probe LOC, condition ``full`` (as their ``metrics.csv`` rows), LOCATED
(a prediction scored) or MISS (none, scored as empty), with the edited image, the truth mask and
the predicted mask (a score map at its threshold) beside the answer."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from forgebench.report.facets import ItemCard, ItemTags
from forgebench.run.store import DB_NAME, PairScore, Store
from forgebench.suites import facets
from forgebench.suites.pixar.labeling import label_pngs
from forgebench.suites.pixar.loc_items import item_pair, pairs_root
from forgebench.suites.pixar.loc_score import model_dirname
from forgebench.suites.pixar.viewer_pictures import thumb


def _stamp(run_dir: Path) -> tuple[int, ...]:
    """What changes when the store's rows do (its file and write-ahead log)."""
    out: list[int] = []
    for name in (DB_NAME, f"{DB_NAME}-wal"):
        try:
            st = (run_dir / name).stat()
        except OSError:
            out += [0, 0]
        else:
            out += [st.st_mtime_ns, st.st_size]
    return tuple(out)


class PixarViewer(facets.Viewer):
    verdict_codes = ("LOCATED", "NOT_FOUND", "MISS")
    """Regions given, none given, reply unreadable."""

    def answer(self, verdict: str | None, detail: Mapping[str, Any]) -> tuple[str | None, str]:
        if verdict is None or "iou" not in detail:
            return verdict, ""
        return verdict, f"IoU {float(detail['iou']):.1f}, F1 {float(detail['f1']):.1f}"

    def tags(self, item: Mapping[str, Any]) -> ItemTags:
        classes = [str(c) for c in item.get("classes") or ()]
        return ItemTags(line=(", ".join(classes),), search=tuple(classes))

    def card(self, item: Mapping[str, Any]) -> ItemCard:
        if item.get("scored_from"):  # a pair known from its scored files only (pair_scores)
            return ItemCard(rows=(("scored from", "truth and prediction files"),))
        size = f"{item.get('width')} x {item.get('height')}" if item.get("width") else ""
        rows = (("original", str(item.get("original") or "")), ("size", size),
                ("tau", str(item.get("tau") or "")))  # fmt: skip
        return ItemCard(rows=rows, caption="edited image")

    def views(self, dataset_root: Path, item: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
        if item.get("original"):
            pair = item_pair(item, pairs_root(dataset_root))
            if pair.original.is_file():
                yield "original", pair.original
                if pair.edited.is_file():  # the truth the answers are scored against
                    tau = float(item.get("tau") or 0.05)
                    (png,) = label_pngs((str(pair.original), str(pair.edited)), (tau,))
                    yield f"truth mask (tau {tau:g})", png

    def answer_pictures(
        self, run_dir: Path, out_dir: Path, model: str, item_id: str
    ) -> list[tuple[str, str]]:
        """The answer's predicted mask as ``metrics`` stored it (a miss has none), the gallery's
        thumbnail of it."""
        rel = thumb(run_dir / "pixar" / "pred" / model_dirname(model) / f"{item_id}.png", out_dir)
        if rel:
            return [("predicted mask", rel)]
        score = self._scores(run_dir).get((model, item_id))
        if score is None:
            return []
        shown = [("edited image", score.image), ("truth mask", score.truth)]
        shown.append((f"predicted mask (score >= {score.threshold:g})", score.pred))
        made = [(label, thumb(Path(path), out_dir, score.threshold) if path else None)
                for label, path in shown]  # fmt: skip
        return [(label, rel) for label, rel in made if rel]

    def pair_answer(self, score: PairScore) -> tuple[str, str, str, dict[str, Any]]:
        """A pair scored from a file: LOCATED (a prediction was scored) or MISS (none, scored
        as an empty prediction), with its IoU and F1."""
        detail = {"iou": score.iou, "f1": score.f1, "scored_from": "file"}
        return "LOC", "full", ("LOCATED" if score.pred else "MISS"), detail

    def _scores(self, run_dir: Path) -> dict[tuple[str, str], PairScore]:
        """The run's stored pair scores by (model, pair), read once per state of the store."""
        key = (str(run_dir), _stamp(run_dir))
        cached = getattr(self, "_cached", None)
        if cached is None or cached[0] != key:
            scores: dict[tuple[str, str], PairScore] = {}
            if (run_dir / DB_NAME).is_file():
                with Store.open(run_dir, create=False) as store:
                    scores = {(s.model, s.pair): s for s in store.pair_scores("pixar")}
            cached = (key, scores)
            self._cached = cached
        return cached[1]


VIEWER = PixarViewer()
