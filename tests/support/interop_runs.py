"""Real runs for the export-format tests: a Forensics run answered by a replay file and a Mandela
run answered by ``builtin/artefact`` and graded by ``builtin/rules``, both with metrics.csv.

Imported as ``from support.interop_runs import forensics_run, mandela_run`` (and
``ask_artefact_l0``, the Mandela run's asking step, for runs that add more to it).
"""

from __future__ import annotations

from pathlib import Path

from forgebench import api
from forgebench.run.generate import GenerationSettings
from forgebench.run.source import Selection


def forensics_run(root: Path) -> tuple[Path, Path]:
    """``(dataset, run)``: the four-row release of :mod:`support.forensics_data`, answered by
    model ``vlm`` (each answer takes a different extraction step), with metrics."""
    from support.forensics_data import write_forensics_release

    dataset, replay = write_forensics_release(root)
    run = root / "run"
    api.run(dataset, run, [f"vlm=replay/{replay}"], GenerationSettings(cache_dir=root / "cache"))
    api.metrics(run)
    return dataset, run


def ask_artefact_l0(dataset: Path, run: Path, cache: Path) -> None:
    """Ask ``builtin/artefact`` the L0 probe under ``full`` of every item of a Mandela dataset."""
    api.run(
        dataset,
        run,
        ["builtin/artefact"],
        GenerationSettings(
            selection=Selection(probes=("L0",), conditions=("full",)), cache_dir=cache
        ),
    )


def mandela_run(root: Path, seeds: int = 2) -> tuple[Path, Path]:
    """``(dataset, run)``: ``seeds`` authentic/forged pairs asked L0 under ``full`` of
    ``builtin/artefact``, graded by ``builtin/rules``, with metrics."""
    from support.mandela_data import write_mandela_dataset

    dataset = write_mandela_dataset(root / "dataset", seeds=seeds)
    run = root / "run"
    ask_artefact_l0(dataset, run, root / "cache")
    api.judge(run, "builtin/rules")
    api.metrics(run)
    return dataset, run
