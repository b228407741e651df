"""PIXAR labelling on the local executor vs Ray with 1 and 2 workers, and PNG decoding cost per
pair with each decoder this environment has. Measured, not asserted.

1. Writes N (original, edited) PNG pairs of SIZE x SIZE (default 80 pairs of 1024 x 1024; the
   edit inverts a block and adds re-encoding noise everywhere, as ``pixar_speed.py``).
2. Decoding: decodes every pair with OpenCV (``cv2.imdecode``, what ``pairs.read_rgb`` uses),
   Pillow, and ``pyspng`` (libspng) when it is importable; checks they give the same pixels;
   prints milliseconds and pairs per second.
3. ``write_labels`` (decode + label + PNG-encode, two taus) with the local executor, then with a
   local Ray (``num_cpus=2``) and ``--workers`` 1 and 2, interleaved over ``--rounds`` rounds
   (this machine's load drifts; best and median shown). Ray's start-up and its first dataset
   (worker processes starting and importing forgebench and OpenCV, about 5 s here) are timed
   apart. Checks that every executor wrote the same bytes.

    .venv/bin/python benchmarks/pixar_executors.py [--pairs 80] [--size 1024] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

from forgebench.run.executor import LocalExecutor, RayExecutor  # noqa: E402
from forgebench.suites.pixar.labeling import write_labels  # noqa: E402
from forgebench.suites.pixar.pairs import load_pairs  # noqa: E402

TAUS = [0.05, 0.1]


def make_pairs(root: Path, n: int, size: int) -> None:
    rng = np.random.default_rng(0)
    for sub in ("original", "edited"):
        (root / sub).mkdir(parents=True)
    for i in range(n):
        base = rng.integers(0, 256, (size // 16, size // 16, 3), dtype=np.uint8)
        o = cv2.GaussianBlur(
            cv2.resize(base, (size, size), interpolation=cv2.INTER_CUBIC), (0, 0), 2
        )
        e = o.copy()
        y, x = rng.integers(0, size // 2, 2)
        e[y : y + size // 4, x : x + size // 3] = 255 - e[y : y + size // 4, x : x + size // 3]
        e = np.clip(e.astype(np.int16) + rng.integers(-6, 7, o.shape), 0, 255).astype(np.uint8)
        cv2.imwrite(str(root / "original" / f"p{i:04d}.png"), o)
        cv2.imwrite(str(root / "edited" / f"p{i:04d}.png"), e)


def decoders() -> dict[str, object]:
    def with_cv2(data: bytes) -> np.ndarray:
        bgr = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)

    def with_pil(data: bytes) -> np.ndarray:
        import io

        with Image.open(io.BytesIO(data)) as im:
            return np.asarray(im.convert("RGB"))

    out: dict[str, object] = {"opencv": with_cv2, "pillow": with_pil}
    try:
        import pyspng  # type: ignore[import-not-found]

        out["pyspng"] = lambda data: pyspng.load(data)[:, :, :3]
    except ImportError:
        pass
    return out


def time_decoding(root: Path) -> None:
    files = sorted((root / "original").glob("*.png")) + sorted((root / "edited").glob("*.png"))
    blobs = [f.read_bytes() for f in files]
    pairs = len(blobs) // 2
    ref: list[np.ndarray] | None = None
    for name, fn in decoders().items():
        t0 = time.perf_counter()
        arrays = [fn(b) for b in blobs]  # type: ignore[operator]
        dt = time.perf_counter() - t0
        if ref is None:
            ref = arrays
        same = all(np.array_equal(a, b) for a, b in zip(arrays, ref, strict=True))
        print(
            f"decode {name:8s}: {1000 * dt / pairs:6.1f} ms/pair  {pairs / dt:6.1f} pairs/s  "
            f"(same pixels as opencv: {same})"
        )


def _warm(job: int) -> int:
    import forgebench.suites.pixar.labeling  # noqa: F401  (the imports a real job needs)

    return job


def files_of(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.png"))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--pairs", type=int, default=80)
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--rounds", type=int, default=3, help="Interleaved repetitions.")
    args = ap.parse_args()
    import ray

    with tempfile.TemporaryDirectory(prefix="fb-pixar-exec-") as tmp:
        root = Path(tmp) / "pairs"
        make_pairs(root, args.pairs, args.size)
        print(f"{args.pairs} pairs of {args.size} x {args.size} PNG, taus {TAUS}")
        time_decoding(root)
        pairs = load_pairs(root)
        t0 = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        started = time.perf_counter() - t0
        t0 = time.perf_counter()  # two workers start and import forgebench + OpenCV once
        list(RayExecutor(workers=2).map(_warm, [1, 2], batch_size=1))
        warm = time.perf_counter() - t0
        print(f"ray start-up: {started:.2f} s + {warm:.2f} s first dataset (not counted below)")
        executors = {
            "local": LocalExecutor(),
            "ray, 1 worker": RayExecutor(workers=1),
            "ray, 2 workers": RayExecutor(workers=2),
        }
        times: dict[str, list[float]] = {name: [] for name in executors}
        outputs: list[dict[str, bytes]] = []
        try:
            for r in range(args.rounds):
                for i, (name, ex) in enumerate(executors.items()):
                    out = Path(tmp) / f"out-{r}-{i}"
                    t0 = time.perf_counter()
                    write_labels(pairs, TAUS, out, executor=ex)
                    times[name].append(time.perf_counter() - t0)
                    outputs.append(files_of(out))
        finally:
            ray.shutdown()
        best_local = min(times["local"])
        for name, ts in times.items():
            best = min(ts)
            print(
                f"labels {name:14s}: best {best:6.2f} s = {args.pairs / best:5.1f} pairs/s "
                f"(x{best_local / best:.2f} vs local), median {statistics.median(ts):6.2f} s"
            )
        same = all(o == outputs[0] for o in outputs)
        print(f"every executor wrote the same {len(outputs[0])} files: {same}")


if __name__ == "__main__":
    main()
