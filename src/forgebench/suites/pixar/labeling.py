"""Write PIXAR pixel-label maps for a set of (original, edited) pairs, all or nothing.

Layout: one tau -> ``OUT/<edited stem>.png``; several -> ``OUT/tau<tau>/<edited stem>.png``.
Maps are computed into a hidden temporary folder inside ``OUT`` and moved into place only when
every pair succeeded, so a failure (an undecodable image, a full disk) leaves ``OUT`` as it was.
Decoding and labelling run on an executor (``run/executor.py``: this process, or Ray workers that
return the PNG bytes); this process alone writes them.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from forgebench.construct.pixels import labels_u8, parse_taus, tau_dirname
from forgebench.suites.pixar.pairs import Pair, PairsError, encode_label_png, read_rgb

if TYPE_CHECKING:
    from forgebench.run.executor import Executor


def label_paths(stem: str, taus: Sequence[float], out_dir: Path) -> list[Path]:
    """Where the label maps of one pair go, one path per tau."""
    if len(taus) == 1:
        return [out_dir / f"{stem}.png"]
    return [out_dir / tau_dirname(t) / f"{stem}.png" for t in taus]


def label_pngs(files: tuple[str, str], taus: tuple[float, ...]) -> list[bytes]:
    """The label-map PNG bytes of one (original, edited) pair, one per tau (runs on workers)."""
    maps = labels_u8(read_rgb(files[0]), read_rgb(files[1]), taus)
    return [encode_label_png(m) for m in maps]


def write_labels(
    pairs: Sequence[Pair],
    taus: Sequence[float],
    out_dir: str | Path,
    on_pair: Callable[[Pair], None] | None = None,
    executor: Executor | None = None,
) -> list[Path]:
    """Compute and write every label map; returns the final paths. Raises :class:`PairsError`."""
    from forgebench.run.executor import LocalExecutor

    taus = parse_taus(taus)
    runner = executor if executor is not None else LocalExecutor()
    jobs = [(str(p.original), str(p.edited)) for p in pairs]
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise PairsError(f"{out}: exists and is not a folder")
    created = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".forgebench-labels-", dir=out))
    final: list[Path] = []
    ok = False
    try:
        staged: list[tuple[Path, Path]] = []
        results = runner.map(partial(label_pngs, taus=tuple(taus)), jobs)
        for pair, pngs in zip(pairs, results, strict=True):
            for png, dest in zip(pngs, label_paths(pair.stem, taus, out), strict=True):
                src = tmp / dest.relative_to(out)
                src.parent.mkdir(parents=True, exist_ok=True)
                src.write_bytes(png)
                staged.append((src, dest))
            if on_pair is not None:
                on_pair(pair)
        for src, dest in staged:
            dest.parent.mkdir(parents=True, exist_ok=True)
            src.replace(dest)
            final.append(dest)
        ok = True
    except OSError as exc:
        raise PairsError(f"{out}: cannot write label maps ({exc.strerror or exc})") from exc
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if not ok and created:
            shutil.rmtree(out, ignore_errors=True)
    return final
