"""Peak RSS and wall time of ``run`` for 10k, 100k and 1M tasks. Measured, not asserted.

Each size runs in its own process (peak RSS from ``wait4``'s ``ru_maxrss``): a synthetic
benchmark (a :class:`~forgebench.run.source.QuestionSource` defined here: text questions and one
tiny shared image every tenth question) expanded for 5 models into a fresh run directory, sent to
``tests/support/fake_openai.py`` (its own process, zero latency) through the real engine
(``run_generation``: tasks bound, keyed and stored in batches, pending tasks read back in pages).
The 1M case stores the tasks without sending (``prepare_only``, as ``run --prepare``), since the
loopback server on this 2-core machine answers ~1-2k requests/s. Also printed: the store's bytes
per task. Target: peak RSS under 300 MB at a million tasks; store about 2 KB per task or less.

    .venv/bin/python benchmarks/run_memory.py [--sizes 10000,100000,1000000] [--send-max 100000]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "tests" / "support" / "fake_openai.py"
MODELS = 5


def child(n_tasks: int, run_dir: str, url: str | None) -> None:
    """Run one size in this process (called through ``--child``)."""
    from PIL import Image

    from forgebench.models.spec import ModelConfig
    from forgebench.run.generate import GenerationSettings, run_generation
    from forgebench.run.images import VariantCache, VariantSpec
    from forgebench.run.source import Loaded, Selection
    from forgebench.run.tasks import Question

    root = Path(run_dir).parent / "data"
    root.mkdir(exist_ok=True)
    Image.new("RGB", (32, 24), (90, 120, 200)).save(root / "img.png")
    n_questions = n_tasks // MODELS

    class Synthetic:
        name = "synthetic"

        def load(self, path: Path, selection: Selection) -> Loaded:
            return Loaded(root=path, items=[{"id": "all", "n": n_questions}])

        def questions(
            self,
            loaded: Loaded,
            selection: Selection,
            cache: VariantCache,
            *,
            render_images: bool = True,
        ) -> Iterator[Question]:
            ref = cache.ref(VariantSpec(loaded.root / "img.png", "full"))
            for i in range(n_questions):
                yield Question(
                    item_id=str(i), probe="MCQ", condition="full",
                    prompt=f"Question {i}: is this image manipulated? Options: A. yes B. no",
                    prompt_version="synthetic/v1", image=ref if i % 10 == 0 else None,
                    extra={"i": i},
                )  # fmt: skip

    spec = f"openai/synthetic@{url}" if url else "builtin/artefact"
    configs = [
        ModelConfig(spec=f"m{k}={spec}", concurrency=64, max_tokens=8) for k in range(MODELS)
    ]
    settings = GenerationSettings(
        cache_dir=Path(run_dir).parent / "cache", prepare_only=url is None
    )
    result = run_generation(Synthetic(), root, Path(run_dir), configs, settings)
    if url and result.remaining:
        raise SystemExit(f"{result.remaining} tasks left unanswered")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument(
        "--send-max", type=int, default=100_000, help="Larger sizes only store (--prepare)."
    )
    ap.add_argument("--child", nargs=3, metavar=("N", "RUN", "URL"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        n, run, url = args.child
        child(int(n), run, None if url == "-" else url)
        return
    env = dict(os.environ, OPENAI_API_KEY="sk-bench", PYTHONUNBUFFERED="1")
    server = subprocess.Popen(
        [sys.executable, str(SERVER), "--port", "0", "--latency-ms", "0", "--reply-text", "B."],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert server.stdout is not None
    port = int(server.stdout.readline().strip())
    url = f"http://127.0.0.1:{port}/v1"
    print(f"{'tasks':>9} {'mode':>8} {'wall s':>8} {'peak RSS MB':>12} {'store B/task':>13}")
    try:
        for n in (int(x) for x in args.sizes.split(",")):
            send = n <= args.send_max
            with tempfile.TemporaryDirectory() as tmp:
                run = Path(tmp) / "run"
                t0 = time.perf_counter()
                proc = subprocess.Popen(
                    [sys.executable, __file__, "--child", str(n), str(run), url if send else "-"],
                    env=env,
                )
                _, status, usage = os.wait4(proc.pid, 0)
                wall = time.perf_counter() - t0
                if status != 0:
                    raise SystemExit(f"size {n}: child failed (status {status})")
                size = sum(
                    p.stat().st_size for p in run.iterdir() if p.name.startswith("run.sqlite")
                )
                print(f"{n:>9} {'send' if send else 'prepare':>8} {wall:>8.1f} "
                      f"{usage.ru_maxrss / 1024:>12.0f} {size / n:>13.0f}")  # fmt: skip
            if send:
                urllib.request.urlopen(
                    urllib.request.Request(f"{url[:-3]}/stats/reset", method="POST")
                )
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
