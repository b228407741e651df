"""Mandela's part of ``forgebench demo`` (the suite's ``demo`` facet; the pipeline, ``demo/pipeline.py``,
reaches it through ``api.demo_parts`` and imports no suite): the knowledge verifier's tools
(whether its extras are installed, their results read ahead in the background while the
detector is asked, their memory given back) and the demo dataset's forgeries with their
originals (PIXAR's pairs)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

from forgebench.suites.mandela.suite import SUITE as MANDELA
from forgebench.suites.mandela.verifier import threads

if TYPE_CHECKING:
    from forgebench.models.spec import ModelConfig
    from forgebench.run.source import Selection
    from forgebench.suites.mandela.verifier.model import Verifier
    from forgebench.suites.mandela.verifier.prewarm import Prewarm


class MandelaDemo:
    """What the demo needs of Mandela besides the shared verbs."""

    preload: tuple[str, ...] = (
        "forgebench.suites.mandela.suite",
        "forgebench.suites.mandela.validate",
    )
    """Imported while the dataset is built (the next steps run them)."""
    report_modules: tuple[str, ...] = (
        "forgebench.suites.mandela.figures",
        "forgebench.suites.mandela.headline",
        "forgebench.suites.mandela.tables",
        "forgebench.suites.mandela.regression",
        "forgebench.suites.mandela.viewer_card",
    )
    """Mandela's report modules, imported ahead once the verifier's tools are released."""

    def tools_missing(self) -> str | None:
        """Why the knowledge verifier cannot run here (its extras are missing), else None."""
        # lazy: `demo` loads its parts before the build; the tools load NumPy and Pillow
        from forgebench.suites.mandela.verifier import faces, ocr

        checks = (("faces", faces.available()), ("ocr", ocr.available()))
        missing = [name for name, ok in checks if not ok]
        if missing:
            extras = ",".join(missing)
            return f"the {extras} extra{'s are' if len(missing) > 1 else ' is'} not installed"
        return None

    def preload_tools(self) -> None:
        """Load the verifier's OCR and face models (about a second of CPU), where installed."""
        if self.tools_missing() is None:
            importlib.import_module("forgebench.suites.mandela.verifier.prewarm")

    @contextmanager
    def prewarm(
        self, dataset: Path, kb: Path, config: ModelConfig, selection: Selection, cache: Path
    ) -> Iterator[Prewarm | None]:
        """builtin/verifier's tool results computed in the background from here on (None when
        its extras are missing): the images ``config`` (a builtin/verifier on ``kb``) will be
        asked about are known from the dataset, so their OCR, scene matching and faces run while
        the detector is asked. Stopped when the block ends."""
        if self.tools_missing() is not None:
            yield None
            return
        # lazy: `demo` loads its parts before the build; these are preloaded during it
        from forgebench.run.generate import plan
        from forgebench.suites.mandela.verifier.kb import load_kb
        from forgebench.suites.mandela.verifier.model import create
        from forgebench.suites.mandela.verifier.prewarm import Prewarm, jobs_of
        from forgebench.suites.mandela.verifier.toolcache import FOLDER, holder, kept_in

        planned = plan(MANDELA, dataset, [config], selection, cache_dir=cache)
        asked = (
            (t.probe, t.question.images[0].path, t.question.images[0].variant_id)
            for t in planned.tasks[config.name]
            if t.question.images
        )

        def make() -> Verifier:
            with kept_in(cache / FOLDER):
                return create(config).verifier

        kept = holder(cache / FOLDER, load_kb(kb).fingerprint(), "text")
        warm = Prewarm(make, jobs_of(asked), stored=kept).start()
        try:
            yield warm
        finally:
            warm.cancel()
            warm.join()

    @contextmanager
    def asking(self, warm: Prewarm | None, cache: Path) -> Iterator[None]:
        """Around asking Mandela's questions: the verifier's tool results kept in the cache (a
        second demo reads them) and, with ``warm``, the verifier it built and is filling used
        by a builtin/verifier whose KB is the one asked."""
        # lazy: `demo` loads its parts before the build; the verifier loads NumPy and OpenCV
        from forgebench.suites.mandela.verifier.model import reusing
        from forgebench.suites.mandela.verifier.toolcache import FOLDER, kept_in

        ready = warm.verifier() if warm is not None else None
        with kept_in(cache / FOLDER), reusing(ready) if ready is not None else nullcontext():
            yield

    def tool_times(self, warm: Prewarm | None) -> str:
        """CPU seconds of the verifier's two tool threads so far and what the prewarm did."""
        ocr, vision = threads.OCR.cpu_seconds(), threads.VISION.cpu_seconds()
        line = f"OCR thread {ocr or 0.0:.1f} CPU-s, vision thread {vision or 0.0:.1f} CPU-s"
        if warm is not None:
            line += f"; {len(warm.jobs)} images read ahead, {len(warm.failed)} failed there"
        return line

    def release_tools(self) -> None:
        """Give the OCR and face models' memory back (a tool that failed in the prewarm loads
        its model again)."""
        # lazy: `demo` loads its parts before the build; the tools load NumPy and Pillow
        from forgebench.suites.mandela.verifier import faces, ocr

        ocr.release()
        faces.release()

    def forgery_pairs(self, dataset: Path) -> list[tuple[str, Path, Path]]:
        """Every forged item whose seed has an authentic original: (item id, original image,
        forged image)."""
        # lazy: `demo` loads its parts before the build, and the contract's pydantic models with it
        from forgebench.suites.mandela.contract import load_dataset

        ds = load_dataset(dataset)
        originals = {it.seed_id: it for it in ds.items if it.label == "authentic"}
        return [
            (it.id, ds.root / orig.image, ds.root / it.image)
            for it in ds.items
            if it.label == "forged" and (orig := originals.get(it.seed_id)) is not None
        ]


PART = MandelaDemo()
