"""Fuzz, in process: the models-file parser on 1,200 generated files (a fixed seed). Every file
either parses to settings that obey every numeric rule (finite, in range) or is refused with the
project's user error in one line; nothing else is ever raised."""

from __future__ import annotations

import math
import random
from pathlib import Path

from forgebench.models.modelsfile import load_models_file, parse_models_file
from forgebench.models.spec import NUMBER_RULES, SpecError, number_problem
from support.fuzz import toml_mutator

N = 1200

KEYS = [*NUMBER_RULES, "spec", "group", "base_urls", "reasoning", "extra_body", "api_key_env",
        "junk"]  # fmt: skip
VALUES = [
    "0", "1", "-1", "8", "0.001", "0.0009", "1e-300", "5e-324", "1e12", "1e300", "1e309",
    "inf", "-inf", "+inf", "nan", "-nan", "1.5", "-0.0", "9223372036854775807",
    "9223372036854775808", "99999999999999999999999999999", "0x7fffffff", "0o777", "0b1",
    "true", "false", '"8"', '"omit"', '"inf"', '""', "[]", "[1, 2]", "{}", "{ a = 1 }",
    "1979-05-27T07:32:00Z", "07:32:00", '"openai/x"', "64", "67108864", "1099511627777",
]  # fmt: skip


def _file(rng: random.Random) -> bytes:
    """A models file of 1-3 tables, each a spec and a few settings with hostile values."""
    out: list[str] = []
    for t in range(rng.randint(1, 3)):
        out.append("[[models]]")
        if rng.random() < 0.95:
            out.append(f'spec = "m{t}=openai/x{t}@http://127.0.0.1:9/v1"')
        for key in rng.sample(KEYS, rng.randint(0, 3)):
            if key != "spec":
                out.append(f"{key} = {rng.choice(VALUES)}")
    data = "\n".join(out).encode() + b"\n"
    return toml_mutator(data, rng) if rng.random() < 0.3 else data


def test_fuzz_models_file_parser(tmp_path: Path) -> None:
    rng = random.Random(37)
    path = tmp_path / "models.toml"
    parsed = refused = 0
    for k in range(N):
        data = _file(rng)
        try:
            if k % 50 == 0:  # now and then through a real file
                path.write_bytes(data)
                configs = load_models_file(path)
            else:
                configs = parse_models_file(data, path)
        except SpecError as exc:
            text = str(exc)
            assert text and "\n" not in text and text.startswith(str(path)), text
            refused += 1
            continue
        for config in configs:
            for name in NUMBER_RULES:
                value = getattr(config, name)
                assert number_problem(name, value) is None, (name, value)
                assert value is None or math.isfinite(value), (name, value)
        parsed += 1
    assert parsed + refused == N and parsed > 100 and refused > 300, (parsed, refused)
