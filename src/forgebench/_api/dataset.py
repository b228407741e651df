"""The dataset verbs: ``validate``, ``import``, ``prompts`` and the ``tasks`` matrix, each
through the suite the registry finds for the folder or file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from forgebench import suites
from forgebench._api import stages
from forgebench.errors import NothingToDo, UserError
from forgebench.interop.hf_hub import is_hub_id
from forgebench.run.source import parse_list
from forgebench.suites.base import (
    Importer,
    ImportSettings,
    MatrixRow,
    Output,
    Prompts,
    Selection,
    Suite,
    TaskMatrix,
    Validation,
    offers,
)
from forgebench.util.owned import is_owned, mark, replace_guard


def dataset_suite(dataset: str | Path, benchmark: str | None = None) -> Suite:
    """The suite of a dataset (a folder, or a file some suite reads such as PIXAR's pairs CSV;
    ``benchmark`` names it, else the registry recognises it); one line for a missing path or
    one no suite knows."""
    path = Path(dataset)
    if benchmark is None and not path.exists():
        raise UserError(f"{path}: no such dataset folder")
    return suites.detect(path, benchmark)


def validate(
    dataset: str | Path,
    *,
    benchmark: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Suite, Validation]:
    """Check a dataset folder with its suite's validator, touching nothing: the suite and every
    problem (``Validation.ok``: no error)."""
    suite = dataset_suite(dataset, benchmark)
    if not offers(suite, "validation"):
        raise NothingToDo(f"{dataset}: {suite.name} has no validator")
    return suite, stages.validate(suite, Path(dataset), progress)


def import_(
    src: str | Path,
    out: str | Path,
    settings: ImportSettings | None = None,
    *,
    benchmark: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Suite, Output]:
    """Write the dataset folder ``out`` from ``src`` with the importer that recognises it
    (``benchmark`` names the suite instead), all or nothing. ``src`` may be a Hub dataset that
    ``export-dataset --format hf`` wrote, ``hf://OWNER/NAME[@REVISION]`` (fetched through the
    Hugging Face cache: :mod:`forgebench.interop.hf_hub`).

    Whatever the suite, an existing ``out`` is replaced only where
    :func:`forgebench.util.owned.replace_guard` allows it (checked here, before any suite code
    runs: never the current folder, a parent of a source, or a folder forgebench did not
    write), and the folder written carries the dataset marker."""
    settings = settings or ImportSettings()
    if is_hub_id(src):
        out = Path(out)
        _guard_out(out, settings)
        suite, done = _import_hub(str(src), out, settings)
    else:
        src, out = Path(src), Path(out)
        _guard_out(out, settings, src)
        suite, done = _import(src, out, settings, benchmark, progress)
    if out.is_dir() and not out.is_symlink() and not is_owned(out):
        mark(out, "dataset")
    return suite, done


def _guard_out(out: Path, settings: ImportSettings, src: Path | None = None) -> None:
    """Refuse an ``out`` that the import may not replace (nothing is read or written yet). A
    non-empty ``out`` without ``--force`` is left to the suite's own "use --force" line."""
    import os

    if not os.path.lexists(out):
        return
    if out.is_dir() and not out.is_symlink() and any(out.iterdir()) and not settings.force:
        return
    replace_guard(out, "dataset", sources=[src, settings.images_root, settings.kb])


def _import(
    src: Path,
    out: Path,
    settings: ImportSettings,
    benchmark: str | None,
    progress: Callable[[int, int], None] | None,
) -> tuple[Suite, Output]:
    if src.is_dir():
        done = _import_hf(src, out, settings)
        if done is not None:
            return done
    if benchmark is not None:
        suite = suites.get(benchmark)
        if not offers(suite, "import"):
            raise NothingToDo(f"{benchmark}: no importer")
    else:
        having = [s for s in reversed(suites.all_suites()) if offers(s, "import")]
        found = next((s for s in having if _importer(s).imports(src)), None)
        if found is None:
            if not src.exists():
                raise UserError(f"{src}: no such file")
            raise UserError(
                f"{src}: no benchmark's importer reads it "
                f"(importers: {', '.join(s.name for s in having)})"
            )
        suite = found
    return suite, _importer(suite).import_(src, out, settings, progress)


def _importer(suite: Suite) -> Importer:
    got = suite.facet(Importer)
    assert got is not None, suite.name
    return got


def _import_hub(ref: str, out: Path, settings: ImportSettings) -> tuple[Suite, Output]:
    """A Hub dataset, fetched then imported as an export folder is (:func:`_import_hf`)."""
    # inside: light path (prompts, validate, import, run --dry-run)
    from forgebench._api.interop import import_hub_dataset

    name, n, commit = import_hub_dataset(ref, out, force=settings.force)
    line = f"imported {n} {name} items from {ref} (commit {commit}) into {out}"
    return suites.get(name), Output(files=[out], lines=[line])


def _import_hf(src: Path, out: Path, settings: ImportSettings) -> tuple[Suite, Output] | None:
    """A folder written by ``export-dataset --format hf`` back into its suite's dataset folder,
    validated before it moves into place (None: ``src`` is no such folder)."""
    # inside: light path (prompts, validate, import, run --dry-run)
    from forgebench._api.interop import import_hf_dataset

    done = import_hf_dataset(src, out, force=settings.force)
    if done is None:
        return None
    name, n = done
    return suites.get(name), Output(files=[out], lines=[f"imported {n} {name} items into {out}"])


def prompts(
    dataset: str | Path | None = None,
    item: str | None = None,
    *,
    benchmark: str | None = None,
) -> list[tuple[Suite, list[str]]]:
    """Without ``dataset``: every prompt template of each suite that has prompts (or of
    ``benchmark``); with ``dataset`` and ``item``: the exact prompts the item receives."""
    if (dataset is None) != (item is None):
        raise UserError("--dataset and --item go together")
    if dataset is not None and item is not None:
        suite = dataset_suite(dataset, benchmark)
        shown = suite.facet(Prompts)
        if shown is None:
            raise NothingToDo(f"{dataset}: {suite.name} shows no prompts")
        return [(suite, shown.prompts(Path(dataset), item))]
    chosen = [suites.get(benchmark)] if benchmark else suites.all_suites()
    out = [(s, p.templates()) for s in chosen if (p := s.facet(Prompts)) is not None]
    if not out:
        raise NothingToDo(f"{benchmark}: no prompt templates")
    return out


def selection_for(
    suite: Suite,
    *,
    probes: str | None = None,
    conditions: str | None = None,
    protocol: str | None = None,
    sample: int | None = None,
    options: dict[str, str] | None = None,
) -> Selection:
    """The comma-separated flags as the suite's :class:`Selection` (unknown names: one line)."""
    try:
        return Selection(
            probes=parse_list(probes, suite.protocol.probes, "probe"),
            conditions=parse_list(conditions, suite.protocol.conditions, "condition"),
            parts=parse_list(protocol, tuple(suite.protocol.parts), "protocol part") or (),
            sample=sample,
            options=dict(options or {}),
        )
    except ValueError as exc:
        raise suites.SuiteError(str(exc)) from None


def tasks(
    dataset: str | Path, selection: Selection | None = None, *, benchmark: str | None = None
) -> tuple[Suite, TaskMatrix]:
    """The dry-run task matrix of a dataset (nothing written)."""
    suite = dataset_suite(dataset, benchmark)
    chosen, shown = selection or Selection(), suite.facet(Prompts)
    matrix = shown.task_matrix(Path(dataset), chosen) if shown is not None else None
    return suite, matrix or count_matrix(suite, Path(dataset), chosen)


def count_matrix(suite: Suite, dataset: Path, selection: Selection) -> TaskMatrix:
    """The default dry-run matrix: the dataset loaded, its questions counted per probe x
    condition without rendering an image."""
    from collections import Counter

    # inside: light path (validate, import)
    from forgebench.run.images import VariantCache

    loaded = suite.load(dataset, selection)
    qs = list(suite.questions(loaded, selection, VariantCache(), render_images=False))
    counts = Counter((q.probe, q.condition) for q in qs)
    return TaskMatrix(
        rows=[MatrixRow(p, c, n) for (p, c), n in counts.items()],
        items=len(loaded.items),
        questions=len(qs),
        variants=len({ref.variant_id for q in qs for ref in q.images}),
    )
