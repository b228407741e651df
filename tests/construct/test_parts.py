"""The construction seam: a benchmark that lives only in this file proposes, verifies and builds
through ``forgebench propose`` / ``build`` with no file of ``construct/`` or ``_cli/`` changed."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest
from typer.testing import CliRunner

from forgebench import suites
from forgebench.cli import app
from forgebench.construct.assemble import Kept
from forgebench.construct.facts import Knowledge
from forgebench.construct.parts import Construction, Written
from forgebench.construct.scenes import SceneRecord
from forgebench.construct.specs import EditSpec
from forgebench.construct.verify import Decision, no, ok
from forgebench.suites.base import ConstructionParts, Facet, Suite


class ObjectCount(Construction):
    """Recolours the first recorded object of every scene; the assembly writes a count file."""

    name = "objcount"
    output = "objcount"
    noun = "recoloured scene(s)"

    def propose_rules(self, know: Knowledge, seed_root: Path, per_scene: int) -> list[EditSpec]:
        out = []
        for s in know.scenes.values():
            box = s.objects[0].box if s.objects and s.objects[0].box else [0, 0, 8, 8]
            row = {"id": f"{s.id}-oc", "seed_id": s.id, "suite": self.name, "region": box,
                   "operation": "recolour", "instruction": "Recolour it.", "params": {"hue": 120.0}}  # fmt: skip
            out.append(EditSpec.model_validate(row))
        return out

    def verify(self, spec: EditSpec, scene: SceneRecord, know: Knowledge) -> Decision:
        if len(scene.objects) < 3:
            return no("objcount_too_few", f"{scene.id} records {len(scene.objects)} objects")
        return ok("objcount_rich", f"{scene.id} records {len(scene.objects)} objects")

    def assemble(
        self, kept: list[Kept], know: Knowledge, seed_root: Path, root: Path, store: str
    ) -> Written:
        changed = {k.spec.id: int(np.count_nonzero(k.pixels)) for k in kept}
        (root / "counts.json").write_text(json.dumps(changed))
        return Written(root, len(kept), self.noun)


class ObjectCountSuite(Suite):
    name = "objcount"
    facets: ClassVar[Mapping[str, Facet]] = {"construction": ConstructionParts(ObjectCount())}

    def detect(self, path: Path) -> bool:
        return False


@pytest.fixture
def registered() -> Iterator[Suite]:
    suite = suites.register(ObjectCountSuite())
    yield suite
    suites.unregister(suite.name)


def test_a_benchmark_outside_the_package_proposes_verifies_and_builds(
    registered: Suite, seed_dir: Path, tmp_path: Path
) -> None:
    runner = CliRunner()
    r = runner.invoke(app, ["propose", str(seed_dir), "--rules", "--out", str(tmp_path / "p")])
    assert r.exit_code == 0, r.output
    kept = [json.loads(x) for x in (tmp_path / "p" / "specs.jsonl").read_text().splitlines()]
    ours = {s["id"]: s["verification"]["rule"] for s in kept if s["suite"] == "objcount"}
    assert ours == {"final86-oc": "objcount_rich"}
    rejected = [json.loads(x) for x in (tmp_path / "p" / "rejected.jsonl").read_text().splitlines()]
    assert {s["id"] for s in rejected if s["verification"]["rule"] == "objcount_too_few"} == {
        "supper-oc",
        "street-oc",
    }
    only = tmp_path / "only.jsonl"
    only.write_text("".join(json.dumps(s) + "\n" for s in kept if s["suite"] == "objcount"))
    r = runner.invoke(app, ["build", str(seed_dir), str(only), "--out", str(tmp_path / "b")])
    assert r.exit_code == 0, r.output
    assert "kept 1: 1 recoloured scene(s); dropped 0" in r.output
    counts = json.loads((tmp_path / "b" / "objcount" / "counts.json").read_text())
    assert set(counts) == {"final86-oc"} and counts["final86-oc"] > 0
    assert not (tmp_path / "b" / "dataset").exists()


def test_without_the_benchmark_its_specifications_are_refused(
    seed_dir: Path, tmp_path: Path
) -> None:
    spec = {"id": "x", "seed_id": "final86", "suite": "objcount", "operation": "recolour"}
    (tmp_path / "s.jsonl").write_text(json.dumps(spec) + "\n")
    r = CliRunner().invoke(
        app, ["build", str(seed_dir), str(tmp_path / "s.jsonl"), "--out", str(tmp_path / "b")]
    )
    assert r.exit_code == 2
    assert "s.jsonl:1: suite: no benchmark 'objcount' builds from specifications" in r.output
