"""Forensics' prompts facet: the release's MCQ prompt (:mod:`..prompt`) and the exact prompts
one item receives under the default protocol (the study prompts among them).

``forgebench prompts`` asks every suite's templates on a light path: the modules named here load
no imaging or numeric library (a variant is described, never rendered)."""

from __future__ import annotations

from pathlib import Path

from forgebench.run.images import VariantCache
from forgebench.suites import facets
from forgebench.suites.base import Selection, SuiteError
from forgebench.suites.forensics.prompt import MCQ_VERSION, render_text
from forgebench.suites.forensics.suite import SUITE


class ForensicsPrompts(facets.Prompts):
    def templates(self) -> list[str]:
        """The multiple-choice prompt as the release asks it (VLMEvalKit's layout)."""
        text = render_text("{question}", {"A": "{A}", "B": "{B}", "...": "..."}, hint="{hint}")
        return [
            f"MCQ\nversion: {MCQ_VERSION}\ntitle: the release's multiple-choice question "
            f"(images first; the Hint line only when the row has one)\n{text}"
        ]

    def prompts(self, dataset: Path, item_id: str) -> list[str]:
        """The exact prompts one item receives under the default protocol (with the question
        in its place for models of one image)."""
        loaded = SUITE.load(dataset, Selection())
        one = [it for it in loaded.items if str(getattr(it, "id", "")) == item_id]
        if not one:
            raise SuiteError(f"{dataset}: no item {item_id!r}")
        loaded.items = one
        blocks = []
        for q in SUITE.questions(loaded, Selection(), VariantCache(), render_images=False):
            for shown, who in ((q, ""), (q.fallback, " (in its place for max_images = 1)")):
                if shown is not None:
                    blocks.append(
                        f"{shown.probe} / {shown.condition}{who}\n"
                        f"version: {shown.prompt_version}\n"
                        f"images: {len(shown.images)}\n---\n{shown.prompt}"
                    )
        return blocks


PROMPTS = ForensicsPrompts()
