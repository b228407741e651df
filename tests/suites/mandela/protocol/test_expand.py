"""Expanding a dataset into questions and tasks with stable keys (DESIGN.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from forgebench.models.spec import ModelConfig
from forgebench.run.images import VariantCache
from forgebench.run.tasks import Question, make_task
from forgebench.suites.mandela.contract import Dataset
from forgebench.suites.mandela.expand import expand, matrix_counts, select_pairs
from forgebench.suites.mandela.protocol_table import pairs


def _q(qs: list[Question], item: str, probe: str, condition: str) -> list[Question]:
    return [q for q in qs if (q.item_id, q.probe, q.condition) == (item, probe, condition)]


def _files(path: Path) -> list[Path]:
    """The cache's entries (its ``.forgebench`` marker is none)."""
    found = path.rglob("*") if path.exists() else []
    return [p for p in found if p.is_file() and p.name != ".forgebench"]


def test_counts_per_pair_follow_the_table(dataset: Dataset, tmp_path: Path) -> None:
    qs = expand(dataset, cache=VariantCache(tmp_path / "c"), render_images=False)
    counts = matrix_counts(qs)
    assert counts[("L0", "full")] == 10
    assert counts[("L1", "crop")] == 5
    assert counts[("L1", "full_wrong_caption")] == 2
    assert counts[("FACE", "face_original")] == 2  # erased name + the wrong-name control
    assert counts[("FACE", "face_replacement")] == 1
    assert counts[("EVENT", "none")] == 4
    assert list(counts) == [pc for pc in pairs() if pc in counts]  # table order
    assert sum(counts.values()) == len(qs) == 69


def test_flags_only_narrow_the_table(dataset: Dataset, tmp_path: Path) -> None:
    cache = VariantCache(tmp_path / "c")
    every = {(q.item_id, q.probe, q.condition, q.prompt) for q in expand(dataset, cache=cache)}
    some = expand(dataset, ["L0", "L1", "L-adv"], ["full", "crop_caption", "face_original"], cache)
    assert {(q.probe, q.condition) for q in some} == {
        ("L0", "full"),
        ("L1", "full"),
        ("L1", "crop_caption"),
        ("L-adv", "full"),
    }
    assert {(q.item_id, q.probe, q.condition, q.prompt) for q in some} <= every
    assert expand(dataset, ["L0"], ["crop", "mirror"], cache) == []
    assert select_pairs(["L0"], ["crop"]) == []
    assert select_pairs(["TEXT"]) == [("TEXT", "none")]
    with pytest.raises(ValueError, match="unknown probe 'L9'"):
        select_pairs(["L9"])
    with pytest.raises(ValueError, match="unknown condition 'blur'"):
        select_pairs(None, ["blur"])


def test_prompts_per_condition(dataset: Dataset, tmp_path: Path) -> None:
    qs = expand(dataset, cache=VariantCache(tmp_path / "c"), render_images=False)
    (full,) = _q(qs, "s1-k1", "L1", "full")
    (cap,) = _q(qs, "s1-k1", "L1", "full_caption")
    (ccap,) = _q(qs, "s1-k1", "L1", "crop_caption")
    (wrong,) = _q(qs, "s1-k1", "L1", "full_wrong_caption")
    caption = (
        "Context: this is a crop from a photograph of 1986 World Cup final: Maradona lifts "
        "the trophy, from 1986-06-29.\n"
    )
    assert cap.prompt == caption + full.prompt == ccap.prompt
    assert wrong.prompt == (
        "Context: this is a crop from a photograph of 1982 World Cup final, from 1982-07-11.\n"
        + full.prompt
    )
    assert cap.prompt_version.endswith("+cap-v1") and wrong.prompt_version.endswith("+wcap-v1")
    assert cap.image == full.image == wrong.image  # caption conditions share the image
    assert ccap.image == _q(qs, "s1-k1", "L1", "crop")[0].image != full.image
    (text,) = _q(qs, "s1-k1", "TEXT", "none")
    assert text.image is None
    assert text.prompt.startswith(
        "Could George Orwell have been present at 1986 World Cup final: Maradona lifts the "
        "trophy on 1986-06-29?"
    )
    faces = _q(qs, "s3-erase", "FACE", "face_original")
    assert [q.prompt for q in faces] == ["Is this Winston Churchill?", "Is this Clement Attlee?"]
    assert [q.extra["name_source"] for q in faces] == ["erased", "wrong_name"]
    (rep,) = _q(qs, "s3-erase", "FACE", "face_replacement")
    assert rep.prompt == "Is this Winston Churchill?" and rep.image != faces[0].image
    (event,) = _q(qs, "s4-k1", "EVENT", "none")
    assert event.prompt.startswith(
        "Do you have knowledge of this event: \u2019A 1960 concert\u2019 (1960-01-01)?"
    )
    (l0,) = _q(qs, "s4-k1", "L0", "full")
    assert l0.prompt.startswith("Is this painting real or fake?")


def test_dry_run_writes_nothing_and_gives_the_same_ids(dataset: Dataset, tmp_path: Path) -> None:
    cache = VariantCache(tmp_path / "c")
    dry = expand(dataset, cache=cache, render_images=False)
    assert _files(tmp_path / "c") == []
    real = expand(dataset, cache=cache)
    assert dry == real
    stored = _files(tmp_path / "c")
    derived = {q.image.variant_id for q in real if q.image and q.condition not in ("full",)}
    derived -= {q.image.variant_id for q in real if q.condition == "full" and q.image}
    assert len(stored) == len(derived) > 0
    for q in real:
        if q.image is not None:
            assert q.image.path.is_file()
            if q.condition in ("full", "full_caption", "full_wrong_caption"):
                assert q.image.path == dataset.image_path(dataset.get(q.item_id))


def test_order_is_deterministic(dataset: Dataset, tmp_path: Path) -> None:
    a = expand(dataset, cache=VariantCache(tmp_path / "a"), render_images=False)
    b = expand(dataset, cache=VariantCache(tmp_path / "a"), render_images=False)
    assert a == b
    items = [q.item_id for q in a]
    order = [it.id for it in dataset.items]
    assert items == sorted(items, key=order.index)


def _keys(ds: Dataset, cache_dir: Path, params: dict[str, Any] | None = None) -> dict[tuple, str]:
    qs = expand(ds, cache=VariantCache(cache_dir), render_images=False)
    out = {}
    for q in qs:
        t = make_task(q, "m", params or {"temperature": 0.0})
        out[(q.item_id, q.probe, q.condition, q.extra.get("name_source"))] = t.key
    return out


_SUBPROCESS = """
import json, sys
from forgebench.suites.mandela.contract import load_dataset
from forgebench.suites.mandela.expand import expand
from forgebench.run.tasks import make_task
from forgebench.run.images import VariantCache
qs = expand(load_dataset(sys.argv[1]), cache=VariantCache(sys.argv[2]), render_images=False)
print(json.dumps([make_task(q, "m", {"temperature": 0.0}).key for q in qs]))
"""


def test_task_keys_are_stable_across_processes(dataset: Dataset, tmp_path: Path) -> None:
    here = list(_keys(dataset, tmp_path / "c").values())
    out = subprocess.run(
        [sys.executable, "-c", _SUBPROCESS, str(dataset.root), str(tmp_path / "c2")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(out.stdout) == here
    assert len(set(here)) == len(here)


def test_fixing_an_event_label_re_asks_exactly_the_affected_tasks(
    make_dataset: Callable[..., Dataset], base_items: list[dict[str, Any]], tmp_path: Path
) -> None:
    before = _keys(make_dataset(base_items, name="a"), tmp_path / "c")
    for it in base_items:
        if it["event"]["label"] == "Apollo 11 lunar landing":
            it["event"] = {**it["event"], "label": "Apollo 11 Moon landing"}
    after = _keys(make_dataset(base_items, name="b"), tmp_path / "c")
    assert before.keys() == after.keys()
    changed = {k for k in before if before[k] != after[k]}
    # only the event's prompts mention the label: EVENT (its representative is s2-auth)
    assert changed == {("s2-auth", "EVENT", "none", None)}


def test_fixing_a_caption_event_changes_caption_tasks_only(
    make_dataset: Callable[..., Dataset], base_items: list[dict[str, Any]], tmp_path: Path
) -> None:
    before = _keys(make_dataset(base_items, name="a"), tmp_path / "c")
    for it in base_items:
        if it["event"]["date"] == "1986-06-29":
            it["event"] = {**it["event"], "date": "1986-06-30"}
    after = _keys(make_dataset(base_items, name="b"), tmp_path / "c")
    changed = {k for k in before if before[k] != after[k]}
    assert changed == {
        ("s1-auth", "L1", "full_caption", None),
        ("s1-auth", "L1", "crop_caption", None),
        ("s1-auth", "EVENT", "none", None),
        ("s1-k1", "L1", "full_caption", None),
        ("s1-k1", "L1", "crop_caption", None),
        ("s1-k1", "TEXT", "none", None),
    }


def test_model_params_and_images_enter_the_key(
    dataset: Dataset, make_dataset: Callable[..., Dataset], tmp_path: Path
) -> None:
    base = _keys(dataset, tmp_path / "c")
    hot = _keys(dataset, tmp_path / "c", {"temperature": 0.7})
    assert all(base[k] != hot[k] for k in base)
    cfg = ModelConfig(spec="openai/x", max_tokens=256)
    capped = _keys(dataset, tmp_path / "c", cfg.generation_params())
    assert all(base[k] != capped[k] for k in base)
    path = dataset.image_path(dataset.get("s2-k2"))
    path.write_bytes(path.read_bytes() + b"\0")  # new bytes: new variant ids for this image
    after = _keys(dataset, tmp_path / "c")
    changed = {k for k in base if base[k] != after[k]}
    assert changed and all(k[0] == "s2-k2" and k[2] != "none" for k in changed)


def test_table12_is_an_opt_in_part(dataset: Dataset, tmp_path: Path) -> None:
    cache = VariantCache(tmp_path / "c")
    base = expand(dataset, cache=cache, render_images=False)
    more = expand(dataset, cache=cache, render_images=False, parts=["table12"])
    added = {(q.item_id, q.condition) for q in more} - {(q.item_id, q.condition) for q in base}
    # peripheral forgeries of every family: s1-k1 (K1) is already asked by the default rows,
    # and L1/crop already runs on every peripheral forgery with a crop (Table 19)
    assert added == {
        ("s2-k2", "full_caption"), ("s2-k2", "crop_caption"),
        ("s1-k0", "full_caption"), ("s1-k0", "crop_caption"),
    }  # fmt: skip
    assert len(more) == len(base) + 4 == 73
    assert all(q.probe == "L1" for q in more if (q.item_id, q.condition) in added)
    with pytest.raises(ValueError, match="unknown protocol part"):
        expand(dataset, cache=cache, render_images=False, parts=["table99"])
