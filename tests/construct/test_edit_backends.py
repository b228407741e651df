"""Editors behind one interface: local, http (generic POST), openai (Images edit via the SDK)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import skimage.data
from PIL import Image

from forgebench.construct.edit_api import EditorSpecError, EditRequest, decode_rgb, make_editor
from forgebench.models.base import ModelError

IMG = skimage.data.astronaut()[:200, :300].copy()


def _req(**kw: Any) -> EditRequest:
    base: dict[str, Any] = {
        "image": IMG,
        "mask": None,
        "instruction": "edit",
        "operation": "insert",
    }
    return EditRequest(**(base | kw))


def _run(editor: Any, req: EditRequest) -> Any:
    return asyncio.run(editor.edit(req))


def test_editor_specs() -> None:
    assert make_editor("local/auto").name == "local/auto"
    assert make_editor("mine=http/http://127.0.0.1:9/edit?a=b").name == "mine"
    with pytest.raises(EditorSpecError, match=r"expected \[ALIAS=\]PROVIDER/WHAT"):
        make_editor("local")
    with pytest.raises(EditorSpecError, match="unknown provider 'magic'"):
        make_editor("magic/x")
    with pytest.raises(EditorSpecError, match="not a saved diffusers pipeline"):
        make_editor("diffusers/some/path")


def test_local_editor_paste_remove_recolour_retext(tmp_path: Path) -> None:
    ed = make_editor("local/auto")
    patch = np.zeros((40, 30, 4), np.uint8)
    patch[..., 0] = 250
    patch[..., 3] = 255
    Image.fromarray(patch).save(tmp_path / "p.png")
    box = (100, 50, 130, 90)
    out = decode_rgb(
        _run(ed, _req(region=box, params={"patch": str(tmp_path / "p.png"), "feather": 0})).image,
        "t",
    )
    assert (out[55:85, 105:125, 0] >= 240).all()
    outside = np.ones(IMG.shape[:2], bool)
    outside[50:90, 100:130] = False
    assert np.array_equal(out[outside], IMG[outside])
    mask = np.zeros(IMG.shape[:2], bool)
    mask[10:30, 10:40] = True
    rem = decode_rgb(_run(ed, _req(operation="remove", mask=mask)).image, "t")
    assert np.array_equal(rem[~mask], IMG[~mask]) and not np.array_equal(rem[mask], IMG[mask])
    rec = decode_rgb(
        _run(ed, _req(operation="recolour", region=box, params={"hue_shift": 180})).image, "t"
    )
    assert np.array_equal(rec[outside], IMG[outside]) and not np.array_equal(rec, IMG)
    txt = decode_rgb(
        _run(ed, _req(operation="retext", region=(150, 150, 290, 190), text="NAGOYA")).image, "t"
    )
    assert not np.array_equal(txt[150:190, 150:290], IMG[150:190, 150:290])
    with pytest.raises(ModelError, match=r"needs params\.patch"):
        _run(ed, _req(region=box))
    with pytest.raises(ModelError, match="unknown operation 'paint'"):
        _run(ed, _req(operation="paint"))


def test_http_editor_image_refusal_faults_and_garbage(fake_images: Callable[..., Any]) -> None:
    srv = fake_images(faults=[503])
    ed = make_editor(f"http/{srv.url}/edit")
    mask = np.zeros(IMG.shape[:2], bool)
    mask[0:20, 0:20] = True
    with pytest.raises(ModelError) as e:
        _run(ed, _req(mask=mask))
    assert e.value.retryable and e.value.status == 503
    out = _run(ed, _req(mask=mask, instruction="invert the corner"))
    assert out.status == "ok"
    rgb = decode_rgb(out.image, "t")
    assert np.array_equal(rgb[:20, :20], 255 - IMG[:20, :20]) and np.array_equal(rgb[30:], IMG[30:])
    refused = _run(ed, _req(instruction="[refuse] this"))
    assert (
        refused.status == "refused"
        and refused.message == "I can't edit that."
        and refused.image is None
    )
    with pytest.raises(ModelError, match="neither an image nor JSON"):
        _run(ed, _req(instruction="[garbage]"))


def test_http_editor_unreachable_is_retryable() -> None:
    ed = make_editor("http/http://127.0.0.1:9/edit")
    with pytest.raises(ModelError) as e:
        _run(ed, _req())
    assert e.value.retryable


def test_openai_editor_against_a_loopback_images_endpoint(
    fake_images: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("openai")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(EditorSpecError, match="OPENAI_API_KEY is not set"):
        make_editor("openai/gpt-image-1")
    srv = fake_images(faults=[500, 429])
    ed = make_editor(f"openai/gpt-image-1@{srv.url}/v1", price_per_image=0.04)
    assert ed.name == "openai/gpt-image-1"
    mask = np.zeros(IMG.shape[:2], bool)
    mask[50:100, 60:120] = True
    for status in (500, 429):
        with pytest.raises(ModelError) as e:
            _run(ed, _req(mask=mask))
        assert e.value.retryable and e.value.status == status
    out = _run(ed, _req(mask=mask, instruction="add a smartphone"))
    assert out.status == "ok" and ed.price_per_image == 0.04
    rgb = decode_rgb(out.image, "t")
    # the transparent part of the alpha mask (the edit area) changed, nothing else did
    assert np.array_equal(rgb[50:100, 60:120], 255 - IMG[50:100, 60:120])
    keep = np.ones(IMG.shape[:2], bool)
    keep[50:100, 60:120] = False
    assert np.array_equal(rgb[keep], IMG[keep])
    assert srv.hits == [("/v1/images/edits", "add a smartphone")]
    blocked = _run(ed, _req(mask=mask, instruction="[refuse] a celebrity"))
    assert blocked.status == "blocked" and "moderation_blocked" in (blocked.message or "")
    bad = np.zeros((10, 10), bool)  # a mask of the wrong size: the server's 400, not retried
    with pytest.raises(ModelError) as e:
        _run(ed, _req(mask=bad))
    assert not e.value.retryable and e.value.status == 400


def test_diffusers_editor_with_a_tiny_random_inpainting_pipeline(tmp_path: Path) -> None:
    pytest.importorskip("diffusers")
    pytest.importorskip("torch")
    from support.modules import file_module

    mod = file_module(
        "forgebench_tests_tiny_diffusers",
        Path(__file__).parent.parent / "support" / "tiny_diffusers.py",
    )
    path = mod.build_tiny_inpaint(tmp_path)
    with pytest.raises(EditorSpecError, match="not a saved diffusers pipeline"):
        make_editor(f"diffusers/{tmp_path / 'nothing'}")
    ed = make_editor(f"diffusers/{path}")
    assert ed.name == f"diffusers/{path}"
    img = IMG[:70, :90].copy()  # not a multiple of 8: processed at 64x88, returned at 70x90
    mask = np.zeros(img.shape[:2], bool)
    mask[10:40, 20:60] = True
    req = _req(image=img, mask=mask, instruction="a cat", params={"steps": 2, "seed": 3})
    out = _run(ed, req)
    assert out.status == "ok"
    rgb = decode_rgb(out.image, "t")
    assert rgb.shape == img.shape
    assert np.array_equal(rgb[~mask], img[~mask])  # composited: only the mask may change
    assert not np.array_equal(rgb[mask], img[mask])
    again = decode_rgb(_run(ed, req).image, "t")
    assert np.array_equal(again, rgb)  # seeded: the same candidate twice
    other = decode_rgb(
        _run(
            ed,
            _req(
                image=img,
                mask=mask,
                instruction="a cat",
                params={"steps": 2, "seed": 3},
                candidate=1,
            ),
        ).image,
        "t",
    )
    assert not np.array_equal(other, rgb)  # the next candidate is a fresh render
