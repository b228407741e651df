"""PIXAR's part of ``forgebench demo`` (the suite's ``demo`` facet; reached through ``api.demo_parts``): pixel
labels of each forgery against its original, scored against a detector's score maps.

The pairs come from the demo dataset (Mandela's part gives them: every forged item whose seed has
an authentic original). The truth is the pixel label of seed 003 (mean absolute RGB difference >
tau, ``construct/pixels.py``); the prediction is the detector's score map in [0, 1]. Label maps and
score maps are written under ``RUN/pixar/`` so ``forgebench pixar score --truth RUN/pixar/labels
--pred RUN/pixar/pred`` reproduces the numbers, and the rows go into ``RUN/metrics.csv`` with
``benchmark = pixar`` (the detector's rows: the PIXAR section of ``forgebench report`` shows them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from forgebench.report.site_images import safe_name
from forgebench.results.metrics_csv import Scope, write_metrics
from forgebench.suites.pixar.results import BENCHMARK, pixar_metrics_rows
from forgebench.util.atomic import atomic_open

ScoreMap = Callable[[np.ndarray], np.ndarray]


@dataclass
class PixarDemoResult:
    """What :meth:`PixarDemo.score` scored (its rows go to metrics.csv by
    :meth:`PixarDemo.write`)."""

    results: dict[str, Any]
    rows: list[dict[str, Any]]
    n_pairs: int
    threshold: float = 0.5
    """Score maps are tampered where score >= threshold (:func:`.scoring.score_arrays`)."""


def _rgb(path: Path) -> np.ndarray:
    with Image.open(path) as im:
        return np.asarray(im.convert("RGB"))


class PixarDemo:
    """What the demo needs of PIXAR besides the shared verbs."""

    report_modules: tuple[str, ...] = (
        "forgebench.suites.pixar.suite",
        "forgebench.suites.pixar.section",
        "forgebench.suites.pixar.intervals",
        "forgebench.suites.pixar.viewer_pictures",
    )
    """PIXAR's report modules, imported ahead once the verifier's tools are released."""

    def score(
        self,
        pairs: Iterable[tuple[str, Path, Path]],
        run_dir: Path,
        score_map: ScoreMap,
        *,
        model: str,
        tau: float | None = None,
    ) -> PixarDemoResult:
        """Label every forgery of ``pairs`` (item id, original, forged) against its original
        at ``tau`` (default: seed 003's, ``construct.pixels.DEFAULT_TAU``) and score the
        detector's maps; the label and score maps are written (each file whole or not at all),
        metrics.csv is left to :meth:`write`. Nothing here reads the run's answers, so it may
        run before them. The labelling and scoring modules (OpenCV among them) are imported
        here, not with the part: the demo scores PIXAR once the verifier's tools have given
        their memory back, and they would otherwise sit under its peak."""
        # lazy: imported once the verifier's tools are released (see above), not with the part
        from forgebench.construct.pixels import DEFAULT_TAU, label_u8
        from forgebench.suites.pixar.scoring import score_arrays

        threshold = DEFAULT_TAU if tau is None else tau

        labels_dir = run_dir / "pixar" / "labels"
        pred_dir = run_dir / "pixar" / "pred"
        labels_dir.mkdir(parents=True, exist_ok=True)
        pred_dir.mkdir(parents=True, exist_ok=True)
        n = 0
        edited_of: dict[str, Path] = {}

        def triples() -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
            nonlocal n
            for item_id, orig_path, edit_path in pairs:
                stem = safe_name(item_id)
                edited_of[stem] = edit_path
                original, edited = _rgb(orig_path), _rgb(edit_path)
                label = label_u8(original, edited, threshold)
                with atomic_open(labels_dir / f"{stem}.png", "wb", durable=False) as fh:
                    Image.fromarray(label).save(fh, format="PNG")
                if edited.shape[:2] != original.shape[:2]:
                    edited = np.asarray(Image.fromarray(edited).resize(original.shape[1::-1]))
                pred = np.clip(score_map(edited).astype(np.float32), 0.0, 1.0)
                with atomic_open(pred_dir / f"{stem}.npy", "wb", durable=False) as fh:
                    np.save(fh, pred)
                n += 1
                yield stem, label != 0, pred

        results = score_arrays(triples())
        for rec in results["pairs"]:  # where each pair's pictures are, for the run store
            rec["truth"] = str(labels_dir / f"{rec['pair']}.png")
            rec["pred"] = str(pred_dir / f"{rec['pair']}.npy")
            rec["image"] = str(edited_of[rec["pair"]])
        return PixarDemoResult(results=results, rows=pixar_metrics_rows(results, model), n_pairs=n)

    def write(self, run_dir: Path, scored: PixarDemoResult, *, model: str) -> None:
        """The rows of :meth:`score` into ``RUN/metrics.csv`` (replacing that model's PIXAR
        rows only), and each pair's scores into the run store for the report's viewer
        (:mod:`.pair_scores`)."""
        # lazy: `demo` loads its parts before the build, and the run store's models with it
        from forgebench.suites.pixar.pair_scores import keep_pair_scores

        keep_pair_scores(run_dir, model, scored.results["pairs"], scored.threshold)
        write_metrics(run_dir, scored.rows, Scope.of(BENCHMARK, models=[model], exclude="imdl_"))


PART = PixarDemo()
