"""The checks every specification goes through before its benchmark's rule, and the dispatch to
that rule by the specification's ``suite``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forgebench.construct.facts import Knowledge
from support.seed_folder import check_spec, k1_fields, pixar_fields


def test_unknown_seed_region_outside_and_missing_mask(know: Knowledge, seed_dir: Path) -> None:
    assert (
        check_spec(know, **k1_fields("George Orwell", seed_id="nope")).verification.rule
        == "unknown_seed"
    )
    out = check_spec(know, seed_dir, **k1_fields("George Orwell", region=[500, 10, 600, 80]))
    assert out.verification.rule == "region_outside_image"
    assert "512x512" in out.verification.reason
    nomask = check_spec(know, seed_dir, **k1_fields("George Orwell", mask="images/none.png"))
    assert nomask.verification.rule == "mask_missing"
    assert check_spec(know, seed_dir, **k1_fields("George Orwell")).verification.accepted


def test_a_specification_of_no_buildable_benchmark_is_rejected_by_name(know: Knowledge) -> None:
    v = check_spec(know, suite="forensics", family="K2")
    assert not v.verification.accepted and v.verification.rule == "unknown_benchmark"
    assert "no benchmark 'forensics' builds from specifications; known: mandela, pixar" in (
        v.verification.reason
    )


def test_a_spec_file_is_checked_by_its_benchmark_when_read(tmp_path: Path) -> None:
    from forgebench.construct.specs import SpecFileError, load_specs

    path = tmp_path / "specs.jsonl"
    good = {"id": "a", "seed_id": "street", "operation": "remove"} | pixar_fields(
        "object removal", "remove", orig="car"
    )
    bad = good | {"id": "b", "pixar": {"primitive": "teleportation"}}
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    with pytest.raises(SpecFileError, match=r"specs.jsonl:2: pixar\.primitive: "):
        load_specs(path)
    path.write_text(json.dumps(good | {"suite": "nope"}) + "\n")
    with pytest.raises(SpecFileError, match=r"specs.jsonl:1: suite: no benchmark 'nope'"):
        load_specs(path)
    path.write_text(json.dumps(good) + "\n")
    [spec] = load_specs(path)
    assert spec.suite == "pixar" and spec.pixar == {"primitive": "object removal", "orig": "car"}
