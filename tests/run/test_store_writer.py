"""The store writer thread (``run/send/writer.py``): writes off the loop, in order, once; bounded
queue; a failure reaches the loop; an abandoned queue leaves its tasks pending. And the whole
send path with pages read on threads: each task once, the budget settled."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from forgebench.models.base import Response, Usage
from forgebench.models.spec import ModelConfig
from forgebench.run import generate
from forgebench.run.generate import GenerationSettings
from forgebench.run.send import sending
from forgebench.run.send.writer import Job, StoreWriter
from forgebench.run.store import Store
from forgebench.run.tasks import Question, make_task
from support.text_source import TextSource


def _store(tmp_path: Path, n: int) -> tuple[Path, list[str]]:
    run_dir = tmp_path / "RUN"
    tasks = [
        make_task(Question(f"i{i}", "L0", "full", f"p{i}", "v1", None, {}, "toy"), "m", {})
        for i in range(n)
    ]
    with Store.open(run_dir) as store:
        store.put_tasks(tasks)
    return run_dir, [t.key for t in tasks]


def _answer(key: str, text: str, threads: list[str] | None = None) -> Job:
    def job(store: Store) -> None:
        if threads is not None:
            threads.append(threading.current_thread().name)
        store.put_answer(key, Response(text=text, usage=Usage(1, 1)), 1, 0.0, {"p": text})

    return job


def _answers(run_dir: Path) -> dict[str, str]:
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        return dict(con.execute("SELECT task_key, text FROM answers"))


def test_jobs_run_on_the_writer_thread_and_flush_means_committed(tmp_path: Path) -> None:
    run_dir, keys = _store(tmp_path, 50)
    threads: list[str] = []

    async def go() -> dict[str, str]:
        async with StoreWriter(run_dir, capacity=4) as writer:
            for k in keys:
                await writer.submit(_answer(k, f"A {k}", threads))
            await writer.flush()
            seen = _answers(run_dir)  # read by another connection right after flush
            await writer.submit(_answer(keys[0], "a second answer"))  # ignored by the store
        return seen

    seen = asyncio.run(go())
    assert seen == {k: f"A {k}" for k in keys}
    assert set(threads) == {"forgebench-store-writer"}  # never the loop's thread
    assert _answers(run_dir)[keys[0]] == f"A {keys[0]}"  # an answer is never replaced


def test_a_full_queue_makes_submit_wait_without_blocking_the_loop(tmp_path: Path) -> None:
    run_dir, keys = _store(tmp_path, 6)
    gate = threading.Event()
    ticks = 0

    def blocked(store: Store) -> None:
        gate.wait(30)

    async def tick() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.001)

    async def go() -> tuple[bool, int]:
        ticker = asyncio.create_task(tick())
        async with StoreWriter(run_dir, capacity=2) as writer:
            await writer.submit(blocked)  # being written (the thread waits on the gate)
            await writer.submit(_answer(keys[0], "one"))
            third = asyncio.create_task(writer.submit(_answer(keys[1], "two")))
            before = ticks
            done, _ = await asyncio.wait({third}, timeout=0.3)
            waited, loop_ran = not done, ticks - before
            gate.set()
            await third
        ticker.cancel()
        return waited, loop_ran

    waited, loop_ran = asyncio.run(go())
    assert waited  # no room: submit waited for the writer
    assert loop_ran > 10  # ... while the loop went on
    assert set(_answers(run_dir)) == {keys[0], keys[1]}


def test_a_failing_write_is_raised_on_the_loop_and_later_jobs_stay_pending(
    tmp_path: Path,
) -> None:
    run_dir, keys = _store(tmp_path, 3)

    def broken(store: Store) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    async def go() -> None:
        async with StoreWriter(run_dir) as writer:
            await writer.submit(_answer(keys[0], "kept"))
            await writer.submit(broken)
            await writer.submit(_answer(keys[1], "never written"))
            await writer.flush()

    with pytest.raises(sqlite3.OperationalError, match="disk is full"):
        asyncio.run(go())
    assert _answers(run_dir) == {keys[0]: "kept"}


def test_abandon_stops_after_the_job_being_written(tmp_path: Path) -> None:
    run_dir, keys = _store(tmp_path, 4)
    started, gate = threading.Event(), threading.Event()

    def slow(store: Store) -> None:
        started.set()
        gate.wait(30)
        _answer(keys[0], "in progress")(store)

    async def go() -> None:
        writer = StoreWriter(run_dir)
        writer.start()
        await writer.submit(slow)
        for k in keys[1:]:
            await writer.submit(_answer(k, "queued"))
        await asyncio.to_thread(started.wait, 30)
        asyncio.get_running_loop().call_later(0.05, gate.set)
        await writer.close(abandon=True)

    asyncio.run(go())
    assert _answers(run_dir) == {keys[0]: "in progress"}  # the queued ones stay pending


def test_pages_read_on_threads_and_writes_on_the_writer_answer_each_task_once(
    tmp_path: Path, fake_openai: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two models at once, pending tasks read back 7 at a time: every task is asked and stored
    once; with a spending cap, what was spent is exactly what the stored answers cost."""
    monkeypatch.setattr(sending, "PAGE", 7)
    server = fake_openai(latency_ms=2)
    configs = [
        ModelConfig(spec=f"{m}=openai/fake@{server.url}", concurrency=3, price_in=1.0,
                    price_out=2.0)
        for m in ("a", "b")
    ]  # fmt: skip
    settings = GenerationSettings(cache_dir=tmp_path / "cache")
    res = generate.run_generation(TextSource(40), tmp_path, tmp_path / "run", configs, settings)
    assert res.remaining == 0 and server.hits == 80
    with sqlite3.connect(tmp_path / "run" / "run.sqlite") as con:
        per_model = dict(
            con.execute(
                "SELECT t.model, COUNT(*) FROM answers a JOIN tasks t ON t.key = a.task_key "
                "GROUP BY t.model"
            ).fetchall()
        )
    assert per_model == {"a": 40, "b": 40}

    # 80 answers cost 0.00992 (100 tokens in, 12 out, each): a cap of half that binds however the
    # calls interleave (one just over the total stopped only while the first estimates, at
    # max_tokens, were still reserved: a loaded machine answered the first call before that)
    capped = GenerationSettings(cache_dir=tmp_path / "cache", max_cost=0.005)
    res = generate.run_generation(TextSource(40), tmp_path, tmp_path / "capped", configs, capped)
    assert res.budget_stopped and 0 < res.remaining < 80
    with sqlite3.connect(tmp_path / "capped" / "run.sqlite") as con:
        tokens = con.execute("SELECT SUM(input_tokens), SUM(output_tokens) FROM answers")
        tin, tout = tokens.fetchone()
        stored = con.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
    assert stored == 80 - res.remaining
    assert res.spent_usd == pytest.approx((tin * 1.0 + tout * 2.0) / 1e6)
    assert res.spent_usd is not None and res.spent_usd <= 0.005
