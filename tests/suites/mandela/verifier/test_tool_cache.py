"""The verifier's tool results kept on disk: a second verifier over the same images answers the
same without running a tool; another KB, or a file whose result was changed, is computed
afresh."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from forgebench.suites.mandela.prompts import probe as probe_text
from forgebench.suites.mandela.verifier import model, toolcache
from forgebench.suites.mandela.verifier.kb import load_kb
from forgebench.suites.mandela.verifier.model import Verifier

from .conftest import World, count_tools

L0 = probe_text("L0").template.format(noun="photograph")


def _answers(v: Verifier, world: World) -> list[str]:
    return [
        v.answer("L0", L0, world.plaque_fake, "plaque-fake"),
        v.answer("L0", L0, world.rocket_hopper, "rocket-hopper"),
        v.answer("RECOG", "", world.rocket, "rocket"),
    ]


def test_a_second_verifier_reads_every_tool_result_from_disk(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kb = load_kb(world.kb)
    calls = count_tools(monkeypatch)
    first = Verifier(kb, tool_cache=tmp_path)
    answers = _answers(first, world)
    assert sorted(set(calls)) == ["faces", "gallery", "index", "scene", "text"]
    # the KB's own work (its portraits embedded, its scenes' features) is not kept on disk: only
    # the results of the images asked about
    tools = [c for c in calls if c not in ("gallery", "index")]
    assert first.disk is not None and first.disk.writes == len(tools)
    again = Verifier(kb, tool_cache=tmp_path)
    calls.clear()
    assert _answers(again, world) == answers
    assert calls == ["gallery"]  # no tool ran on an image, nor SIFT on the KB's scenes
    assert again.disk is not None and again.disk.hits == first.disk.writes
    hopper = again.observe(world.rocket_hopper, "rocket-hopper", text=True, people=True)
    fresh = Verifier(kb).observe(world.rocket_hopper, "x", text=True, people=True)
    assert [f.face.vector.tobytes() for f in hopper.faces] == [
        f.face.vector.tobytes() for f in fresh.faces
    ]  # bit-identical embeddings
    assert hopper.scene is not None and fresh.scene is not None
    assert np.array_equal(hopper.scene.to_query, fresh.scene.to_query)  # type: ignore[arg-type]


def test_another_kb_or_a_changed_file_is_computed_again(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kb = load_kb(world.kb)
    first = Verifier(kb, tool_cache=tmp_path)
    answer = first.answer("L0", L0, world.plaque_fake, "plaque-fake")
    assert first.disk is not None
    other = toolcache.ToolCache(tmp_path, "another kb", first.scenes)
    assert other.get("plaque-fake", "text") is toolcache.MISS
    stored = first.disk._path("plaque-fake", "text")
    entry = json.loads(stored.read_text(encoding="utf-8"))
    entry["value"] = "[]"  # an edited result (no text read) fails its checksum: never used
    stored.write_text(json.dumps(entry), encoding="utf-8")
    calls = count_tools(monkeypatch)
    again = Verifier(kb, tool_cache=tmp_path)
    calls.clear()
    assert again.answer("L0", L0, world.plaque_fake, "plaque-fake") == answer
    # the scene and faces were read, the broken text file recomputed (and the portraits
    # embedded for the answer's faces)
    assert sorted(calls) == ["gallery", "text"]
    assert again.disk is not None and again.disk.get("plaque-fake", "text") is not toolcache.MISS


def test_models_created_inside_kept_in_keep_their_results_there(
    world: World, tmp_path: Path
) -> None:
    from forgebench.models.spec import ModelConfig

    config = ModelConfig(spec=f"builtin/verifier@{world.kb}")
    with toolcache.kept_in(tmp_path / "tools"):
        kept = model.create(config)
    assert kept.verifier.disk is not None
    assert kept.verifier.disk.dir.parent == tmp_path / "tools"
    assert model.create(config).verifier.disk is None
