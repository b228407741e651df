"""Images that fit each model (issue 41, item 2): limits in the models file, provider presets,
resized variants sent and recorded, tasks under the limits unchanged."""

from __future__ import annotations

import io
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.models import image_limits
from forgebench.models.image_limits import ImageLimits
from forgebench.models.modelsfile import parse_models_file
from forgebench.models.spec import ModelConfig, SpecError
from forgebench.run.fit import fit_bytes
from forgebench.run.generate import plan
from forgebench.run.source import Selection
from forgebench.run.store import Store

FLAGS = ["--probes", "L0,L1", "--conditions", "full", "--retry-base-delay", "0.01"]
SEL = Selection(probes=["L0", "L1"], conditions=["full"])


def _size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as im:
        return im.size


def _noise(w: int, h: int, fmt: str) -> bytes:
    arr = np.random.default_rng(7).integers(0, 256, size=(h, w, 3), dtype=np.uint8)
    buf = io.BytesIO()
    Image.fromarray(arr, "RGB").save(buf, format=fmt)
    return buf.getvalue()


def test_presets_resolve_and_name_their_source() -> None:
    for name, preset in image_limits.PRESETS.items():
        limits = ModelConfig(spec="openai/x", image_limits=name).limits()  # type: ignore[arg-type]
        assert limits == preset() and limits
        assert "https://" in (preset.__doc__ or ""), name
    assert image_limits.anthropic() == ImageLimits(1568, 1_150_000, 3_932_160)
    over = ModelConfig(spec="openai/x", image_limits="anthropic", max_side=800).limits()
    assert over == ImageLimits(800, 1_150_000, 3_932_160)
    assert ModelConfig(spec="openai/x").limits() is None  # nothing set: nothing resized


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ("max_side = 0", "max_side: must be between 16 and 1000000 px, not 0"),
        ("max_pixels = -4", "max_pixels: must be between"),
        ("max_image_bytes = 0", "max_image_bytes: must be between 1024"),
        ("max_side = 1e300", "max_side"),
        ('image_limits = "azure"', "image_limits"),
    ],
)
def test_bad_limits_are_refused_in_one_line(line: str, needle: str) -> None:
    raw = f'[[models]]\nspec = "openai/x"\n{line}\n'.encode()
    with pytest.raises(SpecError) as err:
        parse_models_file(raw, "m.toml")
    msg = str(err.value)
    assert msg.startswith("m.toml: models[0]: ") and needle in msg and "\n" not in msg


def test_bad_limit_on_the_command_line_exits_2_writing_nothing(
    make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    models = tmp_path / "models.toml"
    models.write_text('[[models]]\nspec = "openai/x@http://127.0.0.1:1/v1"\nmax_side = -1\n')
    run_dir = tmp_path / "RUN"
    args = ["run", str(make_dataset(1)), "--models-file", str(models), "--out", str(run_dir)]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 2 and "max_side" in res.stderr and str(models) in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and not run_dir.exists()


def test_fit_bytes_is_deterministic_and_within_every_limit() -> None:
    png = _noise(200, 150, "PNG")
    limits = ImageLimits(max_side=120, max_pixels=6000, max_image_bytes=9000)
    out = fit_bytes(png, limits, "image/png")
    assert out == fit_bytes(png, limits, "image/png")
    w, h = _size(out)
    assert max(w, h) <= 120 and w * h <= 6000 and len(out) <= 9000
    assert out.startswith(b"\x89PNG")
    jpg = fit_bytes(_noise(200, 150, "JPEG"), ImageLimits(max_side=64), "image/jpeg")
    assert jpg.startswith(b"\xff\xd8") and _size(jpg) == (64, 48)
    # Mandela's import normalisation (longest side 1280) under Anthropic's 1.15 megapixels
    flat = io.BytesIO()
    Image.new("RGB", (1280, 960), (90, 120, 30)).save(flat, format="JPEG", quality=92)
    fitted = fit_bytes(flat.getvalue(), image_limits.anthropic(), "image/jpeg")
    assert _size(fitted) == (1238, 928)


def test_a_task_within_the_limits_keeps_its_key_one_over_them_is_a_new_variant(
    make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    from forgebench.suites.mandela.suite import SUITE as MANDELA

    ds, cache = make_dataset(1), tmp_path / "cache"

    def keyed(**limits: Any) -> dict[tuple[str, str], Any]:
        config = ModelConfig(spec="m=openai/fake@http://127.0.0.1:1/v1", **limits)
        tasks = plan(MANDELA, ds, [config], SEL, cache_dir=cache).tasks["m"]
        return {(t.item_id, t.probe): t for t in tasks}

    plain, roomy, small = keyed(), keyed(max_side=64), keyed(max_side=16)
    assert {k: t.key for k, t in roomy.items()} == {k: t.key for k, t in plain.items()}
    assert all(not t.question.resized for t in roomy.values())
    for k, t in small.items():
        assert t.key != plain[k].key
        ref, before = t.question.image, plain[k].question.image
        assert ref is not None and before is not None and ref.variant_id != before.variant_id
        assert max(_size(ref.path.read_bytes())) <= 16
        (record,) = t.question.resized
        assert record["of"] == before.variant_id and record["from"][:2] == [32, 24]
        assert record["to"][:2] == [16, 12] and record["over"] == ["max_side"]
    again = keyed(max_side=16)  # content-addressed: the same variant, the same key
    assert {k: t.key for k, t in again.items()} == {k: t.key for k, t in small.items()}


def test_the_dry_run_counts_the_resized_tasks(
    make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    from forgebench.models.registry import create_model
    from forgebench.run.dryrun import preview
    from forgebench.suites.mandela.suite import SUITE as MANDELA

    configs = [
        ModelConfig(spec="s=openai/x@http://127.0.0.1:1/v1", image_limits="google", max_side=20),
        ModelConfig(spec="p=openai/y@http://127.0.0.1:1/v1"),
    ]
    the_plan = plan(MANDELA, make_dataset(1), configs, SEL, cache_dir=tmp_path / "c")
    models = {c.name: create_model(c) for c in configs}
    lines = [line for p in preview(the_plan, models, None) for line in p.lines()]
    assert (
        "  4 tasks sent resized images (image limits: max_side=20, max_image_bytes=15000000)"
        in lines
    )
    assert sum("resized" in line for line in lines) == 1


def test_a_run_sends_resized_images_within_the_limits_and_records_them(
    fake_openai: Any, make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    server = fake_openai(keep_images=True)
    models = tmp_path / "models.toml"
    models.write_text(
        f'[[models]]\nspec = "small=openai/fake-small@{server.url}"\nmax_side = 16\n'
        f'[[models]]\nspec = "tight=openai/fake-tight@{server.url}"\nmax_image_bytes = 1100\n'
        f'[[models]]\nspec = "plain=openai/fake-plain@{server.url}"\n',
        encoding="utf-8",
    )
    run_dir = tmp_path / "RUN"
    args = ["run", str(make_dataset(1)), "--models-file", str(models), "--out", str(run_dir)]
    res = CliRunner().invoke(app, [*args, "--cache-dir", str(tmp_path / "c"), *FLAGS])
    assert res.exit_code == 0, res.stderr
    sent: dict[str, list[bytes]] = {}
    for model, data in server.images:
        sent.setdefault(model, []).append(data)
    assert {m: len(v) for m, v in sent.items()} == {
        "fake-small": 4,
        "fake-tight": 4,
        "fake-plain": 4,
    }
    assert all(max(_size(d)) <= 16 for d in sent["fake-small"])
    assert all(len(d) <= 1100 for d in sent["fake-tight"])
    assert all(_size(d) == (32, 24) and len(d) > 1100 for d in sent["fake-plain"])
    with sqlite3.connect(run_dir / "run.sqlite") as con:
        rows = con.execute("SELECT model, resized FROM tasks").fetchall()
    by_model: dict[str, list[Any]] = {}
    for model, resized in rows:
        by_model.setdefault(model, []).append(json.loads(resized) if resized else None)
    assert by_model["plain"] == [None] * 4
    assert all(r and r[0]["over"] == ["max_side"] for r in by_model["small"])
    assert all(r and r[0]["to"][2] <= 1100 for r in by_model["tight"])
    line = "images resized to fit the model's image limits (tasks): small 4/4, tight 4/4"
    assert line in res.stderr


def test_a_schema_7_store_gains_the_resized_column(tmp_path: Path) -> None:
    run = tmp_path / "RUN"
    Store.open(run).close()
    with sqlite3.connect(run / "run.sqlite") as con:
        cols = [r[1] for r in con.execute("PRAGMA table_info(tasks)") if r[1] != "resized"]
        con.execute("DROP TABLE tasks")  # the tasks table of schema 7: no resized column
        con.execute(f"CREATE TABLE tasks ({', '.join(cols)})")
        con.execute("UPDATE meta SET value='7' WHERE key='schema_version'")
    with Store.open(run) as store:
        assert store.meta_get("schema_version") == 10
        cols = [r[1] for r in store.connection.execute("PRAGMA table_info(tasks)")]
    assert cols[-1] == "resized"


def test_a_multi_image_question_resizes_only_the_images_over_the_limits(tmp_path: Path) -> None:
    from forgebench.models.base import ImageRef
    from forgebench.run.fit import Fitter
    from forgebench.run.images import VariantCache
    from forgebench.run.tasks import Question, task_key

    refs = []
    for name, w in (("big", 40), ("small", 12)):
        path = tmp_path / f"{name}.png"
        path.write_bytes(_noise(w, 10, "PNG"))
        refs.append(ImageRef(f"v-{name}", path, "image/png"))
    q = Question("i1", "P", "full", "which?", "1", images=tuple(refs))
    configs = [ModelConfig(spec="a=openai/x", max_side=20), ModelConfig(spec="b=openai/y")]
    fitter = Fitter(VariantCache(tmp_path / "cache"), configs)
    fitted, untouched = fitter.fit(q, 0), fitter.fit(q, 1)
    assert untouched is q  # no limits: the very same question
    assert fitted.images[1] == refs[1] and fitted.images[0] != refs[0]
    assert fitted.image == fitted.images[0] and _size(fitted.images[0].path.read_bytes()) == (20, 5)
    assert [(r["image"], r["of"]) for r in fitted.resized] == [(0, "v-big")]
    assert task_key(fitted, "a", {}) != task_key(q, "a", {})


def test_repeats_of_a_resized_question_are_asked_with_the_resized_image(
    make_dataset: Callable[[int], Path], tmp_path: Path
) -> None:
    """``run --epochs 2`` for a model with image limits: the second epoch shows the same resized
    variant as the first, under a key of its own; epoch 1 keeps the key a one-epoch run gives."""
    from forgebench import api
    from forgebench.run.generate import GenerationSettings

    ds = make_dataset(1)
    config = ModelConfig(spec="m=openai/fake@http://127.0.0.1:1/v1", max_side=16)

    def stored(
        run: Path, epochs: int, model: ModelConfig = config
    ) -> list[tuple[str, str, int, str, str | None]]:
        settings = GenerationSettings(
            selection=SEL, prepare_only=True, epochs=epochs, cache_dir=tmp_path / "cache"
        )
        api.run(ds, run, [model], settings)
        with sqlite3.connect(run / "run.sqlite") as con:
            return con.execute(
                "SELECT item_id || '/' || probe, key, epoch, variant_id, resized FROM tasks"
            ).fetchall()

    once, twice = stored(tmp_path / "one", 1), stored(tmp_path / "two", 2)
    assert sorted(r[:4] for r in once) == sorted(r[:4] for r in twice if r[2] == 1)
    first = {r[0]: r for r in twice if r[2] == 1}
    second = [r for r in twice if r[2] == 2]
    assert len(second) == len(first) > 0
    for task, key, _e, variant, resized in second:
        assert key != first[task][1] and variant == first[task][3]
        assert resized is not None and json.loads(resized) == json.loads(first[task][4])
    # the key of a repeat hashes the image it shows: not the unresized question's repeat
    plain = ModelConfig(spec="m=openai/fake@http://127.0.0.1:1/v1")
    unresized = {r[1] for r in stored(tmp_path / "plain", 2, plain) if r[2] == 2}
    assert not unresized & {r[1] for r in second}
