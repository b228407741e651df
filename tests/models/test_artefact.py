"""builtin/artefact: a real, weak pixel-evidence detector with well-formed answers."""

from __future__ import annotations

import asyncio
import os
import re
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from forgebench.models.base import ImageRef, Model, ModelError, Request
from forgebench.models.builtin.artefact import ArtefactModel, score_map
from forgebench.models.registry import create_model
from forgebench.models.spec import ModelConfig, SpecError
from forgebench.suites.mandela.contract import Dataset, load_dataset

VERDICT = re.compile(r"^(REAL|FAKE)\. \S")


@pytest.fixture(scope="module")
def demo(demo_dataset: Path) -> Dataset:
    return load_dataset(demo_dataset)


def _request(
    path: Path | None, probe: str, prompt: str = "Is this photograph real or fake?"
) -> Request:
    images = (ImageRef(variant_id="v", path=path, media_type="image/png"),) if path else ()
    return Request(prompt=prompt, images=images, meta={"probe": probe})


def _model(**extra: float) -> Model:
    return create_model(ModelConfig(spec="builtin/artefact", extra_body=dict(extra)))


def test_registry_builds_it_under_its_spec_name() -> None:
    model = _model()
    assert isinstance(model, Model) and isinstance(model, ArtefactModel)
    assert model.name == "builtin/artefact"
    assert create_model(ModelConfig(spec="px=builtin/artefact")).name == "px"
    with pytest.raises(SpecError, match="threshold"):
        _model(threshold=3.0)


def test_better_than_chance_on_the_demo_forgeries(demo: Dataset) -> None:
    model = _model()

    async def verdicts() -> dict[str, tuple[str, dict[str, object]]]:
        out = {}
        for it in demo:
            resp = await model.generate(_request(demo.image_path(it), "L0"))
            out[it.id] = (resp.text, resp.raw)
        return out

    answers = asyncio.run(verdicts())
    forged = [it for it in demo if it.is_forged]
    authentic = [it for it in demo if not it.is_forged]
    fake = {k for k, (text, _) in answers.items() if text.startswith("FAKE.")}
    detection = sum(it.id in fake for it in forged) / len(forged)
    false_alarm = sum(it.id in fake for it in authentic) / len(authentic)
    print(
        f"\nartefact on demo: detection {detection:.1%} of {len(forged)}, false alarms {false_alarm:.1%} of {len(authentic)}"
    )
    assert detection > false_alarm
    assert 0.1 <= detection <= 0.6, "meant to be a real but weak detector"
    # where it says FAKE on a forgery, the named region overlaps the true edit
    located = 0
    for it in forged:
        if it.id in fake:
            x0, y0, x1, y1 = answers[it.id][1]["region"]  # type: ignore[misc]
            rx0, ry0, rx1, ry1 = it.edit.region  # type: ignore[union-attr]
            located += x0 < rx1 and rx0 < x1 and y0 < ry1 and ry0 < y1
    assert located >= 0.5 * sum(it.id in fake for it in forged)


def test_verdict_answers_are_well_formed_for_every_verdict_probe(demo: Dataset) -> None:
    model = _model(threshold=0.0)  # everything looks FAKE: the explanation must name a region
    item = demo.get("poster-k4-city")
    for probe in ("L0", "L1", "L-adv"):
        resp = asyncio.run(model.generate(_request(demo.image_path(item), probe)))
        assert VERDICT.match(resp.text), resp.text
        assert resp.text.startswith("FAKE.")
        assert re.search(r"\b(upper|lower|left|right|central)\b", resp.text)
        assert resp.finish_reason == "stop" and resp.raw["probe"] == probe
    real = asyncio.run(_model(threshold=1.0).generate(_request(demo.image_path(item), "L0")))
    assert real.text == "REAL. No local inconsistency in noise or compression stands out."


def test_non_verdict_probes_answer_as_a_pixel_only_detector(demo: Dataset) -> None:
    model = _model()
    path = demo.image_path(demo.get("astronaut-erase"))
    ask = lambda probe, p=path: asyncio.run(model.generate(_request(p, probe, prompt="..."))).text  # noqa: E731
    assert ask("RECOG") == "NOT RECOGNISED"
    assert ask("L2").startswith("I cannot identify anyone.")
    assert ask("FACE").startswith("NO.")
    assert ask("EVENT", None) == "UNKNOWN"
    text = ask("TEXT", None)
    assert text.startswith("UNKNOWN") and not re.match(r"^(YES|NO)\b", text)


def test_without_probe_meta_it_reads_the_prompt(demo: Dataset) -> None:
    model = _model()
    image = ImageRef(
        variant_id="v", path=demo.image_path(demo.get("hopper-original")), media_type="image/png"
    )
    verdict = Request(
        prompt="Is this photograph real or fake? Start with REAL or FAKE.", images=(image,)
    )
    assert VERDICT.match(asyncio.run(model.generate(verdict)).text)
    other = Request(prompt="Describe the weather.", images=(image,))
    assert asyncio.run(model.generate(other)).text.startswith("I cannot answer this")


def test_unreadable_image_is_a_non_retryable_error(tmp_path: Path) -> None:
    bad = tmp_path / "broken.png"
    bad.write_bytes(b"not an image")
    with pytest.raises(ModelError, match="cannot read image") as err:
        asyncio.run(_model().generate(_request(bad, "L0")))
    assert err.value.retryable is False
    with pytest.raises(ModelError, match="needs an image"):
        asyncio.run(_model().generate(_request(None, "L1")))


def test_one_image_is_analysed_once_for_all_its_tasks(
    demo: Dataset, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nine tasks on one file (three verdict probes x three caption conditions) arriving
    together cost one analysis and get the answers each would get alone; a file rewritten with
    other pixels is analysed again; an unreadable file fails every time (nothing is kept)."""
    from forgebench.models.builtin import artefact

    calls: list[int] = []
    real = artefact.analyse

    def counting(rgb: np.ndarray) -> artefact.Finding:
        calls.append(rgb.shape[0])
        return real(rgb)

    monkeypatch.setattr(artefact, "analyse", counting)
    forged = next(it for it in demo if it.is_forged)
    path = tmp_path / "image.png"
    path.write_bytes(demo.image_path(forged).read_bytes())
    alone = asyncio.run(_model().generate(_request(path, "L0")))
    assert len(calls) == 1
    calls.clear()
    model = _model()

    async def nine() -> list[str]:
        tasks = [model.generate(_request(path, p)) for p in ("L0", "L1", "L-adv") * 3]
        return [r.text for r in await asyncio.gather(*tasks)]

    texts = asyncio.run(nine())
    assert len(calls) == 1 and texts[0] == alone.text and texts[::3] == [alone.text] * 3
    asyncio.run(model.generate(_request(path, "L0")))  # kept, on a new event loop too
    assert len(calls) == 1
    other = next(it for it in demo if not it.is_forged and it.seed_id != forged.seed_id)
    path.write_bytes(demo.image_path(other).read_bytes())
    os.utime(path, ns=(time.time_ns() + 10**9,) * 2)
    again = asyncio.run(model.generate(_request(path, "L0")))
    assert len(calls) == 2
    assert again.raw == asyncio.run(_model().generate(_request(path, "L0"))).raw
    path.write_bytes(b"not an image")
    for _ in range(2):
        with pytest.raises(ModelError, match="cannot read image"):
            asyncio.run(model.generate(_request(path, "L1")))


def test_one_model_answers_on_two_event_loops_at_once(
    demo: Dataset, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A model shared by two threads, each with its own event loop, asking for one image while
    the other's analysis of it runs: each gets its answer (a loop never waits on another
    loop's analysis)."""
    import threading

    from forgebench.models.builtin import artefact

    started, release = threading.Semaphore(0), threading.Event()
    real = artefact.analyse

    def slow(rgb: np.ndarray) -> artefact.Finding:
        started.release()
        assert release.wait(30)
        return real(rgb)

    monkeypatch.setattr(artefact, "analyse", slow)
    path = demo.image_path(next(it for it in demo if it.is_forged))
    model = _model()
    texts: list[str] = []
    errors: list[BaseException] = []

    def ask() -> None:
        try:
            texts.append(asyncio.run(model.generate(_request(path, "L0"))).text)
        except BaseException as exc:  # the assertion below names it
            errors.append(exc)

    first = threading.Thread(target=ask)
    first.start()
    assert started.acquire(timeout=30)  # the first loop's analysis is running
    second = threading.Thread(target=ask)
    second.start()
    assert started.acquire(timeout=30)  # and the second loop runs its own
    release.set()
    first.join(30)
    second.join(30)
    assert not errors and len(texts) == 2 and texts[0] == texts[1]


def test_score_map_shape_range_and_speed(demo: Dataset) -> None:
    rgb = np.asarray(Image.open(demo.image_path(demo.get("astronaut-original"))).convert("RGB"))
    m = score_map(rgb)
    assert m.shape == rgb.shape[:2] and m.dtype == np.float32
    assert float(m.min()) >= 0.0 and float(m.max()) <= 1.0
    odd = score_map(rgb[:203, :317])
    assert odd.shape == (203, 317)
    grey = score_map(rgb[..., 0])
    assert grey.shape == rgb.shape[:2]
    assert score_map(np.zeros((8, 8, 3), np.uint8)).max() == 0.0  # too small for blocks
    with pytest.raises(ValueError, match="uint8"):
        score_map(rgb.astype(np.float32))
    t0 = time.perf_counter()
    for _ in range(5):
        score_map(rgb)
    per = (time.perf_counter() - t0) / 5
    print(f"\nscore_map 512x512: {per * 1000:.1f} ms")
    assert per < 0.15  # ~5-15 ms here; generous for a shared CPU


def test_score_map_highlights_a_pasted_flat_patch() -> None:
    rng = np.random.default_rng(1)
    base = np.clip(rng.normal(128, 20, (256, 256, 3)), 0, 255).astype(np.uint8)
    import io

    buf = io.BytesIO()
    Image.fromarray(base).save(buf, format="JPEG", quality=90)
    photo = np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB")).copy()
    edited = photo.copy()
    edited[96:160, 96:160] = np.clip(rng.normal(128, 20, (64, 64, 3)), 0, 255).astype(np.uint8)
    m = score_map(edited)
    assert m[112:144, 112:144].mean() > 2 * m[:64, :64].mean()
