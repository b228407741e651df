"""PIXAR speed: pixel labels + localization metrics of 1024 x 1024 PNG pairs, one core.

The pairs are written as PNG files. Times, each the median of ``--repeats``:

- decode: both PNGs of every pair decoded and nothing else, by each decoder: OpenCV, Pillow,
  libspng as pyspng ships it (no CRC or Adler-32 check: a damaged file decodes into wrong pixels)
  and libspng after ``util/png.py``'s CRC check (what ``read_rgb`` uses when the ``fastpng`` extra
  is installed). The floor of a first pass is the fastest decoder that can be shipped: the faster
  of OpenCV and checked libspng; the ratio to unchecked libspng is printed beside it;
- first pass: ``labeling.pair_labels`` with an empty :class:`LabelCache` (decode, label, pack into
  the cache) + ``LocalizationAccumulator.add`` with a float score map (gIoU / cIoU / P / R / F1 /
  AUC histogram);
- later pass: the same with the cache filled (no decoding);
- in memory: labels + metrics on arrays already decoded (the old figure "without decoding");
- a straightforward NumPy reference of the same definitions (float64 label, ``np.histogram``
  AUC), which every pass must match exactly.

Targets: first pass within 1.4x of decoding alone; later passes >= 40 pairs/s; the cache's bytes
per pair are printed (the bound is ``LabelCache.max_bytes``).

Run: ``.venv/bin/python benchmarks/pixar_speed.py [--pairs 40] [--size 1024] [--json OUT]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from forgebench.construct.pixels import label_reference, labels_u8  # noqa: E402
from forgebench.suites.pixar.labeling import LabelCache, pair_labels  # noqa: E402
from forgebench.suites.pixar.localization import LocalizationAccumulator  # noqa: E402
from forgebench.util import png  # noqa: E402

TARGET_FIRST_RATIO = 1.4
TARGET_LATER_PAIRS_S = 40.0


def make_pair(rng: np.random.Generator, size: int) -> tuple[bytes, bytes, np.ndarray]:
    """PNG bytes of an (original, edited) pair and a float32 score map in [0, 1]."""
    base = rng.integers(0, 256, (size // 16, size // 16, 3), dtype=np.uint8)
    o = cv2.GaussianBlur(cv2.resize(base, (size, size), interpolation=cv2.INTER_CUBIC), (0, 0), 2)
    e = o.copy()
    y, x = rng.integers(0, size // 2, 2)
    e[y : y + size // 4, x : x + size // 3] = 255 - e[y : y + size // 4, x : x + size // 3]
    noise = rng.integers(-6, 7, o.shape)  # re-encoding noise everywhere (a JPEG-like editor)
    e = np.clip(e.astype(np.int16) + noise, 0, 255).astype(np.uint8)
    score = cv2.GaussianBlur(rng.random((size, size), dtype=np.float32), (0, 0), 8)
    score = (score - score.min()) / (score.max() - score.min())
    ok1, b1 = cv2.imencode(".png", o)
    ok2, b2 = cv2.imencode(".png", e)
    assert ok1 and ok2
    return b1.tobytes(), b2.tobytes(), score.astype(np.float32)


def reference_metrics(
    pairs: list[tuple[np.ndarray, np.ndarray, np.ndarray]], tau: float, bins: int
) -> dict[str, float]:
    """The definitions written plainly in float64 NumPy."""
    iou_sum = inter_t = union_t = tp = fp = fn = 0.0
    pos = np.zeros(bins)
    neg = np.zeros(bins)
    for o, e, s in pairs:
        t = label_reference(o, e, tau)
        p = s >= 0.5
        inter = np.sum(t & p)
        union = np.sum(t | p)
        iou_sum += inter / union if union else 1.0
        inter_t += inter
        union_t += union
        tp += inter
        fp += np.sum(p & ~t)
        fn += np.sum(t & ~p)
        idx = np.minimum(np.floor(s.astype(np.float32) * np.float32(bins)), bins - 1)
        pos += np.histogram(idx[t], bins=bins, range=(0, bins))[0]
        neg += np.histogram(idx[~t], bins=bins, range=(0, bins))[0]
    n = len(pairs)
    prec, rec = tp / (tp + fp), tp / (tp + fn)
    neg_below = np.cumsum(neg) - neg
    auc = float(np.sum(pos * (neg_below + 0.5 * neg)) / (pos.sum() * neg.sum()))
    return {
        "giou": iou_sum / n,
        "ciou": inter_t / union_t,
        "precision": prec,
        "recall": rec,
        "f1": 2 * prec * rec / (prec + rec),
        "auc": auc,
    }


def _median_time(fn, repeats: int) -> float:  # type: ignore[no-untyped-def]
    """Median CPU seconds of ``fn()`` (one thread: CPU time is what a quiet machine's wall
    clock shows; the shared machine's load is left out)."""
    times = []
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=40)
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--tau", type=float, default=0.05)
    ap.add_argument("--bins", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", type=Path, help="Also write the figures here.")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    rng = np.random.default_rng(0)
    distinct = [make_pair(rng, args.size) for _ in range(min(8, args.pairs))]
    encoded = [distinct[i % len(distinct)] for i in range(args.pairs)]
    n = args.pairs
    with tempfile.TemporaryDirectory() as tmp_s:
        tmp = Path(tmp_s)
        files = []
        for i, (a, b, s) in enumerate(encoded):
            fa, fb = tmp / f"o{i}.png", tmp / f"e{i}.png"
            fa.write_bytes(a)
            fb.write_bytes(b)
            files.append((fa, fb, s))

        def decode_cv2() -> None:
            for fa, fb, _ in files:
                for f in (fa, fb):
                    cv2.imdecode(np.fromfile(f, np.uint8), cv2.IMREAD_COLOR)

        def decode_spng_unchecked() -> None:
            import pyspng

            for fa, fb, _ in files:
                for f in (fa, fb):
                    pyspng.load(f.read_bytes(), format="RGB")

        def decode_spng_checked() -> None:
            for fa, fb, _ in files:
                for f in (fa, fb):
                    if png.rgb8(f.read_bytes()) is None:
                        raise SystemExit(f"{f}: not decoded by libspng")

        def decode_pil() -> None:
            from PIL import Image

            for fa, fb, _ in files:
                for f in (fa, fb):
                    with Image.open(f) as im:
                        np.asarray(im.convert("RGB"))

        cache = LabelCache(tmp / "cache")
        results: dict[str, dict[str, float]] = {}

        def labelled(fresh: bool) -> None:
            if fresh:
                for p in cache.dir.glob("*/*.bin"):
                    p.unlink()
            acc = LocalizationAccumulator(bins=args.bins)
            for fa, fb, s in files:
                acc.add(pair_labels(fa, fb, [args.tau], cache)[0], s)
            results["fresh" if fresh else "cached"] = acc.result()

        t_cv2 = _median_time(decode_cv2, args.repeats)
        t_pil = _median_time(decode_pil, 1)
        spng = png.available()
        t_raw = _median_time(decode_spng_unchecked, args.repeats) if spng else None
        t_checked = _median_time(decode_spng_checked, args.repeats) if spng else None
        decoder, t_decode = min(
            [("OpenCV", t_cv2)] + ([("libspng, CRC-checked", t_checked)] if t_checked else []),
            key=lambda d: d[1],
        )
        t_first = _median_time(lambda: labelled(True), args.repeats)
        t_later = _median_time(lambda: labelled(False), args.repeats)
        cache_bytes = cache.size_bytes()
        decoded = [
            (cv2.cvtColor(cv2.imdecode(np.fromfile(fa, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB),
             cv2.cvtColor(cv2.imdecode(np.fromfile(fb, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB), s)
            for fa, fb, s in files
        ]  # fmt: skip

    acc = LocalizationAccumulator(bins=args.bins)
    labels = []

    def in_memory() -> None:
        acc.__init__(bins=args.bins)  # type: ignore[misc]
        labels.clear()
        for o, e, s in decoded:
            lab = labels_u8(o, e, [args.tau])[0]
            acc.add(lab.view(bool), s)
            labels.append(lab)

    t_mem = _median_time(in_memory, args.repeats)
    fast = acc.result()
    t0 = time.process_time()
    ref = reference_metrics(decoded, args.tau, args.bins)
    t_ref = time.process_time() - t0

    same_labels = all(
        np.array_equal(lab != 0, label_reference(o, e, args.tau))
        for lab, (o, e, _) in zip(labels[: len(distinct)], decoded[: len(distinct)], strict=True)
    )
    diffs = {k: abs(fast[k] - ref[k]) for k in ref}
    same_passes = results["fresh"] == fast and results["cached"] == fast
    ratio = t_first / t_decode
    print(f"pairs: {n} of {args.size}x{args.size}, tau {args.tau}, AUC bins {args.bins}, 1 thread, "
          f"CPU seconds, median of {args.repeats}")  # fmt: skip
    print(f"decode alone, OpenCV:    {t_cv2:7.3f} s   {n / t_cv2:7.1f} pairs/s   "
          f"(Pillow {n / t_pil:.1f} pairs/s)")  # fmt: skip
    if t_raw is not None and t_checked is not None:
        print(f"decode alone, libspng:   {t_checked:7.3f} s   {n / t_checked:7.1f} pairs/s   "
              f"CRC-checked ({n / t_raw:.1f} pairs/s unchecked, as pyspng ships it)")  # fmt: skip
    else:
        print("decode alone, libspng:   not installed (the fastpng extra)")
    print(f"first pass:              {t_first:7.3f} s   {n / t_first:7.1f} pairs/s   "
          f"{ratio:.2f}x decoding alone by the fastest shipped decoder ({decoder}; target <= "
          f"{TARGET_FIRST_RATIO}x)" + (f"; {t_first / t_raw:.2f}x unchecked libspng"
                                       if t_raw is not None else ""))  # fmt: skip
    print(f"later pass (cache):      {t_later:7.3f} s   {n / t_later:7.1f} pairs/s   "
          f"(target >= {TARGET_LATER_PAIRS_S:.0f})")  # fmt: skip
    print(f"in memory (no decoding): {t_mem:7.3f} s   {n / t_mem:7.1f} pairs/s")
    print(f"numpy reference:         {t_ref:7.3f} s   {n / t_ref:7.1f} pairs/s")
    print(f"label cache: {cache_bytes / n / 1024:.1f} KiB per pair on disk "
          f"(at most {args.size * args.size / 8 / 1024:.0f} KiB before deflating; folder bound "
          f"{cache.max_bytes / 2**20:.0f} MiB)")  # fmt: skip
    print(f"labels identical to the float definition: {same_labels}; every pass's metrics "
          f"identical: {same_passes}")  # fmt: skip
    print("metric |fast - reference|: " + ", ".join(f"{k} {v:.2e}" for k, v in diffs.items()))
    print("metrics: " + ", ".join(f"{k} {100 * ref[k]:.2f}" for k in ref))
    out = {
        "pairs": n, "size": args.size, "decoder": decoder, "decode_pairs_s": n / t_decode,
        "opencv_pairs_s": n / t_cv2, "pil_pairs_s": n / t_pil,
        "spng_checked_pairs_s": n / t_checked if t_checked else None,
        "spng_unchecked_pairs_s": n / t_raw if t_raw else None,
        "first_over_unchecked_spng": t_first / t_raw if t_raw else None,
        "first_pairs_s": n / t_first, "first_over_decode": ratio,
        "target_first_over_decode": TARGET_FIRST_RATIO, "later_pairs_s": n / t_later,
        "target_later_pairs_s": TARGET_LATER_PAIRS_S, "in_memory_pairs_s": n / t_mem,
        "cache_bytes_per_pair": cache_bytes / n, "cache_bound_bytes": cache.max_bytes,
    }  # fmt: skip
    print(json.dumps(out))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    if not same_labels or not same_passes or max(diffs.values()) > 1e-12:
        raise SystemExit("fast path disagrees with the reference")


if __name__ == "__main__":
    main()
