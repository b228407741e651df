"""PIXAR's prompts facet: the LOC prompt, verbatim (:mod:`..probe`), and what one pair is asked."""

from __future__ import annotations

from pathlib import Path

from forgebench.run.source import Selection
from forgebench.suites import facets
from forgebench.suites.base import SuiteError
from forgebench.suites.pixar.probe import PROBE_ID, PROMPT_TEMPLATE, PROMPT_VERSION, render_prompt


class PixarPrompts(facets.Prompts):
    def templates(self) -> list[str]:
        """The LOC prompt with its placeholders."""
        title = "title: localization (boxes or polygons, up to five classes, one sentence)"
        text = PROMPT_TEMPLATE.format(width="{width}", height="{height}", classes="{classes}")
        return [f"{PROBE_ID}\nversion: {PROMPT_VERSION}\n{title}\n{text}"]

    def prompts(self, dataset: Path, item_id: str) -> list[str]:
        """The exact prompt one pair is asked (its edited image's size filled in)."""
        # here, not at the top: `forgebench prompts` asks every suite's templates() on a light
        # path, and the pairs' reader loads OpenCV and NumPy
        from forgebench.suites.pixar.loc_items import load_items

        items = [it for it in load_items(dataset, Selection()).items if it["id"] == item_id]
        if not items:
            raise SuiteError(f"{dataset}: no pair {item_id!r}")
        it = items[0]
        prompt = render_prompt(int(it["width"]), int(it["height"]))
        return [f"{PROBE_ID} / full\nversion: {PROMPT_VERSION}\nimages: 1\n---\n{prompt}"]


PROMPTS = PixarPrompts()
