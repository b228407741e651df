"""PIXAR speed: pixel labels + localization metrics on decoded 1024 x 1024 arrays, one core.

Times, separately: PNG decoding of the pairs; the real path (``labels_u8`` integer label +
``LocalizationAccumulator.add`` with a float score map, i.e. gIoU / cIoU / P / R / F1 / AUC
histogram); and a straightforward NumPy reference of the same definitions (float64 label,
``np.histogram`` AUC). Checks the two give identical labels and metrics. Target: 40 pairs/s.

Run: ``.venv/bin/python benchmarks/pixar_speed.py [--pairs 40] [--size 1024]``
"""

from __future__ import annotations

import argparse
import os
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from forgebench.construct.pixels import label_reference, labels_u8  # noqa: E402
from forgebench.suites.pixar.localization import LocalizationAccumulator  # noqa: E402


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=40)
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--tau", type=float, default=0.05)
    ap.add_argument("--bins", type=int, default=10_000)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    rng = np.random.default_rng(0)
    distinct = [make_pair(rng, args.size) for _ in range(min(8, args.pairs))]
    encoded = [distinct[i % len(distinct)] for i in range(args.pairs)]

    t0 = time.perf_counter()
    decoded = [
        (
            cv2.cvtColor(
                cv2.imdecode(np.frombuffer(a, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB
            ),
            cv2.cvtColor(
                cv2.imdecode(np.frombuffer(b, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB
            ),
            s,
        )
        for a, b, s in encoded
    ]
    t_decode = time.perf_counter() - t0

    acc = LocalizationAccumulator(bins=args.bins)
    labels = []
    t0 = time.perf_counter()
    for o, e, s in decoded:
        lab = labels_u8(o, e, [args.tau])[0]
        acc.add(lab.view(bool), s)
        labels.append(lab)
    t_fast = time.perf_counter() - t0
    fast = acc.result()

    t0 = time.perf_counter()
    ref = reference_metrics(decoded, args.tau, args.bins)
    t_ref = time.perf_counter() - t0

    same_labels = all(
        np.array_equal(lab != 0, label_reference(o, e, args.tau))
        for lab, (o, e, _) in zip(labels[: len(distinct)], decoded[: len(distinct)], strict=True)
    )
    diffs = {k: abs(fast[k] - ref[k]) for k in ref}
    n = args.pairs
    print(f"pairs: {n} of {args.size}x{args.size}, tau {args.tau}, AUC bins {args.bins}, 1 thread")
    print(f"decode (PNG, apart):     {t_decode:7.3f} s   {n / t_decode:7.1f} pairs/s")
    print(f"label + metrics (fast):  {t_fast:7.3f} s   {n / t_fast:7.1f} pairs/s  (target 40)")
    print(f"numpy reference:         {t_ref:7.3f} s   {n / t_ref:7.1f} pairs/s")
    print(f"speed-up over reference: {t_ref / t_fast:7.1f} x")
    print(f"labels identical to the float definition: {same_labels}")
    print("metric |fast - reference|: " + ", ".join(f"{k} {v:.2e}" for k, v in diffs.items()))
    print("metrics: " + ", ".join(f"{k} {100 * ref[k]:.2f}" for k in ref))
    if not same_labels or max(diffs.values()) > 1e-12:
        raise SystemExit("fast path disagrees with the reference")


if __name__ == "__main__":
    main()
