"""Forensics' part of ``forgebench demo`` (the suite's ``demo`` facet; reached through ``api.demo_parts``):
the small Forensics set made from the demo's own forgeries (:mod:`.demo`)."""

from __future__ import annotations

from pathlib import Path


class ForensicsDemo:
    """What the demo needs of Forensics besides the shared verbs."""

    preload: tuple[str, ...] = (
        "forgebench.suites.forensics.suite",
        "forgebench.suites.forensics.demo",
    )
    """Imported while the dataset is built (the next steps run them)."""
    report_modules: tuple[str, ...] = (
        "forgebench.suites.forensics.item_view",
        "forgebench.suites.forensics.intervals",
        "forgebench.suites.forensics.viewer_tags",
    )
    """Forensics' report modules, imported ahead once the verifier's tools are released."""

    def build(self, mandela_dataset: Path, out: Path) -> int:
        """Write the Forensics demo set from a Mandela-format demo dataset to ``out`` (kept as
        it is when already built from the same files); the number of its items."""
        # lazy: `demo` loads its parts before the build; `preload` imports this during it
        from forgebench.suites.forensics.demo import build_forensics_demo

        return len(build_forensics_demo(mandela_dataset, out))


PART = ForensicsDemo()
