"""What ``run`` checks before it sends anything: the validator's errors stop it.

``forgebench run`` (and its ``--dry-run``) loads the dataset with :func:`load`, which calls
:func:`check_dataset` first. It runs the same rules as ``forgebench validate`` (duplicate ids, an
empty ``items.jsonl``, a key given twice in one JSON object, paths that leave the folder, links
to files outside it, ...) but reads only the images' headers, not their pixels (``run`` renders
the variants it needs itself), so a resumed run does not decode the whole dataset again.
Warnings do not stop a run.
"""

from __future__ import annotations

from pathlib import Path

from forgebench.run.source import Loaded, Selection
from forgebench.suites.base import SuiteError
from forgebench.suites.mandela.contract import DatasetError, load_dataset, sample_seeds
from forgebench.suites.mandela.validate import validate_dataset


def check_dataset(root: Path) -> None:
    """Raise :class:`DatasetError` (one line: the first error and how many) if ``root`` has
    validation errors."""
    report = validate_dataset(Path(root), decode=False)
    if report.ok:
        return
    first = str(report.errors[0])
    more = len(report.errors) - 1
    tail = f" (and {more} more; see forgebench validate {root})" if more else ""
    raise DatasetError(f"{root}: dataset has errors: {first}{tail}")


def load(path: Path, selection: Selection) -> Loaded:
    """The dataset for ``run`` (``MandelaSuite.load``): checked as ``validate`` checks it (run
    refuses what validate rejects), then cut to its first ``--sample`` seeds."""
    try:
        check_dataset(path)
        ds = sample_seeds(load_dataset(path), selection.sample)
    except DatasetError as exc:
        raise SuiteError(str(exc)) from None
    return Loaded(root=ds.root, items=ds.items, data=ds)
