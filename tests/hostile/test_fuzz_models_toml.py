"""Fuzz: a models file (TOML) through ``forgebench run --models-file ... --dry-run``."""

from __future__ import annotations

from pathlib import Path

from support.fuzz import Target, fuzz, toml_mutator
from support.mandela_data import write_mandela_dataset

SEEDS = [
    b'[[models]]\nspec = "m=openai/gpt-x@http://127.0.0.1:9/v1"\nprice_in = 1.25\n'
    b"price_out = 10.0\nconcurrency = 4\n",
    b'[[models]]\nspec = "openai/x"\nbase_urls = ["http://127.0.0.1:9/v1", '
    b'"http://127.0.0.1:8/v1"]\ntimeout_s = 5\nextra_body = { top_k = 4 }\n\n'
    b'[[models]]\nspec = "builtin/artefact"\n',
]


def test_fuzz_models_file(tmp_path: Path) -> None:
    ds = write_mandela_dataset(tmp_path / "ds")

    def args(case: Path, _k: int) -> list[str]:
        return ["run", str(ds), "--models-file", str(case), "--dry-run", "--max-cost", "1",
                "--out", str(case.parent / "run"), "--probes", "L0", "--conditions", "full"]  # fmt: skip

    target = Target("models TOML", SEEDS, args, [toml_mutator], case_name="models.toml")
    report = fuzz(target, tmp_path / "cases", n=200, seed=5)
    assert report.cases == 200 and report.refused > 100
