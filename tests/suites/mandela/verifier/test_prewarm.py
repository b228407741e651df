"""builtin/verifier's tools run ahead of its questions: answers from a prewarmed verifier equal a
cold one's and run no tool again; a tool failing in the prewarm is computed inline by the answer;
a cancelled or failed prewarm ends instead of hanging; the runner's model reuses the prewarmed
verifier only for the same KB, threshold and tool folder."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from forgebench.models.spec import ModelConfig
from forgebench.suites.mandela.prompts import probe as probe_text
from forgebench.suites.mandela.verifier import model, toolcache
from forgebench.suites.mandela.verifier.kb import load_kb
from forgebench.suites.mandela.verifier.model import Verifier
from forgebench.suites.mandela.verifier.prewarm import Job, Prewarm, jobs_of

from .conftest import World, count_tools

L0 = probe_text("L0").template.format(noun="photograph")
L1 = probe_text("L1").template.format(noun="photograph")
JOIN_S = 120  # generous: a prewarm that never ends fails here instead of hanging the suite


def _images(world: World, folder: Path) -> dict[str, tuple[Path, np.ndarray]]:
    out = {}
    for key in ("plaque_fake", "rocket_hopper", "rocket"):
        rgb = getattr(world, key)
        path = folder / f"{key}.png"
        Image.fromarray(rgb).save(path)
        out[key] = (path, rgb)
    return out


def _asked(images: dict[str, tuple[Path, np.ndarray]]) -> list[tuple[str, Path, str]]:
    """What a runner would ask: two verdict probes per forged image, RECOG on the rocket."""
    return [
        ("L0", images["plaque_fake"][0], "plaque_fake"),
        ("L1", images["plaque_fake"][0], "plaque_fake"),
        ("L0", images["rocket_hopper"][0], "rocket_hopper"),
        ("RECOG", images["rocket"][0], "rocket"),
    ]


def _answers(v: Verifier, world: World) -> list[str]:
    """``v``'s answers to what :func:`_asked` asks, about the pixels :func:`_images` saves."""
    return [
        v.answer("L0", L0, world.plaque_fake, "plaque_fake"),
        v.answer("L1", L1, world.plaque_fake, "plaque_fake"),
        v.answer("L0", L0, world.rocket_hopper, "rocket_hopper"),
        v.answer("RECOG", "", world.rocket, "rocket"),
    ]


@pytest.fixture(scope="module")
def cold(world: World) -> list[str]:
    """:func:`_answers` of a verifier built afresh, with no prewarm: what every prewarmed
    verifier here must answer (the images are the world's, so it is computed once)."""
    return _answers(Verifier(load_kb(world.kb)), world)


def test_jobs_are_one_per_image_in_the_order_first_asked(world: World, tmp_path: Path) -> None:
    images = _images(world, tmp_path)
    jobs = jobs_of(_asked(images))
    assert [j.key for j in jobs] == ["plaque_fake", "rocket_hopper", "rocket"]
    assert jobs[0].probes == {"L0", "L1"} and jobs[2].probes == {"RECOG"}


def test_a_prewarmed_verifier_answers_as_a_cold_one_without_running_a_tool(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cold: list[str]
) -> None:
    kb = load_kb(world.kb)
    images = _images(world, tmp_path)
    calls = count_tools(monkeypatch)
    fresh = Verifier(kb)
    assert calls == []  # its portraits and scenes are decoded, their tool work waits for use
    warm = Prewarm(lambda: fresh, jobs_of(_asked(images))).start()
    assert warm.join(JOIN_S)
    verifier = warm.verifier()
    assert verifier is fresh and warm.failed == [] and warm.done == 3
    # each image's tools ran once: scene on all three (the KB's scene features on the first),
    # faces and text on the two verdict images; no face identified yet, so no portrait embedded
    assert sorted(calls) == sorted(["index"] + ["scene"] * 3 + ["faces"] * 2 + ["text"] * 2)
    calls.clear()
    assert _answers(verifier, world) == cold
    assert calls == ["gallery"]  # the answers identify faces: the portraits, once; no tool again


def test_a_tool_failing_in_the_prewarm_is_computed_by_the_answer(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cold: list[str]
) -> None:
    kb = load_kb(world.kb)
    images = _images(world, tmp_path)
    real_read = model._read
    broken = {"on": True}

    def flaky(rgb: np.ndarray, mirrored: bool):  # type: ignore[no-untyped-def]
        if broken["on"]:
            raise RuntimeError("onnxruntime: out of memory")
        return real_read(rgb, mirrored)

    monkeypatch.setattr(model, "_read", flaky)
    warm = Prewarm(lambda: Verifier(kb), jobs_of(_asked(images))).start()
    assert warm.join(JOIN_S)
    assert len(warm.failed) == 2  # both verdict images' text
    assert all("out of memory" in line for line in warm.failed)
    verifier = warm.verifier()
    assert verifier is not None
    broken["on"] = False
    assert _answers(verifier, world) == cold  # read inline, as with no prewarm


def test_a_verifier_that_cannot_be_built_ends_the_prewarm(tmp_path: Path) -> None:
    def make() -> Verifier:
        raise RuntimeError("no face models")

    warm = Prewarm(make, [Job(tmp_path / "a.png", "a", frozenset({"L0"}))]).start()
    assert warm.join(JOIN_S)
    assert warm.verifier() is None
    assert warm.failed == ["verifier: RuntimeError: no face models"]


def test_a_cancelled_prewarm_stops_between_images(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kb = load_kb(world.kb)
    images = _images(world, tmp_path)
    many = [("L0", images["plaque_fake"][0], f"copy-{i}") for i in range(40)]
    warm = Prewarm(lambda: Verifier(kb), jobs_of(many), pending=2).start()
    assert warm.verifier() is not None
    warm.cancel()
    assert warm.join(JOIN_S)
    assert warm.done < 40


def test_the_runners_model_reuses_the_prewarmed_verifier_only_when_it_is_the_same(
    world: World, tmp_path: Path
) -> None:
    config = ModelConfig(spec=f"builtin/verifier@{world.kb}")
    with toolcache.kept_in(tmp_path / "tools"):
        ready = model.create(config).verifier
        with model.reusing(ready):
            assert model.create(config).verifier is ready
            other = ModelConfig(
                spec=f"builtin/verifier@{world.kb}", extra_body={"face_threshold": 0.5}
            )
            assert model.create(other).verifier is not ready  # another threshold
    with model.reusing(ready):
        assert model.create(config).verifier is not ready  # another tool folder (none)


def test_text_is_read_while_the_verifier_is_built_and_kept_as_a_cold_one_reads_it(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cold: list[str]
) -> None:
    kb = load_kb(world.kb)
    images = _images(world, tmp_path)
    calls = count_tools(monkeypatch)
    read = threading.Event()
    real_read = model._read

    def noted_read(rgb: np.ndarray, mirrored: bool):  # type: ignore[no-untyped-def]
        read.set()
        return real_read(rgb, mirrored)

    monkeypatch.setattr(model, "_read", noted_read)

    def make() -> Verifier:  # the verifier is built only once the text driver has read
        assert read.wait(JOIN_S)
        return Verifier(kb)

    warm = Prewarm(make, jobs_of(_asked(images))).start()
    assert warm.join(JOIN_S)
    assert warm.failed == [] and warm.done == 3
    assert calls.count("text") == 2  # nothing read twice: neither image is mirrored
    calls.clear()
    verifier = warm.verifier()
    assert verifier is not None and _answers(verifier, world) == cold
    assert calls == ["gallery"]


def test_a_mirrored_image_read_ahead_is_read_again_flipped(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kb = load_kb(world.kb)
    flipped = np.ascontiguousarray(world.plaque_fake[:, ::-1])
    path = tmp_path / "flipped.png"
    Image.fromarray(flipped).save(path)
    cold = Verifier(kb)
    expected = cold.observe(flipped, "flipped", text=True, people=True)
    assert expected.scene is not None and expected.scene.mirrored
    assert any("1971" in ln.text for ln in expected.text)  # read flipped back, as a person would
    calls = count_tools(monkeypatch)
    warm = Prewarm(lambda: Verifier(kb), jobs_of([("L0", path, "flipped")])).start()
    assert warm.join(JOIN_S)
    assert warm.failed == []
    assert calls.count("text") == 2  # as it is, then flipped once the scene says mirrored
    verifier = warm.verifier()
    assert verifier is not None
    calls.clear()
    assert verifier.observe(flipped, "flipped", text=True, people=True).text == expected.text
    assert calls == []


def test_text_kept_on_disk_is_not_read_ahead(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kb = load_kb(world.kb)
    images = _images(world, tmp_path)
    folder = tmp_path / "tools"
    first = Prewarm(lambda: Verifier(kb, tool_cache=folder), jobs_of(_asked(images))).start()
    assert first.join(JOIN_S) and first.failed == []
    holds = toolcache.holder(folder, kb.fingerprint(), "text")
    assert holds("plaque_fake")
    assert not holds("rocket")  # RECOG reads no text
    calls = count_tools(monkeypatch)
    again = Prewarm(
        lambda: Verifier(kb, tool_cache=folder), jobs_of(_asked(images)), stored=holds
    ).start()
    assert again.join(JOIN_S) and again.failed == [] and again.done == 3
    # every image's text, scene and faces came from the disk, and nothing needed the KB's own
    # tool work: a resumed run with every answer stored runs no tool at all
    assert calls == []


def test_the_runners_model_reusing_a_verifier_loads_no_tool_model(
    world: World, tmp_path: Path
) -> None:
    from forgebench.suites.mandela.verifier import faces, ocr

    config = ModelConfig(spec=f"builtin/verifier@{world.kb}")
    with toolcache.kept_in(tmp_path / "tools"):
        ready = model.create(config).verifier
        ocr.release()  # what the demo does once the prewarm has read every image
        faces.release()
        with model.reusing(ready):
            assert model.create(config).verifier is ready
        assert ocr._engine is None and faces._engine is None  # its answers read its results
        assert model.create(config).verifier is not ready  # a new one checks its tools
    assert ocr._engine is not None and faces._engine is not None
