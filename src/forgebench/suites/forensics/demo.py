"""The demo's Forensics part: a small Forensics set made by the generators from the demo's own
forgeries.

Input: the offline demo's Mandela dataset folder (``forgebench demo`` builds it), whose forged
items are pixel edits of an authentic original of the same seed. For every forged item we ask a
binary question (``<id>-bc``), a segmentation question whose true mask is the set of pixels that
differ from the original (``<id>-sls``), and a detection question whose true box is the item's
``edit.region`` (``<id>-sld``); every authentic original gets the same three questions as real
media (``REAL-REAL``, answer "non AI-manipulated" / "No area was manipulated.").

Perspectives (our mapping; the demo's edits are drawn and pasted by code): semantic ``HS`` for the
people family (K1) and ``GS`` otherwise; modality ``RGB``; type ``RM`` (Removal) for ``remove``
edits and ``SPL`` (Splicing) for the others (insert, replace, retext, recolour: content composed
into the image); model ``GR`` (Graphics-based methods). Images are scaled to a longer side of
:data:`MAX_SIDE` px first (forgery and original alike, so the true mask is their difference
after scaling, and the edit box is scaled with them).
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from forgebench.suites.forensics import generate
from forgebench.suites.forensics.contract import (
    ITEMS_FILE,
    ForensicsItem,
    item_json,
    load_items,
    write_markers,
)
from forgebench.suites.forensics.images import ImageFolder
from forgebench.suites.forensics.marker import MARKER_FILE
from forgebench.suites.forensics.problems import ForensicsDataError
from forgebench.util import built
from forgebench.util.atomic import clean_stale, temp_name
from forgebench.util.jsonl import iter_jsonl
from forgebench.util.owned import replace_folder, replace_guard

MAX_SIDE = 256
"""The demo set's images are scaled to this longer side (keeps the demo fast)."""


def _perspectives(item: dict[str, Any], task: str) -> dict[str, str]:
    if item["label"] == "authentic":
        return {"semantic": "GS", "modality": "RGB", "task": task, "type": "REAL", "model": "REAL"}
    op = (item.get("edit") or {}).get("operation", "")
    return {
        "semantic": "HS" if item.get("family") == "K1" else "GS",
        "modality": "RGB",
        "task": task,
        "type": "RM" if op == "remove" else "SPL",
        "model": "GR",
    }


def _small(path: Path, max_side: int) -> tuple[np.ndarray, float]:
    """The image as RGB with its longer side at most ``max_side`` (bilinear), and the scale."""
    with Image.open(path) as im:
        rgb = im.convert("RGB")
    scale = min(1.0, max_side / max(rgb.size))
    if scale < 1.0:
        size = (max(1, round(rgb.width * scale)), max(1, round(rgb.height * scale)))
        rgb = rgb.resize(size, Image.Resampling.BILINEAR)
    return np.asarray(rgb), scale


def _png(rgb: np.ndarray) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def build_forensics_demo(
    mandela_root: Path, out: Path, *, seed: int = 0, max_side: int = MAX_SIDE
) -> list[ForensicsItem]:
    """Write the Forensics demo set to ``out`` (replaced if it is one) and return its items.

    A set that is exactly what the last complete build wrote, from the same Mandela folder
    (every file's digest), ``seed`` and ``max_side``, with this recipe, is kept as it is and its
    items read back (:mod:`forgebench.util.built`)."""
    src = mandela_root / ITEMS_FILE
    if not src.is_file():
        raise ForensicsDataError(f"{mandela_root}: not a demo dataset folder (no {ITEMS_FILE})")
    inputs = f"{built.digest_of(mandela_root)}|seed={seed}|max_side={max_side}"
    if built.unchanged(out, inputs):
        return load_items(out)
    built.forget(out)
    items = _build(src, mandela_root, out, seed, max_side)
    built.remember(out, inputs)
    return items


def _build(
    src: Path, mandela_root: Path, out: Path, seed: int, max_side: int
) -> list[ForensicsItem]:
    rows = []
    for lineno, obj, err in iter_jsonl(src):
        if obj is None:
            raise ForensicsDataError(f"{src}:{lineno}: {err}")
        rows.append(obj)
    originals = {r["seed_id"]: r["image"] for r in rows if r.get("label") == "authentic"}
    if out.exists() and not (out / MARKER_FILE).is_file():
        raise ForensicsDataError(f"{out}: exists and is not a Forensics dataset folder")
    replace_guard(out, "dataset", sources=[src, mandela_root])
    out.parent.mkdir(parents=True, exist_ok=True)
    clean_stale(out.parent, out.name)
    work = out.parent / temp_name(out.name, "building")
    work.mkdir()
    try:
        folder = ImageFolder(work)
        items: list[ForensicsItem] = []
        for r in rows:
            forged = r["label"] == "forged"
            rgb, scale = _small(mandela_root / r["image"], max_side)
            image = folder.put(_png(rgb)).path
            mask = box = None
            if forged:
                original = originals.get(r["seed_id"])
                if original is None:
                    raise ForensicsDataError(
                        f"{src}: forged item {r['id']} has no authentic original"
                    )
                before, _ = _small(mandela_root / original, max_side)
                mask = np.abs(rgb.astype(np.int16) - before).max(axis=2) > 0
                x0, y0, x1, y1 = (float(v) * scale for v in r["edit"]["region"])
                h, w = rgb.shape[:2]
                box = (
                    int(x0),
                    int(y0),
                    min(w, max(int(x0) + 1, round(x1))),
                    min(h, max(int(y0) + 1, round(y1))),
                )
            rid = str(r["id"])
            items.append(
                generate.binary(
                    f"{rid}-bc", image, _perspectives(r, "BC"), seed=seed, wording="manipulated"
                )
            )
            items.append(
                generate.segmentation(
                    f"{rid}-sls", work, image, mask, _perspectives(r, "SLS"), seed=seed
                )
            )
            items.append(
                generate.detection(
                    f"{rid}-sld", work, image, box, _perspectives(r, "SLD"), seed=seed
                )
            )
        with (work / ITEMS_FILE).open("w", encoding="utf-8") as fh:
            for it in items:
                fh.write(item_json(it) + "\n")
        write_markers(work, {"source": "forgebench demo", "items": len(items)})
        replace_folder(work, out, "dataset", sources=[src, mandela_root])
        return items
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
