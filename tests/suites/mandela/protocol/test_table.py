"""The protocol table: which items each probe runs on under each condition (seed 000)."""

from __future__ import annotations

from typing import Any

import pytest

from forgebench.suites.mandela.contract import Item
from forgebench.suites.mandela.ids import CONDITIONS, PROBES
from forgebench.suites.mandela.protocol_table import (
    RULES,
    Context,
    applies,
    pairs,
    population_items,
    population_of,
    populations,
    rules,
    source_of,
)


@pytest.fixture
def items(base_items: list[dict[str, Any]]) -> list[Item]:
    return [Item.model_validate(d) for d in base_items]


def _who(items: list[Item], probe: str, condition: str) -> list[str]:
    return population_items(items, probe, condition)


ALL = [
    "s1-auth", "s1-k1", "s1-k0", "s2-auth", "s2-k2", "s3-auth", "s3-erase", "s3-swap", "s3-k0",
    "s4-k1",
]  # fmt: skip

EXPECTED: dict[tuple[str, str], list[str]] = {
    ("L0", "full"): ALL,
    ("L1", "full"): ALL,
    # Table 3: peripheral K1 forgeries + authentic originals of their seeds (K0 control excluded)
    ("L1", "full_caption"): ["s1-auth", "s1-k1"],
    ("L1", "crop_caption"): ["s1-auth", "s1-k1"],
    # Table 3 union Table 19: all peripheral forgeries + all authentic items, with a crop
    ("L1", "crop"): ["s1-auth", "s1-k1", "s1-k0", "s2-auth", "s2-k2"],
    ("L1", "mirror"): ["s1-auth", "s1-k1", "s1-k0", "s2-auth", "s2-k2", "s3-auth"],
    # Table 11: the Table 3 population with a wrong_event
    ("L1", "full_wrong_caption"): ["s1-auth", "s1-k1"],
    # Table 7: peripheral forgeries with a crop variant; Full on everything
    ("RECOG", "full"): ALL,
    ("RECOG", "mirror"): ["s1-k1", "s1-k0", "s2-k2"],
    ("RECOG", "crop"): ["s1-k1", "s1-k0", "s2-k2"],
    # Table 8 (erase) and Table 9 (peripheral K1 with principal figures)
    ("L2", "full"): ["s1-k1", "s3-erase"],
    ("L2", "crop"): ["s1-k1"],
    ("L-adv", "full"): ["s1-auth", "s2-auth", "s3-auth"],
    ("FACE", "face_original"): ["s3-erase"],
    ("FACE", "face_replacement"): ["s3-erase"],
    # named insertions: K1 with an entity, not the erase item
    ("TEXT", "none"): ["s1-k1", "s3-swap", "s4-k1"],
    # one per distinct event: the first authentic item, else the first item
    ("EVENT", "none"): ["s1-auth", "s2-auth", "s3-auth", "s4-k1"],
}


def test_the_table_holds_exactly_the_pairs_of_the_paper() -> None:
    assert set(pairs()) == set(EXPECTED)
    assert all(r.probe in PROBES and r.condition in CONDITIONS for r in RULES)


@pytest.mark.parametrize(("probe", "condition"), list(EXPECTED))
def test_population_of_each_pair(items: list[Item], probe: str, condition: str) -> None:
    assert _who(items, probe, condition) == EXPECTED[(probe, condition)]


def test_pairs_the_paper_does_not_run_apply_to_nothing(items: list[Item]) -> None:
    ctx = Context.of(items)
    for p in PROBES:
        for c in CONDITIONS:
            if (p, c) not in EXPECTED:
                assert not any(applies(p, c, it, ctx) for it in items), (p, c)


def test_every_rule_names_its_paper_source_and_population() -> None:
    for r in RULES:
        assert r.source and ("Table" in r.source or "§" in r.source or "Appendix" in r.source)
        assert r.population and r.description
    assert population_of("L1", "full") == "all"
    assert population_of("L1", "full_caption") == "peripheral_K1"
    assert population_of("L1", "crop") == "peripheral_K1+peripheral"
    assert population_of("TEXT", "none") == "named_insertion"
    assert population_of("FACE", "face_original") == "erase"
    assert population_of("L2", "full") == "erase+peripheral_K1_figures"
    assert "Table 19" in source_of("L1", "mirror")
    assert "Table 11" in source_of("L1", "full_wrong_caption")
    with pytest.raises(KeyError, match="does not run L0 under crop"):
        population_of("L0", "crop")
    assert len(rules("L1")) == 7 and len(rules(condition="none")) == 2
    # the opt-in part table12 adds three L1 rows (Full+Caption, Crop, Crop+Caption)
    assert len(rules("L1", parts=["table12"])) == len(rules("L1", parts=None)) == 10
    assert population_of("L1", "full_caption", ["table12"]) == "peripheral_K1+peripheral_families"
    assert "Table 12" in source_of("L1", "crop_caption", ["table12"])


def _item(**kw: Any) -> Item:
    base: dict[str, Any] = {
        "id": "x",
        "seed_id": "sx",
        "image": "x.png",
        "label": "forged",
        "domain": "A1",
        "noun": "photograph",
        "event": {"label": "E", "date": "1900"},
    }
    base.update(kw)
    return Item.model_validate(base)


def test_hand_built_items() -> None:
    ctx = Context(peripheral_k1_seeds=frozenset({"sx"}))
    k1_c3 = _item(family="K1", saliency="C3", crop=[0, 0, 2, 2])
    assert applies("L1", "crop_caption", k1_c3, ctx)
    assert not applies("L1", "crop_caption", k1_c3.model_copy(update={"crop": None}), ctx)
    assert applies("L1", "full_caption", k1_c3.model_copy(update={"crop": None}), ctx)
    k1_c1 = _item(family="K1", saliency="C1", crop=[0, 0, 2, 2])
    assert not applies("L1", "full_caption", k1_c1, ctx)
    assert not applies("L1", "mirror", k1_c1, ctx)  # main-figure forgeries: not peripheral
    k2_c2 = _item(family="K2", saliency="C2")
    assert applies("L1", "mirror", k2_c2, ctx) and not applies("L1", "full_caption", k2_c2, ctx)
    auth_other_seed = _item(label="authentic", seed_id="sy", crop=[0, 0, 2, 2])
    assert not applies("L1", "crop_caption", auth_other_seed, ctx)
    assert applies("L1", "crop", auth_other_seed, ctx)  # Table 19: every authentic item
    assert applies("L-adv", "full", auth_other_seed, ctx)
    assert not applies("L-adv", "full", k2_c2, ctx)
    # FACE needs the erase variant and face boxes
    erase = _item(family="K1", k1_type="absent_celebrity", variant="erase")
    assert not applies("FACE", "face_original", erase, ctx)
    faces = {"original": [0, 0, 1, 1], "replacement": [0, 0, 1, 1], "original_image": "o.png"}
    assert applies("FACE", "face_original", erase.model_copy(update={"faces": faces}), ctx)
    assert applies("L2", "full", erase, ctx) and not applies("L2", "crop", erase, ctx)
    # TEXT: K1 with an entity, not absent-celebrity
    assert applies("TEXT", "none", _item(family="K1", entity={"name": "A"}), ctx)
    assert not applies("TEXT", "none", _item(family="K1"), ctx)
    assert not applies("TEXT", "none", _item(family="K2", entity={"name": "A"}), ctx)
    assert not applies(
        "TEXT", "none", _item(family="K1", k1_type="absent_celebrity", entity={"name": "A"}), ctx
    )


def test_event_representative_prefers_the_first_authentic_item() -> None:
    items = [
        _item(id="f1", family="K2"),
        _item(id="a1", label="authentic"),
        _item(id="a2", label="authentic"),
        _item(id="g1", family="K3", event={"label": "E", "date": "1901"}),
    ]
    assert population_items(items, "EVENT", "none") == ["a1", "g1"]


def test_populations_lists_each_named_population(items: list[Item]) -> None:
    pops = populations(items)
    assert pops["erase"] == ["s3-erase"]
    assert pops["named_insertion"] == ["s1-k1", "s3-swap", "s4-k1"]
    assert pops["peripheral_K1"] == ["s1-auth", "s1-k1"]
    assert pops["all"] == ALL
