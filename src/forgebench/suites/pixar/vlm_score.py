"""Score one model's stored LOC answers: parse, rasterize, then localization, semantics and CSS.

Per pair (``probe.py`` for the parser and the raster):

- the stored answer is read with :func:`parse_reply` and its boxes / polygons rasterized at the
  size of the image that was sent (the edited image; the prompt states that size, so a model
  that resized the image internally still answers in its coordinates). When the edited image's
  size differs from the original's, the mask is resized nearest-neighbour to the truth's size
  and the stem is listed under ``resized`` (as ``pixar score`` does);
- a **miss** is a pair without a usable answer: no stored answer (the task ended as an error or
  was never sent) or a reply holding no readable JSON object. A miss is scored as an empty
  prediction (IoU 0 on a non-empty truth), an empty class list and an empty description (CSS 0),
  and is counted: ``n_miss`` and ``miss`` (a percentage of the pairs, as Mandela's ``miss``);
- pixel metrics come from :func:`forgebench.suites.pixar.scoring.score_arrays` (percentages; no AUC:
  a rasterized reply is a mask, not a score map);
- semantic top-1 / top-5 (percentages) over the pairs with a truth class, the reply's ``classes``
  list being the ranked prediction (:class:`SemanticAccumulator`);
- CSS (raw, as seed 003 Table 9) over the pairs with a reference description
  (:func:`forgebench.suites.pixar.css.css_scores`; an empty predicted description scores 0).

Predicted masks are written as ``<stem>.png`` (255 tampered) to ``pred_dir`` (misses get no
file), so ``forgebench pixar score --truth RUN/pixar/labels --pred <pred_dir>`` reproduces the
pixel metrics.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from forgebench.suites.pixar.pairs import read_mask, write_label_png
from forgebench.suites.pixar.probe import LocReply, parse_reply, rasterize
from forgebench.suites.pixar.scoring import score_arrays
from forgebench.suites.pixar.tamper_class import SemanticAccumulator
from forgebench.suites.pixar.vlm_inputs import PairImage, Reference


def answer_text(con: sqlite3.Connection, key: str) -> str | None:
    """The stored answer text of a task, or None when it has no answer."""
    row = con.execute("SELECT text FROM answers WHERE task_key=?", (key,)).fetchone()
    return None if row is None else str(row[0])


def score_answers(
    images: Sequence[PairImage],
    keys: Mapping[str, str],
    con: sqlite3.Connection,
    labels_dir: Path,
    references: Mapping[str, Reference] | None = None,
    pred_dir: Path | None = None,
) -> dict[str, Any]:
    """Score one model over ``images`` (``keys``: stem -> its task key); see the module docstring.

    Streams pair by pair: one truth map and one mask in memory at a time.
    """
    refs = references or {}
    semantic = SemanticAccumulator()
    css_pred: list[str] = []
    css_ref: list[str] = []
    misses: list[str] = []
    unanswered: list[str] = []
    stage: Path | None = None
    if pred_dir is not None:
        pred_dir.parent.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(prefix=".forgebench-pred-", dir=pred_dir.parent))

    def triples() -> Iterator[tuple[str, np.ndarray, np.ndarray | None]]:
        for im in images:
            text = answer_text(con, keys[im.stem])
            reply = parse_reply(text) if text is not None else LocReply()
            if text is None:
                unanswered.append(im.stem)
            mask: np.ndarray | None = None
            if reply.parsed:
                mask = rasterize(reply, im.height, im.width)
                if stage is not None:
                    write_label_png(mask, stage / f"{im.stem}.png")
            else:
                misses.append(im.stem)
            ref = refs.get(im.stem)
            if ref is not None and ref.classes:
                semantic.add(list(ref.classes), reply.classes)
            if ref is not None and ref.description:
                css_pred.append(reply.description)
                css_ref.append(ref.description)
            yield im.stem, read_mask(labels_dir / f"{im.stem}.png"), mask

    try:
        out = score_arrays(triples())
        if stage is not None and pred_dir is not None:
            if pred_dir.exists():
                shutil.rmtree(pred_dir)
            stage.replace(pred_dir)
            stage = None
    finally:
        if stage is not None:
            shutil.rmtree(stage, ignore_errors=True)
    n = len(images)
    out["n_pairs"] = n
    out["misses"] = misses
    out["n_miss"] = len(misses)
    out["miss"] = 100.0 * len(misses) / n if n else 0.0
    out["unanswered"] = unanswered
    if semantic.n:
        sem = semantic.result()
        out["top1"] = 100.0 * sem["top1"]
        out["top5"] = 100.0 * sem["top5"]
        out["n_semantic"] = sem["n"]
    if css_ref:
        from forgebench.suites.pixar.css import css_scores

        scores = css_scores(css_pred, css_ref)
        out["css"] = float(np.mean(scores))
        out["n_css"] = len(scores)
    return out
