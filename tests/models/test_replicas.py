"""Replicas of one model: specs, least-outstanding balancing, resting and probing a failed
replica, against real loopback servers (tests/support/fake_openai.py)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import threading
from pathlib import Path
from typing import Any

import pytest

from forgebench.models.base import ModelError, Request, Response
from forgebench.models.modelsfile import load_models_file
from forgebench.models.openai_compat import OpenAICompatModel, create
from forgebench.models.replicas import ReplicaPolicy, ReplicatedModel
from forgebench.models.spec import ModelConfig, SpecError, parse_spec
from forgebench.run.send.retry import RetryPolicy
from forgebench.run.send.runner import Call, CallOutcome, ExecSettings, execute

FAST = RetryPolicy(base_s=0.01, cap_s=0.05, rng=random.Random(0))


def _calls(n: int) -> list[Call]:
    return [Call(f"k{i}", Request(prompt=f"question {i}")) for i in range(n)]


def _digest_of(call: Call) -> str:
    messages = [{"role": "user", "content": [{"type": "text", "text": call.request.prompt}]}]
    return hashlib.sha256(json.dumps(messages, sort_keys=True).encode("utf-8")).hexdigest()[:12]


# -- specs and models files ------------------------------------------------------------------------


def test_spec_with_several_urls_keeps_one_name() -> None:
    spec = parse_spec("q=openai/Qwen@http://127.0.0.1:8001/v1,http://127.0.0.1:8002/v1")
    assert spec.name == "q"
    assert spec.base_urls == ["http://127.0.0.1:8001/v1", "http://127.0.0.1:8002/v1"]
    one = parse_spec("q=openai/Qwen@http://127.0.0.1:8001/v1")
    assert one.name == spec.name and one.base_urls == ["http://127.0.0.1:8001/v1"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hf/x@http://a/v1,http://b/v1", "need an openai/... model"),
        ("openai/x@http://a/v1,ftp://b", "'ftp://b' must start with http:// or https://"),
        ("openai/x@http://a/v1,http://a/v1", "listed twice"),
    ],
)
def test_bad_replica_lists_are_one_line_errors(text: str, message: str) -> None:
    with pytest.raises(SpecError, match=message):
        parse_spec(text)


def test_models_file_base_urls(tmp_path: Path) -> None:
    path = tmp_path / "models.toml"
    path.write_text(
        '[[models]]\nspec = "q=openai/Qwen"\nbase_urls = ["http://h1:8000/v1", "http://h2:8000/v1"]\n'
        "concurrency = 64\n",
        encoding="utf-8",
    )
    (config,) = load_models_file(path)
    assert config.replica_urls() == ["http://h1:8000/v1", "http://h2:8000/v1"]
    model = create(config)
    assert isinstance(model, ReplicatedModel) and model.name == "q"
    assert model.urls == ["http://h1:8000/v1", "http://h2:8000/v1"]
    path.write_text(
        '[[models]]\nspec = "q=openai/Qwen@http://h1:8000/v1"\nbase_urls = ["http://h2:8000/v1"]\n',
        encoding="utf-8",
    )
    with pytest.raises(SpecError, match=r"models\[0\].*either in the spec"):
        load_models_file(path)


def test_one_url_is_a_plain_backend() -> None:
    model = create(ModelConfig(spec="m=openai/x@http://127.0.0.1:9/v1"))
    assert isinstance(model, OpenAICompatModel)


# -- balancing -----------------------------------------------------------------------------------


class _Held:
    """A replica whose replies the test releases by hand (for the exact choice order)."""

    def __init__(self, url: str) -> None:
        self.base_url = url
        self.waiting: list[asyncio.Future[Response]] = []

    async def generate(self, request: Request) -> Response:
        fut: asyncio.Future[Response] = asyncio.get_running_loop().create_future()
        self.waiting.append(fut)
        return await fut

    def release(self, n: int = 1) -> None:
        for fut in self.waiting[:n]:
            fut.set_result(Response(text=self.base_url))
        del self.waiting[:n]

    async def aclose(self) -> None:
        return None


def test_each_request_goes_to_the_replica_with_fewest_in_flight() -> None:
    async def go() -> list[int]:
        a, b, c = _Held("a"), _Held("b"), _Held("c")
        model = ReplicatedModel("m", [a, b, c])
        tasks = [asyncio.create_task(model.generate(Request(prompt="q"))) for _ in range(6)]
        await asyncio.sleep(0)
        first = [len(a.waiting), len(b.waiting), len(c.waiting)]  # 2 each
        a.release(2)  # a is idle now: the next two go to a
        await asyncio.sleep(0)
        more = [asyncio.create_task(model.generate(Request(prompt="q"))) for _ in range(2)]
        await asyncio.sleep(0)
        after = [len(a.waiting), len(b.waiting), len(c.waiting)]
        for r in (a, b, c):
            r.release(10)
        await asyncio.gather(*tasks, *more)
        assert [s.in_flight for s in model.stats()] == [0, 0, 0]
        return first + after

    assert asyncio.run(go()) == [2, 2, 2, 2, 2, 2]


def test_a_slow_replica_gets_fewer_requests(fake_openai: Any) -> None:
    fast, slow = fake_openai(latency_ms=5), fake_openai(latency_ms=150)
    config = ModelConfig(spec=f"m=openai/fake@{fast.url},{slow.url}", concurrency=4)
    model = create(config)
    outcomes: list[CallOutcome] = []

    async def go() -> None:
        try:
            await execute(
                model,
                _calls(80),
                ExecSettings(concurrency=4, max_attempts=3, timeout_s=5, retry=FAST),
                on_outcome=outcomes.append,
            )
        finally:
            await model.aclose()

    asyncio.run(go())
    assert len(outcomes) == 80 and all(o.response is not None for o in outcomes)
    assert fast.hits + slow.hits == 80
    assert fast.hits > 4 * slow.hits  # round robin would split 40/40
    assert isinstance(model, ReplicatedModel)
    sf, ss = model.stats()
    assert (sf.answered, ss.answered) == (fast.hits, slow.hits)
    assert sf.mean_latency_s is not None and ss.mean_latency_s is not None
    assert ss.mean_latency_s > sf.mean_latency_s


# -- failures ------------------------------------------------------------------------------------


def test_refused_replica_is_rested_requests_fail_over_and_it_is_probed_back(
    fake_openai: Any,
) -> None:
    up = fake_openai(latency_ms=2)
    down = fake_openai()
    port = down.port
    down.stop()  # nothing listens there now: connections are refused
    config = ModelConfig(spec=f"m=openai/fake@{up.url},{down.url}", concurrency=2)
    backends = [OpenAICompatModel(config, u) for u in config.replica_urls()]
    model = ReplicatedModel("m", backends, policy=ReplicaPolicy(rest_base_s=0.2))

    async def ask(n: int) -> list[str]:
        return [(await model.generate(Request(prompt=f"q{i}"))).text for i in range(n)]

    async def go() -> None:
        try:
            texts = await ask(6)
            assert len(texts) == 6 and up.hits == 6  # the refused one cost no attempt
            _, s_down = model.stats()
            assert s_down.resting and s_down.rests == 1 and s_down.answered == 0
            revived = fake_openai(latency_ms=2, port=port)
            await asyncio.sleep(0.25)  # the rest is over: the next request probes it
            await ask(1)
            assert revived.hits == 1 and not s_down.resting
            await ask(4)
            assert revived.hits >= 2  # back in the rotation
        finally:
            await model.aclose()

    asyncio.run(go())


def test_repeated_5xx_rests_a_replica_and_a_failed_probe_doubles_the_rest(
    fake_openai: Any,
) -> None:
    good, bad = fake_openai(), fake_openai()
    bad.script.extend(["500"] * 10)
    now = [0.0]
    config = ModelConfig(spec=f"m=openai/fake@{good.url},{bad.url}")
    backends = [OpenAICompatModel(config, u) for u in config.replica_urls()]
    policy = ReplicaPolicy(fail_after=3, rest_base_s=1.0, rest_cap_s=3.0)
    model = ReplicatedModel("m", backends, policy=policy, clock=lambda: now[0])
    bad_stats = model.stats()[1]

    async def ask() -> str:
        try:
            return (await model.generate(Request(prompt="q"))).text
        except ModelError as exc:
            return f"error {exc.status}"

    async def go() -> list[str]:
        got = []
        try:
            # alone in flight, requests alternate (least recently chosen first)
            for _ in range(6):
                got.append(await ask())
            assert bad.hits == 3 and bad_stats.resting and bad_stats.rests == 1
            for _ in range(3):
                await ask()
            assert bad.hits == 3  # rested: not asked
            now[0] = 1.5
            got.append(await ask())  # the probe: another 500
            assert bad.hits == 4 and bad_stats.rests == 2
            now[0] = 2.5
            await ask()
            assert bad.hits == 4  # rest doubled to 2 s: not over yet
            now[0] = 3.6
            bad.script.clear()
            await ask()  # probe answered
            assert bad.hits == 5 and not bad_stats.resting
        finally:
            await model.aclose()
        return got

    got = asyncio.run(go())
    assert got.count("error 500") == 4


def test_all_replicas_resting_is_a_retryable_error_with_retry_after(fake_openai: Any) -> None:
    a, b = fake_openai(), fake_openai()
    urls = [a.url, b.url]
    a.stop()
    b.stop()
    config = ModelConfig(spec=f"m=openai/fake@{urls[0]},{urls[1]}")
    model = ReplicatedModel(
        "m", [OpenAICompatModel(config, u) for u in urls], policy=ReplicaPolicy(rest_base_s=5)
    )

    async def go() -> tuple[ModelError, ModelError]:
        try:
            with pytest.raises(ModelError) as first:
                await model.generate(Request(prompt="q"))
            with pytest.raises(ModelError) as second:
                await model.generate(Request(prompt="q"))
        finally:
            await model.aclose()
        return first.value, second.value

    first, second = asyncio.run(go())
    assert first.retryable and "cannot connect" in str(first)
    assert second.retryable and "all 2 replicas of m are resting" in str(second)
    port = urls[0].split(":")[2].split("/")[0]
    assert f"last errors: 127.0.0.1:{port}: cannot connect to" in str(second)
    assert second.retry_after is not None and 4 < second.retry_after <= 5


def test_replica_down_and_back_mid_run_loses_and_duplicates_nothing(fake_openai: Any) -> None:
    a, b = fake_openai(latency_ms=20), fake_openai(latency_ms=20)
    port_b = b.port
    config = ModelConfig(spec=f"m=openai/fake@{a.url},{b.url}", concurrency=8)
    backends = [OpenAICompatModel(config, u) for u in config.replica_urls()]
    model = ReplicatedModel("m", backends, policy=ReplicaPolicy(rest_base_s=0.05, rest_cap_s=0.1))
    calls = _calls(400)
    outcomes: list[CallOutcome] = []
    revived: list[Any] = []
    marks: dict[str, int] = {}  # b's hits when it went down

    def on_outcome(o: CallOutcome) -> None:
        outcomes.append(o)
        if len(outcomes) == 60:
            marks["b_before"] = b.hits
            threading.Thread(target=b.stop).start()  # b goes away with requests in flight
        if len(outcomes) == 140:
            revived.append(fake_openai(latency_ms=20, port=port_b))

    async def go() -> None:
        try:
            await execute(
                model,
                calls,
                ExecSettings(concurrency=8, max_attempts=6, timeout_s=5, retry=FAST),
                on_outcome=on_outcome,
            )
        finally:
            await model.aclose()

    asyncio.run(go())
    keys = [o.key for o in outcomes]
    assert sorted(keys) == sorted(c.key for c in calls)  # none lost, none twice
    assert all(o.response is not None for o in outcomes)
    by_key = {c.key: c for c in calls}
    for o in outcomes:  # each answer is the one to its own request
        assert o.response is not None and o.response.text.endswith(_digest_of(by_key[o.key]))
    assert marks["b_before"] > 10  # b served before it went down
    assert revived and revived[0].hits > 10  # and again after it came back
    s_a, s_b = model.stats()
    assert s_b.rests >= 1 and s_b.errors >= 1 and not s_b.resting
    assert s_a.answered + s_b.answered == 400


def test_progress_shows_each_replicas_counts_errors_and_latency(fake_openai: Any) -> None:
    import io

    from rich.console import Console

    from forgebench.run.send.progress import RunProgress

    up, flaky = fake_openai(latency_ms=2), fake_openai(latency_ms=2)
    flaky.script.extend(["500", "500"])
    config = ModelConfig(spec=f"m=openai/fake@{up.url},{flaky.url}", concurrency=1)
    model = create(config)
    assert isinstance(model, ReplicatedModel)
    buf = io.StringIO()
    with RunProgress(Console(file=buf, force_terminal=True, width=200)) as rp:
        bar = rp.add("m", 6)
        bar.detail = model.summary

        async def go() -> None:
            try:
                settings = ExecSettings(max_attempts=4, timeout_s=5, retry=FAST)
                await execute(model, _calls(6), settings, on_outcome=lambda o: None, progress=bar)
            finally:
                await model.aclose()

        asyncio.run(go())
    a, b = (f"127.0.0.1:{s.port}" for s in (up, flaky))
    assert f"{b} " in buf.getvalue() and " 2 err " in buf.getvalue()  # drawn live
    line = bar.summary()
    assert line.startswith("m: 6/6 answered, 0 errors, 2 retries; replicas: ")
    sa, sb = model.stats()
    assert f"{a} {sa.answered} ok 0 err" in line and f"{b} {sb.answered} ok 2 err" in line
    assert sa.answered + sb.answered == 6 and line.endswith("ms")
