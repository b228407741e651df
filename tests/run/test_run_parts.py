"""Token estimates, the spending cap, secret scrubbing and the progress display."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image
from rich.console import Console

from forgebench.models.base import ImageRef, Usage
from forgebench.models.spec import ModelConfig
from forgebench.run.costs import Budget, estimate_input_tokens, image_tokens
from forgebench.run.send.progress import RunProgress
from forgebench.run.settings import scrub
from forgebench.run.tasks import Question, make_task


def test_image_tokens_follow_openai_high_detail_examples() -> None:
    assert image_tokens(1024, 1024) == 765  # OpenAI's worked example
    assert image_tokens(2048, 4096) == 1105  # OpenAI's worked example
    assert image_tokens(512, 512) == 255


def test_task_estimate_counts_text_and_image(tmp_path: Path) -> None:
    path = tmp_path / "a.png"
    Image.new("RGB", (1024, 1024)).save(path)
    q = Question("i", "L0", "full", "x" * 400, "v", ImageRef("v1", path, "image/png"))
    assert estimate_input_tokens(make_task(q, "m")) == 100 + 8 + 765


def test_budget_refuses_a_call_that_would_pass_the_cap(tmp_path: Path) -> None:
    cfg = ModelConfig(spec="openai/x", price_in=1000.0, price_out=1000.0, max_tokens=100)
    task = make_task(Question("i", "L0", "none", "x" * 368, "v"), "m")  # 100 input tokens
    budget = Budget(max_usd=0.5)
    first = budget.reserve(cfg, task)  # 100 in + 100 out (max_tokens) = $0.20
    assert first is not None and abs(first - 0.2) < 1e-9
    budget.settle(cfg, first, Usage(100, 10))  # really cost $0.11
    assert abs(budget.spent - 0.11) < 1e-9 and budget.reserved == 0
    second = budget.reserve(cfg, task)  # now expects 10 output tokens: $0.11
    assert second is not None and abs(second - 0.11) < 1e-9
    budget.settle(cfg, second, Usage(100, 10))
    budget.settle(cfg, budget.reserve(cfg, task) or 0.0, Usage(100, 10))  # spent 0.33
    budget.settle(cfg, budget.reserve(cfg, task) or 0.0, Usage(100, 10))  # spent 0.44
    assert budget.reserve(cfg, task) is None and budget.exhausted
    assert budget.spent <= 0.5


def test_budget_reserves_the_images_a_call_will_bill() -> None:
    # an image editor priced per image: a three-step edit reserves three images, not the mean
    cfg = ModelConfig(spec="openai/img", price_image=0.5, images_per_call=1)
    task = make_task(Question("i", "edit", "c0", "x", "v"), "m")
    budget = Budget(max_usd=2.0)
    assert budget.reserve(cfg, task) == 0.5  # images_per_call before any call was seen
    three = budget.reserve(cfg, task, images=3)
    assert three == 1.5 and budget.reserve(cfg, task, images=1) is None and budget.exhausted
    budget.settle(cfg, three, Usage(0, 0), images=3)
    assert budget.spent == 1.5


def test_scrub_removes_credentials_everywhere() -> None:
    data = {
        "spec": "m=openai/x@https://user:hunter2@example.com/v1",
        "extra_body": {"api_key": "k1", "Authorization": "Bearer k2", "max_tokens": 5},
        "note": ["prefix sk-live-123456 suffix"],
        "api_key_env": "MY_KEY",
    }
    out = scrub(data, ["sk-live-123456"])
    text = str(out)
    for secret in ("hunter2", "k1", "Bearer k2", "sk-live-123456"):
        assert secret not in text
    assert out["extra_body"]["max_tokens"] == 5 and out["api_key_env"] == "MY_KEY"
    assert out["spec"] == "m=openai/x@https://***@example.com/v1"


def test_progress_bar_shows_counts_retries_and_errors_on_a_terminal() -> None:
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=120)
    with RunProgress(console) as rp:
        bar = rp.add("qwen8b", 3)
        bar.retried()
        bar.advance()
        bar.advance(error=True)
    text = buf.getvalue()
    assert rp.enabled and "qwen8b" in text and "retries 1" in text and "errors 1" in text
    assert "2/3" in text
    assert bar.summary() == "qwen8b: 1/3 answered, 1 errors, 1 retries"
