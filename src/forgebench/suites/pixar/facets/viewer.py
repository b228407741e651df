"""PIXAR's viewer facet: LOCATED / NOT_FOUND / MISS verdicts with the pair's IoU and F1, the
original and the truth mask beside the edited image, and the predicted mask of an answer."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from forgebench.report.facets import ItemCard, ItemTags
from forgebench.suites import facets
from forgebench.suites.pixar.gallery import thumb
from forgebench.suites.pixar.labeling import label_pngs
from forgebench.suites.pixar.loc_items import item_pair, pairs_root
from forgebench.suites.pixar.loc_score import model_dirname


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
        return [("predicted mask", rel)] if rel else []


VIEWER = PixarViewer()
