"""The judge-stage helper (run/judge_stage.py) through the Forensics option extractor on the v3
fixture run: judgements stored as they arrive and left alone on resume; a stage that fails for
every call names the first reason, redacted, with the count."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from forgebench.models.spec import ModelConfig
from forgebench.run.judging import JudgeSettings
from forgebench.run.send.retry import RetryPolicy
from forgebench.run.store import Store
from forgebench.suites.forensics.judge import extract_run

FIXTURE = Path(__file__).parents[1] / "fixtures" / "v3_run" / "run"
FAST = JudgeSettings(max_attempts=2, retry=RetryPolicy(base_s=0.0, cap_s=0.0))


@pytest.fixture
def run(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "run")
    return tmp_path / "run"


def test_a_stage_stores_its_judgements_and_a_second_pass_asks_nothing(
    run: Path, fake_openai: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    server = fake_openai(reply_text="A")
    config = ModelConfig(spec=f"ext2=openai/fake@{server.url}")
    stats = extract_run(run, config, FAST)
    # the fixture's answers ("FAKE. The image is not what it seems.") decide the four binary
    # questions by the rules; the two others are undecided
    assert (stats.undecided, stats.judged, stats.letters, stats.errors) == (2, 2, 2, 0)
    assert server.hits == 2
    assert "2 judged now (2 to a letter, 0 to Z), 0 errors," in stats.summary()
    with Store.open(run, create=False) as store:
        assert set(store.judged_values("ext2", "letter").values()) == {"A"}
        assert set(store.judged_values("ext", "letter").values()) == {"B"}  # the fixture's
    again = extract_run(run, config, FAST)
    assert (again.existing, again.judged, server.hits) == (2, 0, 2)


def test_a_stage_that_fails_for_every_call_names_the_first_reason_redacted(
    run: Path, fake_openai: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = "sk-live-0123456789abcdef"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    server = fake_openai(fault_rate=1.0, faults=("500",))
    config = ModelConfig(spec=f"ext3=openai/fake@{server.url}")
    stats = extract_run(run, config, FAST)
    assert stats.judged == 0 and stats.errors == 2
    line = stats.summary()
    assert "0 judged now" in line and "2 errors (first: " in line and "500" in line, line
    assert secret not in line
    with Store.open(run, create=False) as store:
        assert store.judged_keys("ext3", "letter") == {}
