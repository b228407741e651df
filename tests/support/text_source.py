"""A text-only question source of ``n`` questions: the smallest benchmark the engine can run.

Imported as ``from support.text_source import TextSource`` (pytest puts ``tests/`` on the path).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from forgebench.run.images import VariantCache
from forgebench.run.source import Loaded, Selection
from forgebench.run.tasks import Question


class TextSource:
    """Items ``"0"`` .. ``str(n-1)``; item i asks ``prompt.format(i=i)`` under ``probe``/full."""

    def __init__(
        self, n: int, name: str = "texts", probe: str = "Q", prompt: str = "question {i}"
    ) -> None:
        self.n = n
        self.name = name
        self.probe = probe
        self.prompt = prompt

    def load(self, path: Path, selection: Selection) -> Loaded:
        return Loaded(root=path, items=[{"id": str(i)} for i in range(self.n)])

    def questions(
        self,
        loaded: Loaded,
        selection: Selection,
        cache: VariantCache,
        *,
        render_images: bool = True,
    ) -> Iterator[Question]:
        version = f"{self.probe.lower()}/v1"
        for i in range(self.n):
            yield Question(str(i), self.probe, "full", self.prompt.format(i=i), version)
