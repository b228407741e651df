"""Answers that carry files (an edited image): bytes stored once by content hash, the store names
them; a price per image counts toward --max-cost."""

from __future__ import annotations

import hashlib
import io
import sqlite3
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from forgebench.models.base import OutputFile, Request, Response, Usage
from forgebench.models.registry import register_provider
from forgebench.models.spec import ModelConfig
from forgebench.run.blobs import BlobStore, blob_dir
from forgebench.run.generate import GenerationSettings, run_generation
from support.text_source import TextSource


def _png(seed: int) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), (seed % 256, 10, 20)).save(buf, format="PNG")
    return buf.getvalue()


class Painter:
    """Returns one image per request: the same picture for the same prompt."""

    def __init__(self, config: ModelConfig) -> None:
        self.name = config.name
        self.calls = 0

    async def generate(self, request: Request) -> Response:
        self.calls += 1
        n = int(request.prompt.split()[-1])
        return Response(text="edited", usage=Usage(None, None),
                        outputs=[OutputFile("image_0", _png(n % 2), "image/png")])  # fmt: skip

    async def aclose(self) -> None:
        return None


@pytest.fixture(autouse=True)
def painter() -> Iterator[None]:
    module = types.ModuleType("forgebench_tests_painter")
    module.create = Painter  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module
    register_provider("builtin/painter", module.__name__)
    yield
    del sys.modules[module.__name__]


def test_output_files_are_stored_once_by_hash_and_named_by_the_store(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    settings = GenerationSettings(cache_dir=cache)
    res = run_generation(
        _edits(4), tmp_path, tmp_path / "run", [ModelConfig(spec="builtin/painter")], settings
    )
    assert res.remaining == 0
    with sqlite3.connect(tmp_path / "run" / "run.sqlite") as con:
        rows = con.execute("SELECT name, sha256, media_type, size FROM outputs").fetchall()
    assert len(rows) == 4 and {r[0] for r in rows} == {"image_0"}
    digests = {r[1] for r in rows}
    assert digests == {hashlib.sha256(_png(0)).hexdigest(), hashlib.sha256(_png(1)).hexdigest()}
    store = BlobStore(blob_dir(cache))
    assert store.dir == tmp_path / "cache-blobs"  # beside the variant cache, never inside it
    for d in digests:
        assert hashlib.sha256(store.path(d, "image/png").read_bytes()).hexdigest() == d
    assert len(list(store.dir.rglob("*.png"))) == 2


def test_a_price_per_image_stops_the_run_at_max_cost(tmp_path: Path) -> None:
    config = ModelConfig(spec="builtin/painter", price_image=0.04, concurrency=1)
    settings = GenerationSettings(cache_dir=tmp_path / "cache", max_cost=0.10)
    res = run_generation(_edits(10), tmp_path, tmp_path / "run", [config], settings)
    assert res.budget_stopped
    assert res.spent_usd == pytest.approx(0.08)  # two images fit under 0.10, a third would not
    assert res.models[0].remaining == 8


def _edits(n: int) -> TextSource:
    return TextSource(n, name="edits", probe="EDIT", prompt="paint it, version {i}")
