"""Prices and spend caps are finite numbers >= 0: a NaN would turn ``--max-cost`` off, a negative
price would spend past it. Refused in one line when the models file or the flag is read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from support.mandela_data import write_mandela_dataset

from .conftest import FLAGS, cli, error_lines


@pytest.mark.parametrize(
    ("field", "value"),
    [("price_in", "nan"), ("price_out", "-29.0"), ("price_in", "inf"), ("price_image", "-1")],
)
@pytest.mark.parametrize("dry", [False, True])
def test_a_bad_price_in_the_models_file_is_one_line_and_sends_nothing(
    field: str, value: str, dry: bool, tmp_path: Path, fake_openai: Any
) -> None:
    server = fake_openai()
    models = tmp_path / "models.toml"
    models.write_text(
        f'[[models]]\nspec = "m=openai/fake@{server.url}"\n{field} = {value}\n', encoding="utf-8"
    )
    ds = write_mandela_dataset(tmp_path / "ds")
    res = cli(
        "run", str(ds), "--models-file", str(models), "--out", str(tmp_path / "run"),
        "--max-cost", "0.5", *FLAGS, *(["--dry-run"] if dry else []),
    )  # fmt: skip
    assert res.exit_code == 2, res.output
    assert server.hits == 0
    lines = error_lines(res.stderr)
    assert len(lines) == 1 and field in lines[0], res.stderr
    assert "$nan" not in res.output and "Traceback" not in res.output


@pytest.mark.parametrize("value", ["nan", "-1", "inf"])
def test_a_bad_max_cost_flag_is_one_line(value: str, tmp_path: Path, fake_openai: Any) -> None:
    server = fake_openai()
    ds = write_mandela_dataset(tmp_path / "ds")
    res = cli(
        "run", str(ds), "--model", f"openai/fake@{server.url}", "--out", str(tmp_path / "run"),
        "--max-cost", value, *FLAGS,
    )  # fmt: skip
    assert res.exit_code == 2, res.output
    assert server.hits == 0
    lines = error_lines(res.stderr)
    assert len(lines) == 1 and "--max-cost" in lines[0], res.stderr


@pytest.mark.parametrize("flag", ["--max-cost", "--price-per-image"])
def test_construct_build_refuses_a_nan_price_or_cap(flag: str, tmp_path: Path) -> None:
    res = cli(
        "build",
        str(tmp_path / "seeds"),
        str(tmp_path / "specs.jsonl"),
        "--out",
        str(tmp_path / "o"),
        flag,
        "nan",
    )
    assert res.exit_code == 2, res.output
    lines = error_lines(res.stderr)
    assert len(lines) == 1 and flag in lines[0], res.stderr
