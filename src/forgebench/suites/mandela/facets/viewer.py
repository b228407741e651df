"""Mandela's viewer facet: verdict and level codes, items grouped by family and domain, the
crop, mirror and face canvases as extra pictures, and the item card (:mod:`..viewer_card`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from forgebench.report.facets import ItemCard, ItemTags
from forgebench.run.images import VariantSpec
from forgebench.suites import facets
from forgebench.suites.mandela.conditions import variant_spec
from forgebench.suites.mandela.contract import Item
from forgebench.suites.mandela.viewer_card import item_card


class MandelaViewer(facets.Viewer):
    verdict_codes = (
        "FAKE", "REAL", "MISS", "YES", "NO", "RECOGNISED", "NOT_RECOGNISED",
        "NAMES", "CANNOT", "KNOWN", "UNKNOWN",
    )  # fmt: skip
    """Every code of ``verdict.VERDICTS``, the L0/L1 ones first."""
    level_codes = ("E0", "E1", "E2", "E3", "E4")
    """The evidence ladder of the judge (Appendix F)."""
    group_labels = ("family", "domain")
    """Knowledge family (K0-K6) and image domain."""

    def views(
        self, dataset_root: Path, item: Mapping[str, Any]
    ) -> Iterator[tuple[str, VariantSpec]]:
        """The crop, mirror and face canvases as the variants the tasks show: the report takes
        them from the run's variant cache (or its own pictures), rendering only a missing one."""
        model = Item.model_validate(item)
        for cond in ("crop", "mirror", "face_original", "face_replacement"):
            if cond == "crop" and model.crop is None:
                continue
            if cond.startswith("face_") and model.faces is None:
                continue
            spec = variant_spec(dataset_root, model, cond)
            if spec is not None:
                yield cond, spec

    def tags(self, item: Mapping[str, Any]) -> ItemTags:
        """Grouped by family and domain; listed as label, family, domain, saliency; tagged with
        the K1 subtype and triple variant too; found by seed, entity, contradiction and event.
        Read from the stored dict as it is (an item the contract would now reject still shows)."""

        def text(key: str) -> str:
            return str(item.get(key) or "")

        def name(key: str, sub: str) -> str:
            value = item.get(key)
            return str(value.get(sub) or "") if isinstance(value, Mapping) else ""

        return ItemTags(
            groups=(text("family"), text("domain")),
            line=(text("label"), text("family"), text("domain"), text("saliency")),
            tags=tuple(text(k) for k in ("label", "family", "k1_type", "variant", "domain", "saliency")),
            search=(text("seed_id"), name("entity", "name"), text("contradiction"), name("event", "label")),
        )  # fmt: skip

    def card(self, item: Mapping[str, Any]) -> ItemCard:
        """Family, entity, event, edit... rows; the edit region outlined; paired with the
        authentic item of its seed."""
        return item_card(item)


VIEWER = MandelaViewer()
