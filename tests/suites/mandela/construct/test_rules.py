"""Each Mandela family rule accepts what the facts support and rejects the rest, with its reason."""

from __future__ import annotations

from forgebench.construct.facts import Knowledge
from support.seed_folder import check_spec, k1_fields


def test_k1_person_dead_at_event_is_kept_with_the_recorded_contradiction(know: Knowledge) -> None:
    v = check_spec(know, **k1_fields("George Orwell", contradiction="whatever the model said"))
    assert v.verification.accepted and v.verification.rule == "k1_dead_at_event"
    assert v.spec.contradiction == (
        "George Orwell died in 1950, before 1986 World Cup final (1986-06-29)."
    )


def test_k1_person_not_yet_born_at_event(know: Knowledge) -> None:
    v = check_spec(know, **k1_fields("Lionel Messi"))
    assert v.verification.rule == "k1_unborn_at_event"
    assert v.spec.contradiction == (
        "Lionel Messi was born in 1987, after 1986 World Cup final (1986-06-29)."
    )


def test_k1_person_alive_at_event_is_rejected(know: Knowledge) -> None:
    v = check_spec(know, **k1_fields("Pelé"))
    assert not v.verification.accepted
    assert v.verification.rule == "k1_alive_at_event"
    assert "alive" in v.verification.reason


def test_k1_cross_domain_needs_recorded_whereabouts_elsewhere(know: Knowledge) -> None:
    v = check_spec(know, **k1_fields("Pelé", k1_type="cross_domain"))
    assert v.verification.accepted and v.verification.rule == "k1_elsewhere_at_event"
    assert "New York" in (v.spec.contradiction or "")
    # Messi (unborn) is decided by the date rule even when proposed as cross-domain
    assert check_spec(
        know, **k1_fields("Lionel Messi", k1_type="cross_domain")
    ).verification.accepted
    # someone alive and without whereabouts: rejected
    no = check_spec(know, **k1_fields("Diego Maradona", k1_type="cross_domain", seed_id="supper"))
    assert no.verification.rule == "k1_unborn_at_event"  # born 1960, after 1498


def test_k1_death_year_that_does_not_decide_the_event_date_is_rejected(know: Knowledge) -> None:
    v = check_spec(know, **k1_fields("Vague Person"))
    assert not v.verification.accepted and v.verification.rule == "k1_undecidable"


def test_k1_person_already_recorded_in_the_scene_is_rejected(know: Knowledge) -> None:
    v = check_spec(know, **k1_fields("Maradona"))
    assert v.verification.rule == "k1_already_present"


def test_unanchored_entity_is_rejected(know: Knowledge) -> None:
    v = check_spec(know, **k1_fields("Nobody Known"))
    assert not v.verification.accepted and v.verification.rule == "unanchored"
    assert "Nobody Known" in v.verification.reason


def test_absent_celebrity_erasure_needs_the_person_in_the_scene(know: Knowledge) -> None:
    erase = {
        "family": "K1",
        "k1_type": "absent_celebrity",
        "variant": "erase",
        "operation": "replace",
        "region": [180, 40, 300, 200],
    }
    v = check_spec(know, **erase, target="Maradona")
    assert v.verification.rule == "k1_absent_celebrity"
    assert v.spec.contradiction and v.spec.contradiction.startswith("Diego Maradona, recorded in")
    no = check_spec(know, **erase, target="George Orwell")
    assert no.verification.rule == "k1_erased_not_present"


def test_k2_object_introduced_after_the_event(know: Knowledge) -> None:
    k2 = {"family": "K2", "region": [420, 380, 500, 460]}
    v = check_spec(know, **k2, entity={"name": "iPhone"})
    assert v.verification.rule == "k2_introduced_after_event"
    assert v.spec.contradiction == (
        "smartphone was introduced in 2007, after 1986 World Cup final (1986-06-29)."
    )
    assert check_spec(know, **k2, entity={"name": "television"}).verification.rule == (
        "k2_introduced_before_event"
    )
    assert check_spec(know, **k2, entity={"name": "oil lamp"}).verification.rule == (
        "k2_no_introduction_date"
    )


def test_k3_place_contradicting_the_record(know: Knowledge) -> None:
    k3 = {"family": "K3", "region": [400, 180, 510, 300]}
    v = check_spec(know, **k3, entity={"name": "Eiffel Tower"})
    assert v.verification.rule == "k3_place_contradicts_record"
    assert "Eiffel Tower is in Paris, not at Estadio Azteca" in (v.spec.contradiction or "")
    same = check_spec(know, **k3, entity={"name": "Azteca tower"})
    assert same.verification.rule == "k3_place_matches_record"
    asserted = check_spec(know, **k3, place="Rome")
    assert asserted.verification.accepted


def test_k4_text_contradicting_the_record(know: Knowledge) -> None:
    k4 = {"family": "K4", "operation": "retext", "region": [10, 460, 200, 505]}
    v = check_spec(know, **k4, target="Mexico", text="ITALY")
    assert v.verification.rule == "k4_text_contradicts_record"
    assert v.spec.contradiction == (
        "'ITALY' replaces the recorded text 'MEXICO' in 1986 World Cup final (1986-06-29)."
    )
    assert check_spec(know, **k4, target="ARGENTINA", text="X").verification.rule == (
        "k4_text_not_recorded"
    )
    assert check_spec(know, **k4, target="MEXICO", text="mexico").verification.rule == (
        "k4_text_unchanged"
    )


def test_k5_changed_attribute(know: Knowledge) -> None:
    k5 = {"family": "K5", "operation": "recolour", "region": [190, 200, 300, 330]}
    v = check_spec(know, **k5, target="shirt", attribute={"name": "colour", "value": "red"})
    assert v.verification.rule == "k5_attribute_differs"
    assert "was blue, not red" in (v.spec.contradiction or "")
    same = check_spec(know, **k5, target="shirt", attribute={"name": "colour", "value": "Blue"})
    assert same.verification.rule == "k5_attribute_unchanged"
    unrec = check_spec(
        know, **k5, target="floodlight", attribute={"name": "colour", "value": "red"}
    )
    assert unrec.verification.rule == "k5_attribute_not_recorded"


def test_k6_content_of_a_work(know: Knowledge) -> None:
    k6 = {"family": "K6", "seed_id": "supper", "region": [400, 100, 480, 250]}
    v = check_spec(know, **k6, entity={"name": "extra figure"})
    assert v.verification.rule == "k6_not_in_composition"
    assert check_spec(know, **k6, entity={"name": "bread"}).verification.rule == (
        "k6_already_in_composition"
    )
    removed = check_spec(know, **k6, operation="remove", target="bread")
    assert removed.verification.rule == "k6_removed_from_composition"


def test_k0_control_must_carry_no_fact(know: Knowledge) -> None:
    k0 = {"family": "K0", "control_for": "K1", "region": [10, 20, 90, 160]}
    ok = check_spec(know, **k0, entity={"name": "unnamed bystander"})
    assert ok.verification.rule == "k0_anchor_free" and ok.spec.contradiction is None
    assert (
        check_spec(know, **k0, entity={"name": "George Orwell"}).verification.rule == "k0_anchored"
    )
    k0r = {"family": "K0", "control_for": "K1", "operation": "replace"}
    swap = check_spec(know, **k0r, target="Diego Maradona", region=[180, 40, 300, 200])
    assert swap.verification.rule == "k0_touches_recorded"
    fine = check_spec(know, **k0r, target="photographer", region=[20, 300, 90, 420])
    assert fine.verification.accepted
    said = check_spec(know, **k0, entity={"name": "pen"}, contradiction="something")
    assert said.verification.rule == "k0_has_contradiction"


def test_edit_hiding_a_recorded_figure_is_a_second_contradiction(know: Knowledge) -> None:
    v = check_spec(know, **k1_fields("George Orwell", region=[170, 30, 310, 210]))
    assert v.verification.rule == "second_contradiction"
    assert "Diego Maradona" in v.verification.reason
