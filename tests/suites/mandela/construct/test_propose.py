"""Specification files, dates, the rules proposer and K0 controls."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forgebench.construct.facts import Knowledge
from forgebench.construct.scenes import load_facts, load_scenes
from forgebench.construct.specs import SpecFileError, load_specs, propose_from_file
from forgebench.construct.verify import verify_specs
from forgebench.suites.mandela.construct.controls import control_for
from forgebench.suites.mandela.construct.dates import DateError, interval, surely_before
from forgebench.suites.mandela.construct.propose import propose_rules


@pytest.fixture
def know(seed_dir: Path) -> Knowledge:
    return Knowledge.of(load_scenes(seed_dir), load_facts(seed_dir))


def test_partial_dates_compare_as_intervals() -> None:
    assert interval("1986-02")[1].day == 28
    assert surely_before("1950", "1986-06-29")
    assert not surely_before("1986", "1986-06-29")
    assert not surely_before("c. 1998", "1999")  # c. widens the year
    with pytest.raises(DateError, match="not a calendar date"):
        interval("1986-02-30")
    with pytest.raises(DateError, match="not a date"):
        interval("June 1986")


def test_spec_file_errors_name_the_line_and_field(tmp_path: Path) -> None:
    f = tmp_path / "specs.jsonl"
    f.write_text('{"id": "a", "seed_id": "s", "operation": "insert"}\n{"id": "b"', encoding="utf-8")
    with pytest.raises(SpecFileError, match=r"specs.jsonl:2: not JSON"):
        load_specs(f)
    f.write_text('{"id": "a", "seed_id": "s", "operation": "paint"}\n', encoding="utf-8")
    with pytest.raises(SpecFileError, match=r"specs.jsonl:1: operation: "):
        load_specs(f)
    f.write_text('{"id": "a", "seed_id": "s", "operation": "insert", "region": [5, 5, 2, 9]}\n')
    with pytest.raises(SpecFileError, match=r":1: region: .*x0 < x1"):
        load_specs(f)
    row = '{"id": "a", "seed_id": "s", "operation": "insert"}\n'
    f.write_text(row + row, encoding="utf-8")
    with pytest.raises(SpecFileError, match=r":2: id: duplicate specification id 'a'"):
        load_specs(f)
    with pytest.raises(SpecFileError, match="cannot read"):
        load_specs(tmp_path / "missing.jsonl")


def test_rules_proposer_proposes_what_the_facts_support(know: Knowledge, seed_dir: Path) -> None:
    specs = propose_rules(know)
    by_fam = {(s.seed_id, s.family, s.k1_type): s for s in specs}
    k1 = by_fam[("final86", "K1", "date_impossible")]
    # the first person of the fact table who was not alive (Orwell), never Pelé (alive)
    assert k1.entity and k1.entity.name == "George Orwell" and k1.region == [10, 20, 90, 160]
    assert all(not (s.entity and s.entity.name == "Pelé") for s in specs)
    assert by_fam[("final86", "K2", None)].entity.name == "smartphone"  # type: ignore[union-attr]
    assert by_fam[("final86", "K3", None)].entity.name == "Eiffel Tower"  # type: ignore[union-attr]
    k4 = by_fam[("final86", "K4", None)]
    assert (k4.target, k4.text) == ("MEXICO", "ITALY")
    k5 = by_fam[("final86", "K5", None)]
    assert k5.attribute and k5.attribute.value == "red" and k5.params["hue"] == 0.0
    erase = by_fam[("final86", "K1", "absent_celebrity")]
    assert erase.target == "Diego Maradona" and erase.variant == "erase"
    assert all(s.contradiction is None and s.proposer == "rules" for s in specs)
    accepted, rejected = verify_specs(specs, know, seed_dir)
    assert rejected == [], [r.verification for r in rejected]
    assert {a.spec.family for a in accepted} == {"K1", "K2", "K3", "K4", "K5"}


def test_k0_controls_are_generated_for_the_same_seeds_and_verified(know: Knowledge) -> None:
    specs = propose_rules(know)
    controls = [c for s in specs if (c := control_for(s)) is not None]
    assert len(controls) == len(specs)
    for s, c in zip(specs, controls, strict=True):
        assert (c.seed_id, c.region, c.family, c.control_for) == (
            s.seed_id,
            s.region,
            "K0",
            s.family,
        )
        assert c.entity is not None and c.entity.id is None and c.contradiction is None
    k1c = next(c for c in controls if c.control_for == "K1" and c.variant is None)
    assert k1c.instruction.startswith("Add an unnamed person at the left edge")
    accepted, rejected = verify_specs(controls, know)
    # the erasure's default control would paste over Maradona's own face: rejected, with reason
    assert [r.verification.rule for r in rejected] == ["second_contradiction"]
    assert rejected[0].spec.variant == "k0"
    assert len(accepted) == len(controls) - 1
    # naming an unrecorded person to swap makes the triple's k0 member (Table 1: "unnamed person
    # swapped")
    erase = next(s for s in specs if s.variant == "erase")
    erase.params["control"] = {"target": "photographer", "name": "unnamed photographer"}
    c = control_for(erase)
    assert c is not None and (c.operation, c.target, c.variant) == ("replace", "photographer", "k0")
    c = c.model_copy(update={"region": [20, 300, 90, 420]})
    assert verify_specs([c], know)[0]


def test_proposals_from_a_file_are_tagged(tmp_path: Path, know: Knowledge) -> None:
    f = tmp_path / "model_answers.jsonl"
    rows = [
        {
            "id": "p1",
            "seed_id": "final86",
            "operation": "insert",
            "family": "K2",
            "entity": {"name": "iPhone"},
        },
        {
            "id": "p2",
            "seed_id": "final86",
            "operation": "insert",
            "family": "K2",
            "entity": {"name": "television"},
            "proposer": "openai/x",
        },
    ]
    f.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    specs = propose_from_file(f)
    assert [s.proposer for s in specs] == ["file/model_answers.jsonl", "openai/x"]
    acc, rej = verify_specs(specs, know)
    assert [a.spec.id for a in acc] == ["p1"] and rej[
        0
    ].verification.rule == "k2_introduced_before_event"
