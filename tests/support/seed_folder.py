"""A small seed folder (scene records, fact table, real images) and a fake image editor for the
construction tests (imported by their conftest files)."""

from __future__ import annotations

import functools
import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import skimage.data
from PIL import Image

SCENES: list[dict[str, Any]] = [
    {
        "id": "final86",
        "image": "images/final86.png",
        "domain": "A3",
        "noun": "photograph",
        "event": {
            "label": "1986 World Cup final",
            "date": "1986-06-29",
            "place": "Estadio Azteca, Mexico City",
        },
        "people": [
            {"name": "Diego Maradona", "entity": "Q-maradona", "box": [180, 40, 300, 200]},
            {"name": "photographer", "box": [20, 300, 90, 420], "principal": False},
        ],
        "objects": [
            {"name": "trophy", "box": [330, 60, 400, 160], "attributes": {"colour": "gold"}},
            {"name": "shirt", "box": [190, 200, 300, 330], "attributes": {"colour": "blue"}},
            {"name": "floodlight", "box": [420, 10, 500, 60]},
        ],
        "text": [{"text": "MEXICO", "box": [10, 460, 200, 505]}],
        "slots": [
            {
                "box": [10, 20, 90, 160],
                "kind": "person",
                "saliency": "C2",
                "role": "at the left edge",
            },
            {
                "box": [420, 380, 500, 460],
                "kind": "object",
                "saliency": "C3",
                "role": "lower right",
            },
            {
                "box": [400, 180, 510, 300],
                "kind": "scenery",
                "saliency": "C3",
                "role": "on the skyline",
            },
        ],
    },
    {
        "id": "supper",
        "image": "images/supper.png",
        "domain": "A4",
        "noun": "painting",
        "event": {"label": "The Last Supper", "date": "1498", "place": "Milan"},
        "objects": [{"name": "table", "box": [20, 300, 480, 400]}, {"name": "bread"}],
        "people": [{"name": "Christ", "box": [220, 100, 290, 250]}],
    },
    {
        "id": "street",
        "image": "images/final86.png",
        "event": {"label": "A street scene", "date": "2001"},
        "objects": [
            {"name": "car", "box": [50, 50, 200, 150]},
            {"name": "dog", "box": [300, 300, 400, 400]},
        ],
    },
]

FACTS: list[dict[str, Any]] = [
    {
        "id": "Q-orwell",
        "name": "George Orwell",
        "kind": "person",
        "born": "1903-06-25",
        "died": "1950-01-21",
    },
    {"id": "Q-messi", "name": "Lionel Messi", "kind": "person", "born": "1987-06-24"},
    {
        "id": "Q-pele",
        "name": "Pelé",
        "kind": "person",
        "born": "1940-10-23",
        "died": "2022-12-29",
        "places": [{"place": "New York", "from": "1986-06-01", "to": "1986-07-31"}],
    },
    {"id": "Q-vague", "name": "Vague Person", "kind": "person", "died": "1986"},
    {
        "id": "Q-maradona",
        "name": "Diego Maradona",
        "aliases": ["Maradona"],
        "kind": "person",
        "born": "1960-10-30",
        "died": "2020-11-25",
    },
    {
        "id": "Q-phone",
        "name": "smartphone",
        "aliases": ["iPhone"],
        "kind": "object",
        "introduced": "2007",
    },
    {"id": "Q-tv", "name": "television", "kind": "object", "introduced": "1927"},
    {"id": "Q-lamp", "name": "oil lamp", "kind": "object"},
    {"id": "Q-eiffel", "name": "Eiffel Tower", "kind": "place", "places": [{"place": "Paris"}]},
    {
        "id": "Q-azteca",
        "name": "Azteca tower",
        "kind": "place",
        "places": [{"place": "Mexico City"}],
    },
    {"id": "Q-mexico", "name": "Mexico", "kind": "host"},
    {"id": "Q-italy", "name": "Italy", "kind": "host"},
]


def _write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


@functools.cache
def _seed_pngs() -> dict[str, bytes]:
    """The seed folder's PNG files, encoded once per process: encoding them was nearly all of a
    seed folder's cost (0.19 CPU seconds), and some eighty tests make one."""
    mask = np.zeros((512, 512), np.uint8)
    mask[50:150, 50:200] = 255
    pictures = {
        "final86.png": Image.fromarray(skimage.data.astronaut()),
        "supper.png": Image.fromarray(skimage.data.chelsea()[:512, :512]).resize((512, 512)),
        "car_mask.png": Image.fromarray(mask),
    }
    out = {}
    for name, picture in pictures.items():
        buf = io.BytesIO()
        picture.save(buf, format="PNG")
        out[name] = buf.getvalue()
    return out


@pytest.fixture
def seed_dir(tmp_path: Path) -> Path:
    """A seed folder: scenes.jsonl, kb.jsonl, two real 512x512 images and a mask."""
    root = tmp_path / "seeds"
    (root / "images").mkdir(parents=True)
    for name, data in _seed_pngs().items():
        (root / "images" / name).write_bytes(data)
    _write_jsonl(root / "scenes.jsonl", SCENES)
    _write_jsonl(root / "kb.jsonl", FACTS)
    return root


FAKE_IMAGES_SCRIPT = Path(__file__).parent.parent / "support" / "fake_images.py"


def _fake_images_module() -> Any:
    from support.modules import file_module

    return file_module("forgebench_tests_fake_images", FAKE_IMAGES_SCRIPT)


@pytest.fixture
def fake_images() -> Iterator[Callable[..., Any]]:
    """Factory: ``fake_images(faults=[500], latency_s=0)`` starts a loopback image-edit server
    (tests/support/fake_images.py) on a thread; stopped at teardown."""
    servers: list[Any] = []

    def start(**kw: Any) -> Any:
        s = _fake_images_module().FakeImages(**kw).start()
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.stop()


@pytest.fixture
def know(seed_dir: Path) -> Any:
    """The seed folder's scene records and facts (what a specification is verified against)."""
    from forgebench.construct.facts import Knowledge
    from forgebench.construct.scenes import load_facts, load_scenes

    return Knowledge.of(load_scenes(seed_dir), load_facts(seed_dir))


def check_spec(know: Any, root: Path | None = None, **kw: Any) -> Any:
    """Verify one insertion into seed ``final86`` with the fields ``kw``."""
    from forgebench.construct.specs import EditSpec
    from forgebench.construct.verify import verify_spec

    base: dict[str, Any] = {"id": "s1", "seed_id": "final86", "operation": "insert"}
    return verify_spec(EditSpec.model_validate(base | kw), know, root)


def k1_fields(name: str, **kw: Any) -> dict[str, Any]:
    """The fields of a date-impossible K1 insertion of ``name``."""
    return {
        "family": "K1",
        "k1_type": "date_impossible",
        "region": [10, 20, 90, 160],
        "entity": {"name": name},
    } | kw


def pixar_fields(primitive: str, op: str, **kw: Any) -> dict[str, Any]:
    """The fields of a PIXAR edit of seed ``street``: ``op`` of the paper's ``primitive`` with the
    PIXAR block's ``kw`` (``orig``, ``repl``, ...)."""
    return {
        "suite": "pixar",
        "seed_id": "street",
        "operation": op,
        "pixar": {"primitive": primitive, **kw},
    }


@pytest.fixture(autouse=True)
def constructions_received() -> None:
    """construct/ receives each benchmark's construction parts from the suites (the API and the
    command line load them before a construction verb): these tests call construct/ directly, so
    they load the suites as those do, whichever test ran before on the worker."""
    from forgebench import suites

    suites.load()
