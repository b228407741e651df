"""Forensics' viewer facet: the extracted letter as the verdict, items grouped by forgery type
and modality (:mod:`..viewer_tags`), the question and options on the card, how a letter was
found, and what ``full`` showed as the tasks showed it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from forgebench.report.facets import ItemTags
from forgebench.report.site_items import AskedImage
from forgebench.suites import facets
from forgebench.suites.forensics.binding import variant
from forgebench.suites.forensics.contract import validated
from forgebench.suites.forensics.ids import TILED
from forgebench.suites.forensics.item_view import found_by, item_facts
from forgebench.suites.forensics.questions import shown_images
from forgebench.suites.forensics.studies import candidate_row
from forgebench.suites.forensics.viewer_tags import item_tags


class ForensicsViewer(facets.Viewer):
    verdict_codes = ("A", "B", "C", "D", "Z")
    """The extracted option letter (``Z``: refusal or none found)."""
    group_labels = ("type", "modality")
    """Forgery type and forgery modality."""

    def views(self, dataset_root: Path, item: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
        """What ``full`` showed when it is not the item's file (a video's tile; a candidate row
        tiled, as models of one image see it), as the tasks under that condition showed them
        (the report finds them among the item's answers, else renders the variant once); a
        multi-image row's files, in order."""
        if len(item.get("images") or ()) < 2:  # ``full`` shows a single image's file as it is
            return
        model = validated(item)
        shown = shown_images(model, dataset_root, "full")
        if shown and shown[0].op != "file":
            yield "as asked", AskedImage("full", lambda: variant(shown[0], "full"))
        if candidate_row(model):  # as models of one image see it
            tiled = shown_images(model, dataset_root, TILED)[0]
            yield "tiled", AskedImage(TILED, lambda: variant(tiled, TILED))
        if len(model.images) > 1:  # full or multi_image: each image apart, in order
            n = len(model.images)
            for k, rel in enumerate(model.images, start=1):
                yield f"image {k} of {n}", dataset_root / rel

    def answer(self, verdict: str | None, detail: Mapping[str, Any]) -> tuple[str | None, str]:
        return verdict, found_by(detail) if verdict is not None else ""

    def facts(self, item: Mapping[str, Any]) -> list[tuple[str, str]]:
        return item_facts(item)

    def tags(self, item: Mapping[str, Any]) -> ItemTags:
        return item_tags(item)


VIEWER = ForensicsViewer()
