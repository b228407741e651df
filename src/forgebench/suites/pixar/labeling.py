"""Write PIXAR pixel-label maps for a set of (original, edited) pairs, all or nothing.

Layout: one tau -> ``OUT/<edited stem>.png``; several -> ``OUT/tau<tau>/<edited stem>.png``.
Maps are computed into a hidden temporary folder inside ``OUT`` and moved into place only when
every pair succeeded, so a failure (an undecodable image, a full disk) leaves ``OUT`` as it was.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from forgebench.construct.pixels import labels_u8, parse_taus, tau_dirname
from forgebench.suites.pixar.pairs import Pair, PairsError, read_rgb, write_label_png


def label_paths(stem: str, taus: Sequence[float], out_dir: Path) -> list[Path]:
    """Where the label maps of one pair go, one path per tau."""
    if len(taus) == 1:
        return [out_dir / f"{stem}.png"]
    return [out_dir / tau_dirname(t) / f"{stem}.png" for t in taus]


def write_labels(
    pairs: Sequence[Pair],
    taus: Sequence[float],
    out_dir: str | Path,
    on_pair: Callable[[Pair], None] | None = None,
) -> list[Path]:
    """Compute and write every label map; returns the final paths. Raises :class:`PairsError`."""
    taus = parse_taus(taus)
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
        for pair in pairs:
            orig, edit = read_rgb(pair.original), read_rgb(pair.edited)
            maps = labels_u8(orig, edit, taus)
            for m, dest in zip(maps, label_paths(pair.stem, taus, out), strict=True):
                src = tmp / dest.relative_to(out)
                src.parent.mkdir(parents=True, exist_ok=True)
                write_label_png(m, src)
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
