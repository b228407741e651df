"""The report's extra pictures of a Mandela item (crop, mirror, face canvases) are the very
variants its tasks showed: the same variant ids, so the report takes them from the run's variant
cache instead of rendering them again, and renders one only when the cache lacks it."""

from __future__ import annotations

import json
from pathlib import Path

from forgebench.models.spec import ModelConfig
from forgebench.run.generate import plan
from forgebench.run.images import VariantCache, VariantSpec
from forgebench.run.source import Selection
from forgebench.suites.mandela.facets.viewer import VIEWER
from forgebench.suites.mandela.suite import SUITE


def test_each_view_is_the_variant_a_task_showed(demo_dataset: Path, tmp_path: Path) -> None:
    config = ModelConfig(spec="builtin/artefact")
    planned = plan(SUITE, demo_dataset, [config], Selection(), cache_dir=tmp_path / "cache")
    shown = {
        (t.item_id, t.condition): t.question.images[0].variant_id
        for t in planned.tasks[config.name]
        if t.question.images
    }
    cache = VariantCache(tmp_path / "cache", root=demo_dataset)
    items = [json.loads(line) for line in (demo_dataset / "items.jsonl").read_text().splitlines()]
    seen = 0
    for item in items:
        for label, spec in VIEWER.views(demo_dataset, item):
            assert isinstance(spec, VariantSpec)
            ref = cache.ref(spec)
            assert ref is not None
            asked = shown.get((item["id"], label))
            if asked is None:  # a view no task showed: the report renders it
                continue
            assert ref.variant_id == asked
            assert ref.path.is_file()  # rendered by the run: the report reads it
            seen += 1
    assert seen >= 40  # crops, mirrors and face canvases of the demo's items
    assert cache.renders == 0
