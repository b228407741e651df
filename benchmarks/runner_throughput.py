"""Runner throughput against a raw aiohttp client. Measured, not asserted.

1. Builds a dataset of 500 seeds (1,000 items) whose images are ~1280 x 960 JPEGs (each file
   distinct: one encoded picture with a different JPEG comment segment per item), so
   ``--probes L0,L1 --conditions full`` gives 2,000 tasks.
2. Starts ``tests/support/fake_openai.py`` as its own process with a fixed 100 ms latency.
3. Runs ``forgebench run`` (the real CLI path, a subprocess, concurrency 64) into a temporary
   run directory; its peak RSS is the process's own ``VmHWM`` read as it exits (``wait4``'s
   ``ru_maxrss`` would not do: Linux carries the forking parent's peak, this script's, into it).
4. Sends the same 2,000 requests with a minimal aiohttp client (64 workers, one session; each
   image is read and base64-encoded once while recent, as the runner's cache does; each request
   posts its JSON body and parses the JSON reply).

Requests/second of both are measured by the server, from its first request to its last reply
(so process start-up and task expansion are not counted); the runner's whole wall time is printed
too. Each repeat runs the runner and the raw client against the same server, one after the
other, the order alternating (a ratio per pair, so the machine's load at that moment cancels);
the median ratio is reported, with thread counts pinned to one (BLAS, OpenMP). Targets: ratio >= 0.9 at 300 requests (the default: 75
seeds), runner peak RSS < 300 MB.

    .venv/bin/python benchmarks/runner_throughput.py [--seeds 75] [--concurrency 64]
        [--repeats 3] [--json OUT]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import aiohttp
import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "tests" / "support" / "fake_openai.py"
TARGET_RATIO = 0.9
TARGET_RSS_MB = 300
PINNED = {
    k: "1"
    for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS")
}
PEAK_MAIN = """
import atexit, sys
def _peak():
    with open("/proc/self/status") as f:
        kb = next(line.split()[1] for line in f if line.startswith("VmHWM:"))
    print(f"\\nforgebench-peak-kb {kb}", file=sys.stderr)
atexit.register(_peak)
sys.argv[0] = "forgebench"
from forgebench.cli import main
main()
"""
"""``forgebench``'s own entry point, reporting the peak resident size of this process alone."""
PROMPT = "Is this photograph real or fake? Start your answer with exactly one word: REAL or FAKE."


def make_dataset(root: Path, seeds: int) -> list[Path]:
    """``seeds`` authentic/forged pairs of distinct ~1280 px JPEG files."""
    (root / "images").mkdir(parents=True)
    rng = np.random.default_rng(0)
    y, x = np.mgrid[0:960, 0:1280]
    base = np.stack([(x * 255 / 1280), (y * 255 / 960), ((x + y) % 256)], axis=-1)
    noisy = np.clip(base + rng.normal(0, 11, base.shape), 0, 255).astype(np.uint8)
    buf = io.BytesIO()
    Image.fromarray(noisy, "RGB").save(buf, "JPEG", quality=92)
    jpeg = buf.getvalue()
    paths, lines = [], []
    for s in range(seeds):
        for kind in ("auth", "k2"):
            name = f"images/s{s}_{kind}.jpg"
            comment = f"item s{s}-{kind}".encode()
            seg = b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment
            (root / name).write_bytes(jpeg[:2] + seg + jpeg[2:])
            paths.append(root / name)
            item = {
                "id": f"s{s}-{kind}", "seed_id": f"s{s}", "image": name,
                "label": "authentic" if kind == "auth" else "forged",
                "domain": "A1", "noun": "photograph",
                "event": {"label": "Apollo 11 lunar landing", "date": "1969-07-20"},
            }  # fmt: skip
            if kind == "k2":
                item.update(family="K2", saliency="C1", entity={"name": "a wristwatch"})
            lines.append(json.dumps(item))
    (root / "items.jsonl").write_text("\n".join(lines) + "\n")
    return paths


def peak_mb(stderr: str) -> float:
    """The peak resident size :data:`PEAK_MAIN` printed last on ``stderr``, in MB."""
    lines = [ln for ln in stderr.splitlines() if ln.startswith("forgebench-peak-kb ")]
    if not lines:
        sys.exit(f"no peak size reported: {stderr[-300:]}")
    return int(lines[-1].split()[1]) / 1024


def stats(url: str, reset: bool = False) -> dict[str, float]:
    req = urllib.request.Request(
        url + ("/stats/reset" if reset else "/stats"), method="POST" if reset else "GET"
    )
    with urllib.request.urlopen(req) as resp:
        data: dict[str, float] = json.loads(resp.read())
    return data


def server_rate(base: str) -> tuple[int, float]:
    s = stats(base)
    return int(s["hits"]), s["hits"] / (s["last_reply_at"] - s["first_hit_at"])


async def raw_client(url: str, paths: list[Path], concurrency: int) -> float:
    """The minimal client: same bodies, same concurrency, no store, no retries."""
    jobs = [(p, probe) for p in paths for probe in ("L0", "L1")]
    it = iter(jobs)
    encoded: dict[Path, str] = {}
    t0 = time.perf_counter()
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def worker() -> None:
            for path, probe in it:
                b64 = encoded.get(path)
                if b64 is None:  # encode each image once while it is recent, like the runner
                    b64 = base64.b64encode(path.read_bytes()).decode("ascii")
                    encoded[path] = b64
                    if len(encoded) > 128:
                        del encoded[next(iter(encoded))]
                body = {
                    "model": "fake",
                    "messages": [{"role": "user", "content": [
                        {"type": "image_url", "image_url": {"url": f"data:image/jpeg;base64,{b64}"}},
                        {"type": "text", "text": f"{probe}: {PROMPT}"},
                    ]}],
                    "temperature": 0.0, "max_tokens": 1024,
                }  # fmt: skip
                async with session.post(url + "/chat/completions", data=json.dumps(body).encode(),
                                        headers={"Content-Type": "application/json"}) as resp:  # fmt: skip
                    json.loads(await resp.read())

        await asyncio.gather(*(worker() for _ in range(concurrency)))
    return len(jobs) / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=75, help="Two items per seed, two probes each.")
    ap.add_argument("--concurrency", type=int, default=64)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", type=Path, help="Also write the figures here.")
    args = ap.parse_args()
    os.environ.update(PINNED)
    ratios, runs = [], []
    with tempfile.TemporaryDirectory(prefix="forgebench-bench-") as tmp_s:
        tmp = Path(tmp_s)
        t0 = time.perf_counter()
        paths = make_dataset(tmp / "ds", args.seeds)
        size = paths[0].stat().st_size
        print(
            f"dataset: {len(paths)} JPEGs of {size / 1e3:.0f} KB, built in {time.perf_counter() - t0:.1f}s"
        )
        server = subprocess.Popen(
            [sys.executable, str(SERVER), "--port", "0", "--latency-ms", "100", "--no-record"],
            stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            assert server.stdout is not None
            port = int(server.stdout.readline())
            base = f"http://127.0.0.1:{port}"

            def runner(r: int) -> tuple[int, float, float, float]:
                stats(base, reset=True)
                cmd = [
                    sys.executable, "-c", PEAK_MAIN, "run", str(tmp / "ds"),
                    "--model", f"bench=openai/fake@{base}/v1", "--out", str(tmp / f"RUN{r}"),
                    "--cache-dir", str(tmp / "cache"), "--probes", "L0,L1", "--conditions", "full",
                    "--concurrency", str(args.concurrency),
                ]  # fmt: skip
                t0 = time.perf_counter()
                proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                wall = time.perf_counter() - t0
                err = proc.stderr.decode()
                if proc.returncode != 0:
                    sys.exit(f"runner failed: {err}")
                return *server_rate(base), wall, peak_mb(err)

            def raw() -> tuple[int, float, float]:
                stats(base, reset=True)
                client_rps = asyncio.run(raw_client(base + "/v1", paths, args.concurrency))
                return *server_rate(base), client_rps

            for r in range(args.repeats):
                if r % 2 == 0:  # alternate which goes first, so a drift in load cancels
                    n_runner, runner_rps, wall, peak = runner(r)
                    n_raw, raw_rps, raw_rps_client = raw()
                else:
                    n_raw, raw_rps, raw_rps_client = raw()
                    n_runner, runner_rps, wall, peak = runner(r)
                ratios.append(runner_rps / raw_rps)
                runs.append({"runner_rps": runner_rps, "raw_rps": raw_rps, "runner_wall_s": wall,
                             "peak_mb": peak, "requests": n_runner})  # fmt: skip
                print(f"  repeat {r}: runner {n_runner} requests {runner_rps:6.1f} req/s (send "
                      f"phase; whole command {wall:.1f}s); raw {n_raw} requests {raw_rps:6.1f} "
                      f"req/s (client-side {raw_rps_client:.1f}); ratio {ratios[-1]:.2f}",
                      flush=True)  # fmt: skip
        finally:
            server.terminate()
            server.wait(10)
    version = subprocess.run([sys.executable, "-c", PEAK_MAIN, "version"], check=True,
                             capture_output=True, text=True)  # fmt: skip
    base_mb = peak_mb(version.stderr)
    ratio = statistics.median(ratios)
    peak = max(x["peak_mb"] for x in runs)
    print(f"ratio (median of {len(ratios)}): {ratio:.2f}   target >= {TARGET_RATIO}")
    print(f"runner peak RSS: {peak:.0f} MB   target < {TARGET_RSS_MB} MB "
          f"(`forgebench version` alone: {base_mb:.0f} MB)")  # fmt: skip
    out = {"requests": runs[0]["requests"], "ratio": round(ratio, 3), "ratios": ratios,
           "target_ratio": TARGET_RATIO, "peak_rss_mb": round(peak), "target_rss_mb": TARGET_RSS_MB,
           "runs": runs, "load_avg": os.getloadavg()[0]}  # fmt: skip
    print(json.dumps(out))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
