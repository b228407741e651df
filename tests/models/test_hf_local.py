"""``hf/PATH`` with a tiny randomly initialised Llava model that the test builds on disk (offline)."""

from __future__ import annotations

import asyncio
import base64
import importlib.util
import io
import sys
from pathlib import Path

import pytest
from PIL import Image

from forgebench.models import hf_local
from forgebench.models.base import ModelError, Request, Response
from forgebench.models.spec import ModelConfig, SpecError

# find_spec, not importorskip: torch takes seconds to import; the tests import it when they run
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("transformers") is None,
    reason="needs the hf extra (torch, transformers)",
)

SPECIAL = ["<pad>", "<s>", "</s>", "<unk>", "<image>", "USER:", "ASSISTANT:"]
PLAIN = ["real", "fake", "image", "is", "this", "the", "a", "?", ".", "yes", "no", "clock"]
WORDS = [*SPECIAL, *PLAIN, "tower", "logo", "sign", "red"]
IMAGE_SIZE, PATCH = 32, 8
IMAGE_TOKENS = (IMAGE_SIZE // PATCH) ** 2
TEMPLATE = (
    "{% for m in messages %}{{ m['role'].upper() }}:"
    "{% for c in m['content'] %}{% if c['type'] == 'image' %} <image>"
    "{% elif c['type'] == 'text' %} {{ c['text'] }}{% endif %}{% endfor %} {% endfor %}"
    "{% if add_generation_prompt %}ASSISTANT:{% endif %}"
)


def build_tiny_llava(folder: Path) -> Path:
    """A 2-layer CLIP vision tower + 1-layer Llama, word-level tokenizer, saved like a hub model."""
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import (
        CLIPVisionConfig,
        LlamaConfig,
        LlavaConfig,
        LlavaForConditionalGeneration,
        LlavaProcessor,
        PreTrainedTokenizerFast,
    )
    from transformers.models.llava.image_processing_pil_llava import LlavaImageProcessorPil

    vocab = {w: i for i, w in enumerate(WORDS)}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token="<s>",
        eos_token="</s>",
        unk_token="<unk>",
        pad_token="<pad>",
        extra_special_tokens={"image_token": "<image>"},
    )
    processor = LlavaProcessor(
        image_processor=LlavaImageProcessorPil(
            size={"shortest_edge": IMAGE_SIZE},
            crop_size={"height": IMAGE_SIZE, "width": IMAGE_SIZE},
        ),
        tokenizer=tokenizer,
        patch_size=PATCH,
        vision_feature_select_strategy="default",
        num_additional_image_tokens=1,
        chat_template=TEMPLATE,
    )
    config = LlavaConfig(
        vision_config=CLIPVisionConfig(
            hidden_size=32,
            intermediate_size=64,
            num_hidden_layers=2,
            num_attention_heads=2,
            image_size=IMAGE_SIZE,
            patch_size=PATCH,
            projection_dim=32,
        ),
        text_config=LlamaConfig(
            vocab_size=len(WORDS),
            hidden_size=32,
            intermediate_size=64,
            num_hidden_layers=1,
            num_attention_heads=2,
            num_key_value_heads=2,
            max_position_embeddings=256,
            bos_token_id=1,
            eos_token_id=2,
            pad_token_id=0,
        ),
        image_token_index=WORDS.index("<image>"),
        image_seq_length=IMAGE_TOKENS,
        vision_feature_layer=-1,
    )
    import torch

    torch.manual_seed(0)
    model = LlavaForConditionalGeneration(config)
    model.generation_config.eos_token_id = 2
    model.generation_config.pad_token_id = 0
    model.save_pretrained(folder)
    processor.save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_llava(tmp_path_factory.mktemp("tiny-llava"))


def png_b64(color: tuple[int, int, int], size: tuple[int, int] = (50, 40)) -> str:
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, format="PNG")
    return base64.b64encode(buf.getvalue()).decode()


def generate(model: object, *requests: Request) -> list[Response]:
    async def go() -> list[Response]:
        assert isinstance(model, hf_local.HFLocalModel)
        return list(await asyncio.gather(*(model.generate(r) for r in requests)))

    return asyncio.run(go())


def test_image_and_prompt_generate_deterministic_text(tiny: Path, tmp_path: Path) -> None:
    import torch

    image_path = tmp_path / "photo.png"
    Image.new("RGB", (50, 40), (220, 30, 30)).save(image_path)
    from forgebench.models.base import ImageRef

    ref = ImageRef(variant_id="v", path=image_path, media_type="image/png")
    model = hf_local.create(ModelConfig(spec=f"tiny=hf/{tiny}", max_tokens=6))
    assert model.name == "tiny"
    ask = Request(prompt="is this image real ?", images=(ref,))
    first, second, third = generate(model, ask, ask, ask)  # concurrent requests queue up
    assert first.text == second.text == third.text  # greedy at temperature 0
    assert first.text and set(first.text.split()) <= set(WORDS)
    # the prompt held USER:, 16 image tokens, the 5 prompt words and ASSISTANT:
    assert first.usage.input_tokens == 1 + IMAGE_TOKENS + 5 + 1
    assert first.usage.output_tokens is not None and 1 <= first.usage.output_tokens <= 6
    assert first.finish_reason in {"stop", "length"}
    assert first.finish_reason == "length" or first.usage.output_tokens < 6
    assert first.raw["prompt_text"] == "USER: <image> is this image real ? ASSISTANT:"
    assert first.raw["generate_kwargs"] == {"max_new_tokens": 6, "do_sample": False}
    assert first.raw["device"] == ("cuda:0" if torch.cuda.is_available() else "cpu")


def test_several_images_go_to_the_processor_in_order(tiny: Path, tmp_path: Path) -> None:
    from forgebench.models.base import ImageRef

    refs = []
    for k, color in enumerate([(220, 30, 30), (30, 220, 30), (30, 30, 220)]):
        Image.new("RGB", (50, 40), color).save(tmp_path / f"f{k}.png")
        refs.append(ImageRef(f"v{k}", tmp_path / f"f{k}.png", "image/png"))
    model = hf_local.create(ModelConfig(spec=f"tiny=hf/{tiny}", max_tokens=4))
    [out] = generate(model, Request(prompt="is this real ?", images=tuple(refs)))
    assert out.raw["prompt_text"] == "USER: <image> <image> <image> is this real ? ASSISTANT:"
    assert out.usage.input_tokens == 1 + 3 * IMAGE_TOKENS + 4 + 1  # every image's tokens
    # what the backend answers is transformers' own greedy decode of the frames in this order
    loaded = hf_local.load(str(tiny.resolve()))
    frames = [Image.open(r.path).convert("RGB") for r in refs]
    inputs = loaded.processor(text=out.raw["prompt_text"], images=frames, return_tensors="pt")
    n_in = inputs["input_ids"].shape[1]
    ids = loaded.model.generate(**inputs, max_new_tokens=4, do_sample=False)[0, n_in:].tolist()
    if 2 in ids:
        ids = ids[: ids.index(2) + 1]
    assert out.text == loaded.processor.tokenizer.decode(ids, skip_special_tokens=True).strip()


def test_output_matches_direct_transformers_greedy_decode(tiny: Path) -> None:
    """What the backend returns is what transformers itself decodes for the same inputs."""
    b64 = png_b64((10, 200, 10))
    model = hf_local.create(ModelConfig(spec=f"hf/{tiny}", max_tokens=5))
    [out] = generate(model, Request(prompt="the red logo ?", images_b64=(b64,), params={}))
    loaded = hf_local.load(str(tiny.resolve()))
    image = Image.open(io.BytesIO(base64.b64decode(b64))).convert("RGB")
    inputs = loaded.processor(
        text="USER: <image> the red logo ? ASSISTANT:", images=[image], return_tensors="pt"
    )
    n_in = inputs["input_ids"].shape[1]
    ids = loaded.model.generate(**inputs, max_new_tokens=5, do_sample=False)[0, n_in:].tolist()
    if 2 in ids:
        ids = ids[: ids.index(2) + 1]
    assert out.text == loaded.processor.tokenizer.decode(ids, skip_special_tokens=True).strip()
    assert out.usage.output_tokens == len(ids)


def test_text_only_request_and_weights_loaded_once(tiny: Path) -> None:
    a = hf_local.create(ModelConfig(spec=f"a=hf/{tiny}", max_tokens=3))
    b = hf_local.create(ModelConfig(spec=f"b=hf/{tiny}", max_tokens=3))
    [ra] = generate(a, Request(prompt="clock tower ?"))
    [rb] = generate(b, Request(prompt="clock tower ?"))
    assert ra.text == rb.text
    assert ra.usage.input_tokens == 1 + 3 + 1  # no image tokens
    assert ra.raw["prompt_text"] == "USER: clock tower ? ASSISTANT:"
    assert list(hf_local._LOADED).count(str(tiny.resolve())) == 1


def test_sampling_is_seeded(tiny: Path) -> None:
    cfg = ModelConfig(spec=f"hf/{tiny}", temperature=1.5, seed=7, max_tokens=8)
    model = hf_local.create(cfg)
    r = Request(prompt="fake or real ?", images_b64=(png_b64((1, 2, 3)),))
    one, two = generate(model, r, r)
    assert one.text == two.text
    other = hf_local.create(cfg.model_copy(update={"seed": 8}))
    [three] = generate(other, r)
    assert three.text != one.text  # the seed is what made them agree
    assert one.raw["generate_kwargs"]["do_sample"] is True
    assert one.raw["generate_kwargs"]["temperature"] == 1.5


def test_bad_image_is_a_non_retryable_error(tiny: Path) -> None:
    model = hf_local.create(ModelConfig(spec=f"hf/{tiny}", max_tokens=2))
    bad = base64.b64encode(b"not an image at all").decode()
    with pytest.raises(ModelError) as err:
        generate(model, Request(prompt="q", images_b64=(bad,)))
    assert not err.value.retryable
    assert "cannot decode image" in str(err.value)


def test_missing_folder_missing_config_and_missing_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SpecError, match=r"hf model folder .* not found"):
        hf_local.create(ModelConfig(spec=f"hf/{tmp_path}/nope"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(SpecError, match=r"has no config\.json"):
        hf_local.create(ModelConfig(spec=f"hf/{tmp_path}/empty"))
    monkeypatch.setitem(sys.modules, "transformers", None)
    with pytest.raises(SpecError) as err:
        hf_local.create(ModelConfig(spec="hf/org/model"))
    assert str(err.value) == "hf/org/model needs the 'hf' extra: pip install 'forgebench[hf]'"


def test_unloadable_folder_is_a_clear_model_error(tmp_path: Path) -> None:
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "config.json").write_text('{"model_type": "no_such_arch"}', encoding="utf-8")
    model = hf_local.create(ModelConfig(spec=f"hf/{folder}"))
    with pytest.raises(ModelError) as err:
        generate(model, Request(prompt="q"))
    assert not err.value.retryable
    assert str(err.value).startswith(f"cannot load hf model {folder}")
    assert "\n" not in str(err.value)


def test_describe_request_needs_no_weights(tmp_path: Path) -> None:
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "config.json").write_text("{}", encoding="utf-8")
    from forgebench.models.base import ImageRef

    model = hf_local.create(
        ModelConfig(spec=f"hf/{folder}", reasoning={"enable_thinking": False}, max_tokens=9)
    )
    ref = ImageRef(variant_id="abc", path=folder / "x.png", media_type="image/png")
    described = model.describe_request(Request(prompt="Real?", images=(ref,)))  # type: ignore[attr-defined]
    assert described["messages"][0]["content"][0] == {"type": "image", "image": "variant:abc"}
    assert described["chat_template_kwargs"] == {"enable_thinking": False}
    assert described["generate_kwargs"] == {"max_new_tokens": 9, "do_sample": False}
    assert str(folder.resolve()) not in hf_local._LOADED


def test_cancelled_request_stops_generating(tiny: Path) -> None:
    """A request the runner abandoned (timeout, Ctrl-C) stops at the next token."""
    import threading

    loaded = hf_local.load(str(tiny.resolve()))
    params = {"max_tokens": 40, "temperature": 0.0}
    full = hf_local.run_generation(loaded, Request(prompt="yes ?"), params)
    cancel = threading.Event()
    cancel.set()
    cut = hf_local.run_generation(loaded, Request(prompt="yes ?"), params, cancel)
    assert full.usage.output_tokens is not None and full.usage.output_tokens > 1
    assert cut.usage.output_tokens == 1
