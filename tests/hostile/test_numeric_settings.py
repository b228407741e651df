"""Numeric model settings are finite and in range, by one table shared by the models file and
the flags (``models.spec.NUMBER_RULES``): ``timeout_s = inf`` (an OverflowError before),
``rpm = 1e-300`` (a run that waited forever), NaN, negative or absurd values are one ``error:``
line naming the setting and the file or flag, exit 2, nothing sent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from forgebench.cli_support import check_flags
from forgebench.models.modelsfile import load_models_file
from forgebench.models.spec import SpecError
from support.mandela_data import write_mandela_dataset

from .conftest import FLAGS, cli, error_lines


@pytest.mark.parametrize(
    ("key", "value"),
    [("timeout_s", "inf"), ("rpm", "1e-300"), ("rpm", "nan"), ("concurrency", "0"),
     ("concurrency", "inf"), ("max_reply_bytes", "-1"), ("temperature", "inf"),
     ("max_tokens", "-3"), ("max_attempts", "1_000_000_000"), ("timeout_s", "1e300")],
)  # fmt: skip
def test_a_bad_number_in_the_models_file_is_one_line_and_sends_nothing(
    key: str, value: str, tmp_path: Path, fake_openai: Any
) -> None:
    server = fake_openai()
    models = tmp_path / "models.toml"
    models.write_text(f'[[models]]\nspec = "m=openai/fake@{server.url}"\n{key} = {value}\n')
    ds = write_mandela_dataset(tmp_path / "ds")
    res = cli("run", str(ds), "--models-file", str(models), "--out", str(tmp_path / "r"), *FLAGS)
    assert res.exit_code == 2, res.output
    lines = error_lines(res.stderr)
    assert len(lines) == 1 and str(models) in lines[0] and key in lines[0], res.stderr
    assert "Traceback" not in res.output and server.hits == 0


@pytest.mark.parametrize(
    ("flag", "value"),
    [("--rpm", "0.0005"), ("--rpm", "nan"), ("--rpm", "inf"), ("--timeout", "inf"),
     ("--timeout", "nan"), ("--timeout", "-1"), ("--concurrency", "0"), ("--max-attempts", "0"),
     ("--max-reply-bytes", "0"), ("--max-reply-bytes", "-5")],
)  # fmt: skip
def test_a_bad_number_flag_is_one_line_and_sends_nothing(
    flag: str, value: str, tmp_path: Path, fake_openai: Any
) -> None:
    server = fake_openai()
    ds = write_mandela_dataset(tmp_path / "ds")
    res = cli(
        "run", str(ds), "--model", f"openai/fake@{server.url}", "--out", str(tmp_path / "r"),
        flag, value, *FLAGS,
    )  # fmt: skip
    assert res.exit_code == 2, res.output
    lines = error_lines(res.stderr)
    assert len(lines) == 1 and lines[0].startswith(f"error: {flag}: "), res.stderr
    assert "Traceback" not in res.output and server.hits == 0


@pytest.mark.parametrize(("flag", "value"), [("--rpm", "1e-300"), ("--max-reply-bytes", "3")])
def test_judge_checks_its_flags_by_the_same_rules(flag: str, value: str, tmp_path: Path) -> None:
    res = cli("judge", str(tmp_path), "--judge", "builtin/rules", flag, value)
    assert res.exit_code == 2, res.output
    lines = error_lines(res.stderr)
    assert len(lines) == 1 and lines[0].startswith(f"error: {flag}: "), res.stderr


def test_the_rpm_minimum_is_the_same_in_the_file_and_on_the_command_line(tmp_path: Path) -> None:
    models = tmp_path / "m.toml"
    models.write_text('[[models]]\nspec = "openai/x"\nrpm = 0.001\n')
    assert load_models_file(models)[0].rpm == 0.001
    check_flags({"rpm": 0.001})
    models.write_text('[[models]]\nspec = "openai/x"\nrpm = 0.0009\n')
    with pytest.raises(SpecError) as in_file:
        load_models_file(models)
    with pytest.raises(SpecError) as on_line:
        check_flags({"rpm": 0.0009})
    assert (
        str(in_file.value)
        == f"{models}: models[0]: rpm: must be between 0.001 and 1e+09, not 0.0009"
    )
    assert str(on_line.value) == "--rpm: rpm must be between 0.001 and 1e+09, not 0.0009"


def test_concurrency_1e12_in_a_models_file_is_accepted(tmp_path: Path) -> None:
    """A huge concurrency is harmless (the pool makes one task per call in flight)."""
    models = tmp_path / "m.toml"
    models.write_text('[[models]]\nspec = "openai/x"\nconcurrency = 1e12\n')
    assert load_models_file(models)[0].concurrency == 10**12
