"""Several images per question: task keys, the store, request bodies of every backend, limits,
token estimates and the dry-run preview."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from forgebench.models import anthropic, google, hf_local
from forgebench.models.base import ImageRef, ModelError, Request, image_limit
from forgebench.models.builtin.artefact import ArtefactModel
from forgebench.models.openai_body import build_body, encode_body
from forgebench.models.openai_compat import OpenAICompatModel
from forgebench.models.spec import ModelConfig, SpecError
from forgebench.run.costs import TEXT_FRAMING_TOKENS, estimate_input_tokens, image_tokens
from forgebench.run.dryrun import example_request
from forgebench.run.store import Store, task_images
from forgebench.run.tasks import Question, make_task, task_key


def _image(path: Path, size: tuple[int, int], seed: int) -> ImageRef:
    rng = np.random.default_rng(seed)
    arr = rng.integers(0, 256, (size[1], size[0], 3), dtype=np.uint8)
    Image.fromarray(arr).save(path)
    vid = hashlib.sha256(path.read_bytes()).hexdigest()
    return ImageRef(vid, path, "image/png")


@pytest.fixture
def frames(tmp_path: Path) -> tuple[ImageRef, ...]:
    """Three real PNGs of different sizes (so their base64 lengths differ)."""
    sizes = [(40, 30), (64, 48), (20, 20)]
    return tuple(_image(tmp_path / f"f{k}.png", s, k) for k, s in enumerate(sizes))


def _b64(ref: ImageRef) -> str:
    return base64.b64encode(ref.path.read_bytes()).decode("ascii")


def test_single_image_keys_are_the_recipe_made_before(frames: tuple[ImageRef, ...]) -> None:
    a, b, c = frames
    q = Question("7", "MCQ", "full", "Question: ?", "MCQ/v1", image=a, benchmark="forensics")
    params = {"temperature": 0.0, "max_tokens": 1024}
    # the recipe as written before questions could carry several images (no "images" field)
    before = {
        "v": "k1", "item": "7", "probe": "MCQ", "condition": "full", "model": "m",
        "prompt": "Question: ?", "prompt_version": "MCQ/v1", "params": params,
        "image": a.variant_id,
    }  # fmt: skip
    text = json.dumps(before, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert task_key(q, "m", params) == hashlib.sha256(text.encode()).hexdigest()[:32]
    assert Question("7", "MCQ", "full", "Question: ?", "MCQ/v1", images=(a,)).image == a
    # several images: every one and their order enter the key
    many = Question("7", "MCQ", "multi_image", "Q", "v", images=(a, b, c))
    assert many.image == a and many.images == (a, b, c)
    keys = {
        task_key(many, "m", params),
        task_key(Question("7", "MCQ", "multi_image", "Q", "v", images=(a, c, b)), "m", params),
        task_key(Question("7", "MCQ", "multi_image", "Q", "v", images=(a, b)), "m", params),
        task_key(Question("7", "MCQ", "multi_image", "Q", "v", image=a), "m", params),
    }
    assert len(keys) == 4
    with pytest.raises(ValueError, match="not the first of images"):
        Question("7", "MCQ", "full", "Q", "v", image=b, images=(a, b))


def test_the_store_keeps_every_image_in_order(tmp_path: Path, frames: tuple[ImageRef, ...]) -> None:
    one = Question("1", "MCQ", "full", "Q", "v", image=frames[0], benchmark="forensics")
    many = Question("1", "MCQ", "multi_image", "Q", "v", images=frames, benchmark="forensics")
    none = Question("2", "MCQ", "full", "Q", "v", benchmark="forensics")
    with Store.open(tmp_path / "run") as store:
        store.begin_invocation()
        store.put_tasks([make_task(q, "m") for q in (one, many, none)])
        rows = [r for page in store.pending_pages("m") for r in page]
        assert [task_images(r) for r in rows] == [(frames[0],), frames, ()]
        assert [r["variant_id"] for r in rows] == [frames[0].variant_id] * 2 + [None]
        stored = [r["images"] for r in rows]
        assert stored[0] is None and stored[2] is None  # one image or none: the v2 columns only
        assert [v for v, _p, _m in json.loads(stored[1])] == [f.variant_id for f in frames]


def _request(frames: tuple[ImageRef, ...], **kw: object) -> Request:
    return Request(prompt="Which frames are forged?", images=frames, **kw)  # type: ignore[arg-type]


def test_openai_body_has_one_image_part_per_image_in_order_then_the_text(
    frames: tuple[ImageRef, ...],
) -> None:
    req = _request(frames, images_b64=(None, _b64(frames[1]), None))
    body = build_body("m", req)
    parts = body["messages"][0]["content"]
    assert [p["type"] for p in parts] == ["image_url"] * 3 + ["text"]
    assert [p["image_url"]["url"] for p in parts[:3]] == [
        f"data:image/png;base64,{_b64(f)}" for f in frames
    ]
    assert json.loads(encode_body("m", req)) == body
    cfg = ModelConfig(spec="m=openai/x@http://127.0.0.1:9/v1")
    described = OpenAICompatModel(cfg).describe_request(req)["messages"][0]["content"]
    assert [p["image_url"]["url"] for p in described[:3]] == [
        f"variant:{f.variant_id}" for f in frames
    ]


def test_sdk_backends_send_every_image_in_order(frames: tuple[ImageRef, ...]) -> None:
    req = _request(frames)
    kwargs = anthropic.build_request(ModelConfig(spec="anthropic/claude-x"), req)
    blocks = kwargs["messages"][0]["content"]
    assert [b["type"] for b in blocks] == ["image"] * 3 + ["text"]
    assert [b["source"]["data"] for b in blocks[:3]] == [_b64(f) for f in frames]
    gm = google.GoogleModel(ModelConfig(spec="google/gemini-x"))
    parts = gm.describe_request(req)["contents"][0]["parts"]
    assert [p["inline_data"]["data"] for p in parts[:3]] == [
        f"variant:{f.variant_id}" for f in frames
    ]
    assert parts[3] == {"text": "Which frames are forged?"}
    hf = hf_local.HFLocalModel(ModelConfig(spec="hf/some/model"), "some/model")
    content = hf.describe_request(req)["messages"][0]["content"]
    assert [c.get("image") for c in content] == [f"variant:{f.variant_id}" for f in frames] + [None]


def test_a_model_that_takes_one_image_says_so_in_one_line(frames: tuple[ImageRef, ...]) -> None:
    cfg = ModelConfig(spec="solo=openai/x@http://127.0.0.1:9/v1", max_images=1)
    with pytest.raises(SpecError, match=r"^model solo takes at most 1 image per question"):
        cfg.check_images(3, "item 2 (MCQ, multi_image)")
    cfg.check_images(1, "item 1")
    # at send time too, before any connection is made (port 9 is never listened on)
    with pytest.raises(ModelError, match="solo takes at most 1 image per question") as err:
        asyncio.run(OpenAICompatModel(cfg).generate(_request(frames)))
    assert err.value.task_only and not err.value.retryable
    assert "\n" not in str(err.value)
    # the offline pixel detector scores one image: it refuses rather than reading the first
    with pytest.raises(ModelError, match="builtin/artefact scores one image"):
        asyncio.run(ArtefactModel("art").generate(_request(frames, meta={"probe": "L0"})))
    image_limit("x", _request(frames), None)  # no limit known: nothing refused


def test_estimates_and_dry_run_count_every_image(frames: tuple[ImageRef, ...]) -> None:
    q = Question("1", "MCQ", "multi_image", "x" * 40, "v", images=frames, benchmark="b")
    task = make_task(q, "m", {"temperature": 0.0})
    sizes = [(40, 30), (64, 48), (20, 20)]
    expected = 10 + TEXT_FRAMING_TOKENS + sum(image_tokens(*s) for s in sizes)
    assert estimate_input_tokens(task) == expected
    cfg = ModelConfig(spec="m=openai/x@http://127.0.0.1:9/v1")
    shown = example_request(OpenAICompatModel(cfg), task)["messages"][0]["content"]
    assert [p["image_url"]["url"] for p in shown[:3]] == [
        f"data:image/png;base64,{_b64(f)[:12]}...({len(_b64(f))} chars)" for f in frames
    ]


def test_export_batch_writes_every_image_and_names_a_missing_one(
    tmp_path: Path, frames: tuple[ImageRef, ...]
) -> None:
    from forgebench.run.batch import BatchError, export_batch

    q = Question("1", "MCQ", "multi_image", "Q", "v", images=frames, benchmark="forensics")
    with Store.open(tmp_path / "run") as store:
        store.meta_set("model:m", {"identity": {"provider": "openai", "model": "x", "params": {}}})
        store.put_tasks([make_task(q, "m")])
        files, n = export_batch(store, "m", tmp_path / "b.jsonl")
        assert n == 1
        body = json.loads(files[0].read_text().splitlines()[0])["body"]
        urls = [p["image_url"]["url"] for p in body["messages"][0]["content"][:-1]]
        assert urls == [f"data:image/png;base64,{_b64(f)}" for f in frames]
        frames[2].path.unlink()
        with pytest.raises(BatchError, match=f"image variant {frames[2].variant_id} is missing"):
            export_batch(store, "m", tmp_path / "c.jsonl")
