"""Runner throughput against 1, 2 and 3 replicas of a fixed-capacity server.
Measured, not asserted.

Each replica is ``tests/support/fake_openai.py`` in its own process with ``--capacity 32``
(32 requests processed at once, the others wait for a slot, as an engine's batch slots) and a
fixed latency (default 300 ms), so one replica serves at most 32 / 0.3 = 107 requests/s. Requests
are small (text only) so that this machine's client CPU is not the limit. The runner
(``run.runner.execute`` with the ``openai`` backend, least-outstanding balancing over the
replicas of ``openai/fake@URL1,URL2,...``) sends the same number of requests with the same client
concurrency (default 128) to 1, 2 and 3 replicas; throughput is requests / wall time of
``execute``. Prints requests/s, the ratio to one replica and each replica's share.

    .venv/bin/python benchmarks/replicas_throughput.py [--requests 1500] [--latency-ms 300]
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import time
from pathlib import Path

from forgebench.models.base import Request
from forgebench.models.openai_compat import create
from forgebench.models.replicas import ReplicatedModel
from forgebench.models.spec import ModelConfig
from forgebench.run.send.runner import Call, CallOutcome, ExecSettings, execute

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "tests" / "support" / "fake_openai.py"


def start_server(latency_ms: float, capacity: int) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, str(SERVER), "--port", "0", "--latency-ms", str(latency_ms),
         "--capacity", str(capacity), "--no-record"],
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    port = int(proc.stdout.readline())
    return proc, f"http://127.0.0.1:{port}/v1"


async def measure(urls: list[str], n: int, concurrency: int) -> tuple[float, list[int]]:
    config = ModelConfig(
        spec=f"m=openai/fake@{','.join(urls)}", concurrency=concurrency, timeout_s=120
    )
    model = create(config)
    outcomes: list[CallOutcome] = []
    calls = [Call(f"k{i}", Request(prompt=f"Is image {i} real or fake?")) for i in range(n)]
    try:
        warm = [Call(f"w{i}", Request(prompt="warm-up")) for i in range(len(urls) * 4)]
        policy = ExecSettings(concurrency=concurrency, max_attempts=3, timeout_s=120)
        await execute(model, warm, policy, on_outcome=lambda o: None)
        before = [s.answered for s in model.stats()] if isinstance(model, ReplicatedModel) else [0]
        t0 = time.perf_counter()
        stats = await execute(model, calls, policy, on_outcome=outcomes.append)
        wall = time.perf_counter() - t0
    finally:
        await model.aclose()
    assert stats.answered == n and len(outcomes) == n, stats
    if isinstance(model, ReplicatedModel):
        shares = [s.answered - b for s, b in zip(model.stats(), before, strict=True)]
    else:
        shares = [n]
    return wall, shares


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--requests", type=int, default=1500)
    ap.add_argument("--latency-ms", type=float, default=300.0)
    ap.add_argument("--capacity", type=int, default=32)
    ap.add_argument("--concurrency", type=int, default=128)
    ap.add_argument("--replicas", type=int, default=3)
    args = ap.parse_args()
    servers = [start_server(args.latency_ms, args.capacity) for _ in range(args.replicas)]
    urls = [u for _, u in servers]
    cap = args.capacity / (args.latency_ms / 1000)
    print(
        f"{args.requests} requests, client concurrency {args.concurrency}; each replica: "
        f"capacity {args.capacity}, latency {args.latency_ms:g} ms (at most {cap:.0f} req/s)"
    )
    try:
        base = None
        for k in range(1, args.replicas + 1):
            wall, shares = asyncio.run(measure(urls[:k], args.requests, args.concurrency))
            rps = args.requests / wall
            base = base or rps
            print(
                f"{k} replica(s): {wall:6.2f} s  {rps:7.1f} req/s  x{rps / base:.2f} "
                f"(ideal x{k}, {rps / (k * cap):.0%} of capacity)  per replica: {shares}"
            )
    finally:
        for proc, _ in servers:
            proc.terminate()
            proc.wait()


if __name__ == "__main__":
    main()
