"""Backend registry and models files."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from forgebench.models.base import Request
from forgebench.models.modelsfile import load_models_file
from forgebench.models.openai_compat import OpenAICompatModel
from forgebench.models.registry import create_model, describe_request
from forgebench.models.spec import ModelConfig, SpecError


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "models.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_openai_spec_builds_the_openai_backend_with_its_name() -> None:
    model = create_model(ModelConfig(spec="q=openai/Qwen3-VL-8B@http://127.0.0.1:8000/v1"))
    assert isinstance(model, OpenAICompatModel)
    assert model.name == "q" and model.url == "http://127.0.0.1:8000/v1/chat/completions"


def test_missing_optional_package_is_a_one_line_hint(monkeypatch: Any) -> None:
    # a backend module whose SDK is absent: importing it raises ImportError for the SDK
    monkeypatch.setitem(sys.modules, "anthropic", None)
    monkeypatch.delitem(sys.modules, "forgebench.models.anthropic", raising=False)
    with pytest.raises(SpecError) as info:
        create_model(ModelConfig(spec="anthropic/claude-x"))
    msg = str(info.value)
    assert "pip install 'forgebench[anthropic]'" in msg and "\n" not in msg


def test_generic_request_description_has_no_image_bytes(tmp_path: Path) -> None:
    class Local:
        name = "local"

        async def generate(self, request: Request) -> Any: ...
        async def aclose(self) -> None: ...

    from forgebench.models.base import ImageRef

    ref = ImageRef("abc123", tmp_path / "x.png", "image/png")
    desc = describe_request(
        Local(), Request("p", (ref,), {"temperature": 0}, images_b64=("QUJDRA==",))
    )
    assert desc == {
        "model": "local",
        "prompt": "p",
        "image": "abc123",
        "params": {"temperature": 0},
    }


def test_models_file_reads_per_model_settings(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        """
[[models]]
spec = "qwen8b=openai/Qwen3-VL-8B@http://127.0.0.1:8000/v1"
group = "open"
concurrency = 32
rpm = 600
reasoning = { effort = "low" }
extra_body = { top_k = 1 }

[[models]]
spec = "openai/gpt-5.6"
price_in = 1.25
price_out = 10.0
temperature = 0.7
""",
    )
    a, b = load_models_file(path)
    assert (a.name, a.concurrency, a.rpm, a.group) == ("qwen8b", 32, 600, "open")
    assert a.generation_params()["reasoning"] == {"effort": "low"}
    assert (b.name, b.price_in, b.temperature) == ("openai/gpt-5.6", 1.25, 0.7)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[[models]]\nspec = 'openai/a'\nconcurrency = 0\n", "models[0]: concurrency"),
        ("[[models]]\nspec = 'openai/a'\ncolour = 'red'\n", "models[0]: colour"),
        ("[[models]]\nspec = 'openai/a'\n[[models]]\nspec = 'nope'\n", "models[1]: bad model spec"),
        (
            "[[models]]\nspec = 'openai/a'\n[[models]]\nspec = 'openai/a'\n",
            "already used by models[0]",
        ),
        ("[[models]]\ngroup = 'open'\n", "models[0]: missing 'spec'"),
        ("models = [\n", "invalid TOML"),
        ("title = 'x'\n", "unknown top-level key"),
        ("", "no [[models]] tables"),
    ],
)
def test_bad_models_files_are_one_line_errors(tmp_path: Path, text: str, needle: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(SpecError) as info:
        load_models_file(path)
    msg = str(info.value)
    assert needle in msg and str(path) in msg and "\n" not in msg


def test_missing_models_file(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="models file not found"):
        load_models_file(tmp_path / "none.toml")


def test_omit_leaves_temperature_out_of_requests(tmp_path: Path) -> None:
    path = _write(tmp_path, '[[models]]\nspec = "openai/o9"\ntemperature = "omit"\n')
    (cfg,) = load_models_file(path)
    assert cfg.temperature is None and "temperature" not in cfg.generation_params()


@pytest.mark.parametrize(
    ("spec", "form", "problem"),
    [
        ("openai/m", "structured_outputs", None),
        ("openai/m", "enum", r"openai/\.\.\. does not send choice_form 'enum'; it sends \"json_s"),
        ("anthropic/m", "json_schema", None),
        ("anthropic/m", "guided_choice", r"it sends \"json_schema\" \(output_config\.format\)$"),
        ("google/m", "enum", None),
        ("google/m", "json_schema", r"it sends \"enum\" \(response_schema\)$"),
        ("hf/m", "json_schema", r"hf/\.\.\. cannot constrain an answer"),
        ("replay/answers.jsonl", "guided_choice", None),  # replays: it sends no form
    ],
)
def test_choice_form_is_one_the_provider_sends(
    spec: str, form: str, problem: str | None, tmp_path: Path
) -> None:
    path = _write(tmp_path, f'[[models]]\nspec = "{spec}"\nchoice_form = "{form}"\n')
    if problem is None:
        assert load_models_file(path)[0].choice_form == form
    else:
        with pytest.raises(SpecError, match=rf"models\[0\]: choice_form: .*{problem}"):
            load_models_file(path)
