"""Forensics perturbations (``--protocol robustness``) rendered by ``--executor ray`` (a local Ray
with 2 CPUs) are byte for byte those of the local executor, with the same tasks."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.suites.forensics.tsv_import import import_release_tsv


@pytest.mark.slow
def test_robustness_variants_on_ray_equal_local(
    local_ray: Any, release_tsv: Path, tmp_path: Path
) -> None:
    ds = tmp_path / "ds"
    import_release_tsv(release_tsv, ds)
    keys, caches = {}, {}
    for name in ("local", "ray"):
        run, cache = tmp_path / f"RUN-{name}", tmp_path / f"cache-{name}"
        res = CliRunner().invoke(
            app,
            ["run", str(ds), "--model", "m=openai/x@http://127.0.0.1:9/v1", "--out", str(run),
             "--cache-dir", str(cache), "--protocol", "robustness", "--prepare",
             "--executor", name],
        )  # fmt: skip
        assert res.exit_code == 0, res.stderr
        with sqlite3.connect(run / "run.sqlite") as con:
            keys[name] = sorted(con.execute("SELECT key, condition, variant_id FROM tasks"))
        caches[name] = {
            str(p.relative_to(cache)): p.read_bytes()
            for p in sorted(cache.rglob("*"))
            if p.is_file() and p.suffix == ".png"
        }
    assert keys["ray"] == keys["local"]
    assert len({c for _, c, _ in keys["local"]}) > 3  # several perturbations were asked
    assert len(caches["local"]) > 10 and caches["ray"] == caches["local"]


def test_prerender_finds_every_perturbed_variant(release_tsv: Path, tmp_path: Path) -> None:
    from forgebench import suites
    from forgebench.run.executor import LocalExecutor
    from forgebench.run.images import VariantCache
    from forgebench.run.prerender import prerender
    from forgebench.run.source import Selection

    class Counting(LocalExecutor):
        jobs = 0

        def map(self, fn, jobs, *, batch_size=8):  # type: ignore[no-untyped-def]
            Counting.jobs += len(jobs)
            return super().map(fn, jobs, batch_size=batch_size)

    ds = tmp_path / "ds"
    import_release_tsv(release_tsv, ds)
    suite = suites.get("forensics")
    selection = Selection(parts=("robustness",))
    loaded = suite.load(ds, selection)
    cache = VariantCache(tmp_path / "cache")
    rendered = prerender(suite, loaded, selection, cache, Counting())
    assert rendered == Counting.jobs > 10 and cache.renders == rendered
    again = VariantCache(tmp_path / "cache")
    list(suite.questions(loaded, selection, again))
    assert again.renders == 0  # expansion found every variant already rendered
    assert prerender(suite, loaded, selection, again, Counting()) == 0
