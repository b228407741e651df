"""The verifier's tools on constructed images: OCR, faces, scene matching, and what it answers."""

from __future__ import annotations

import numpy as np
import pytest
import skimage.data

from forgebench.suites.mandela.prompts import probe as probe_text
from forgebench.suites.mandela.verdict import NameTargets, parse_answer
from forgebench.suites.mandela.verifier import faces, ocr
from forgebench.suites.mandela.verifier.kb import Date, compare_dates, parse_date
from forgebench.suites.mandela.verifier.model import Verifier
from forgebench.suites.mandela.verifier.reasoning import differs
from forgebench.suites.mandela.verifier.scenes import SceneIndex

from .conftest import EMBLEM, PASTE_AT, ROCKET_BODY, World, hopper_photo

L0 = probe_text("L0").template.format(noun="photograph")
L2 = probe_text("L2").template.format(noun="photograph")


def test_dates_compare_only_as_far_as_their_precision_goes() -> None:
    assert parse_date("c. 1998") == Date(1998)
    assert parse_date("1992-01-01") == Date(1992, 1, 1)
    assert parse_date("sometime") is None
    assert compare_dates(Date(1992, 1, 1), Date(1998)) == -1
    assert compare_dates(Date(1998), Date(1998, 2, 7)) is None
    assert compare_dates(Date(2018, 6, 16), Date(1986, 6, 29)) == 1


def test_text_comparison_ignores_case_spacing_and_one_letter_ocr_noise() -> None:
    assert not differs("NAGANO,JAPAN", "NAGANO, JAPAN")
    assert not differs("3：2", "3 : 2")
    assert not differs("COMDB HOPPER", "COMDR HOPPER")  # one letter: OCR noise
    assert differs("NAGOYA", "NAGANO")
    assert differs("JULY 1968", "JULY 1969")  # any digit counts


def test_ocr_reads_the_rendered_wrong_year(world: World) -> None:
    lines = ocr.read_text(world.plaque_fake)
    assert any("1971" in ln.text for ln in lines), lines
    assert not any("1969" in ln.text for ln in lines)


def test_wrong_year_is_read_and_contradicted(verifier, world: World) -> None:  # type: ignore[no-untyped-def]
    text = verifier.answer("L0", L0, world.plaque_fake, "plaque-fake")
    assert parse_answer("L0", text).verdict == "FAKE", text
    assert "1971" in text and "1969" in text and "Apollo 11" in text
    real = verifier.answer("L0", L0, world.plaque_real, "plaque-real")
    assert parse_answer("L0", real).verdict == "REAL", real


def test_scene_is_recognised_through_crop_and_mirror(world: World) -> None:
    from forgebench.suites.mandela.verifier.kb import load_kb

    kb = load_kb(world.kb)
    index = SceneIndex(kb.scenes, kb.root)
    rocket = world.rocket
    crop = rocket[150:427, 200:560]
    m = index.match(crop)
    assert m is not None and m.scene.id == "rocket" and not m.mirrored
    mapped = m.map_box([300, 200, 340, 240])
    assert mapped is not None
    (x0, y0, _, _), inside = mapped
    assert abs(x0 - 100) <= 3 and abs(y0 - 50) <= 3 and inside == pytest.approx(1.0)
    mirror = index.match(np.ascontiguousarray(rocket[:, ::-1]))
    assert mirror is not None and mirror.scene.id == "rocket" and mirror.mirrored
    w = rocket.shape[1]
    (mx0, _, mx1, _), _ = mirror.map_box([300, 200, 340, 240])  # type: ignore[misc]
    assert abs(mx0 - (w - 341)) <= 3 and abs(mx1 - (w - 300)) <= 3
    assert index.match(skimage.data.coffee()) is None


def test_a_canonical_image_reuses_its_features_and_matches_as_computed(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    from forgebench.suites.mandela.verifier import scenes
    from forgebench.suites.mandela.verifier.kb import load_kb

    kb = load_kb(world.kb)
    index = SceneIndex(kb.scenes, kb.root)
    computed = [0]
    real = scenes._features

    def counted(rgb: np.ndarray) -> scenes._Features:
        computed[0] += 1
        return real(rgb)

    monkeypatch.setattr(scenes, "_features", counted)
    reused = index.match(world.rocket.copy())  # the canonical pixels, another array
    # the KB's scenes on first use, then of the query only the mirrored orientation ran SIFT
    assert computed[0] == len(index) + 1
    edited = world.rocket.copy()
    edited[0, 0] ^= 1  # one pixel off: not the canonical image, computed
    index.match(edited)
    assert computed[0] == len(index) + 3
    index._known.clear()
    fresh = index.match(world.rocket.copy())
    assert reused is not None and fresh is not None
    assert (reused.scene.id, reused.inliers, reused.mirrored) == (
        fresh.scene.id,
        fresh.inliers,
        fresh.mirrored,
    )
    assert reused.to_query is not None and fresh.to_query is not None
    assert np.array_equal(reused.to_query, fresh.to_query)


def test_pasted_known_face_is_identified_and_ruled_out_by_date(verifier, world: World) -> None:  # type: ignore[no-untyped-def]
    found = faces.detect_faces(world.rocket_hopper)
    x0, y0 = PASTE_AT
    pasted = [f for f in found if f.box[0] >= x0 - 10 and f.box[1] >= y0 - 10]
    assert pasted and verifier.gallery.identify(pasted[0]) is not None
    text = verifier.answer("L0", L0, world.rocket_hopper, "rocket-hopper")
    targets = NameTargets(entity=("Grace Hopper", ()), entity_is_person=True)
    v = parse_answer("L0", text, targets)
    assert v.verdict == "FAKE" and v.detail["names_entity"], text
    assert "died in 1992" in text and "2015" in text and "lower right" in text
    l2 = verifier.answer("L2", L2, world.rocket_hopper, "rocket-hopper")
    assert parse_answer("L2", l2, targets).verdict == "NAMES", l2


def test_unknown_face_is_not_named(verifier, world: World) -> None:  # type: ignore[no-untyped-def]
    found = faces.detect_faces(world.rocket_stranger)
    assert found, "the pasted astronaut face should be detected"
    assert all(verifier.gallery.identify(f) is None for f in found)
    l2 = verifier.answer("L2", L2, world.rocket_stranger, "rocket-stranger")
    targets = NameTargets(principal=(("Grace Hopper", ()), ("Eileen Collins", ())))
    v = parse_answer("L2", l2, targets)
    assert v.verdict == "CANNOT" and not v.detail["names"], l2
    text = verifier.answer("L0", L0, world.rocket_stranger, "rocket-stranger")
    assert parse_answer("L0", text).verdict == "REAL", text


def test_face_probe_says_yes_to_the_person_and_no_to_someone_else(verifier) -> None:  # type: ignore[no-untyped-def]
    photo = hopper_photo()
    own = photo[100:360, 150:380]
    other = skimage.data.astronaut()[20:220, 150:300]
    assert (
        parse_answer("FACE", verifier.answer("FACE", "Is this Grace Hopper?", own, "a")).verdict
        == "YES"
    )
    no = verifier.answer("FACE", "Is this Grace Hopper?", other, "b")
    assert parse_answer("FACE", no).verdict == "NO", no
    unknown = verifier.answer("FACE", "Is this Ada Lovelace?", own, "a")
    assert parse_answer("FACE", unknown).verdict == "MISS"  # no portrait: it cannot tell


def test_text_probe_uses_the_lifespan(verifier) -> None:  # type: ignore[no-untyped-def]
    ask = probe_text("TEXT").template
    no = verifier.answer(
        "TEXT",
        ask.format(name="Grace Hopper", event_label="Falcon 9 launch", event_date="2015-02-11"),
        None,
        "",
    )
    assert parse_answer("TEXT", no).verdict == "NO" and "1992" in no
    yes = verifier.answer(
        "TEXT",
        ask.format(name="Grace Hopper", event_label="a 1985 summit", event_date="1985-11-19"),
        None,
        "",
    )
    assert parse_answer("TEXT", yes).verdict == "YES"
    unknown = verifier.answer(
        "TEXT", ask.format(name="Ada Lovelace", event_label="x", event_date="1850"), None, ""
    )
    assert parse_answer("TEXT", unknown).verdict == "MISS"


def test_recognition_probe_names_the_event_or_says_not_recognised(verifier, world: World) -> None:  # type: ignore[no-untyped-def]
    ask = probe_text("RECOG").template.format(noun="photograph")
    yes = parse_answer("RECOG", verifier.answer("RECOG", ask, world.rocket, "rocket"))
    assert yes.verdict == "RECOGNISED" and yes.detail["year"] == 2015
    no = verifier.answer("RECOG", ask, skimage.data.coffee(), "coffee")
    assert parse_answer("RECOG", no).verdict == "NOT_RECOGNISED"


def test_recorded_colour_change_and_removed_object_are_reported(verifier, world: World) -> None:  # type: ignore[no-untyped-def]
    import cv2

    red = world.rocket.copy()
    x0, y0, x1, y1 = ROCKET_BODY
    body = red[y0:y1, x0:x1]
    white = (body.max(axis=2) > 150) & (body.max(axis=2).astype(int) - body.min(axis=2) < 60)
    body[white] = (200, 30, 30)
    text = verifier.answer("L0", L0, red, "rocket-red")
    assert parse_answer("L0", text).verdict == "FAKE", text
    assert "Falcon 9" in text and "red" in text and "white" in text
    mask = np.zeros(world.plaque_real.shape[:2], np.uint8)
    ex0, ey0, ex1, ey1 = EMBLEM
    mask[ey0 - 6 : ey1 + 6, ex0 - 6 : ex1 + 6] = 255
    gone = cv2.inpaint(world.plaque_real, mask, 5, cv2.INPAINT_TELEA)
    text = verifier.answer("L0", L0, gone, "plaque-no-emblem")
    assert parse_answer("L0", text).verdict == "FAKE" and "emblem" in text and "missing" in text
    assert verifier.answer("L0", L0, world.rocket, "rocket").startswith("REAL")


def test_a_person_recorded_in_the_scene_is_never_ruled_out_by_whereabouts(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from forgebench.construct.scenes import FactEntity, SceneRecord
    from forgebench.suites.mandela.verifier.faces import Face
    from forgebench.suites.mandela.verifier.kb import KnowledgeBase
    from forgebench.suites.mandela.verifier.reasoning import (
        Event,
        Observation,
        SeenFace,
        person_findings,
    )
    from forgebench.suites.mandela.verifier.scenes import SceneMatch

    hopper = FactEntity(
        id="h",
        name="Grace Hopper",
        born="1906-12-09",
        died="1992-01-01",
        places=[{"place": "Washington, D.C.", "from": "1983-12-15", "to": "1986-08-14"}],
    )
    event = {"label": "Navy portrait", "date": "1984-01-20", "place": "United States"}
    face = SeenFace(Face((10, 10, 60, 70), 0.9, np.zeros(128, np.float32)), ("h", 0.9))
    ev = Event("Navy portrait", "1984-01-20", "United States", "scene")
    for people, expected in (
        ([{"name": "Grace Hopper", "entity": "h"}], []),
        ([], ["person_place"]),
    ):
        scene = SceneRecord(id="s", image="s.png", event=event, people=people)
        obs = Observation((200, 200), SceneMatch(scene, None, 50, False, (200, 200)), [], [face])
        kb = KnowledgeBase(tmp_path, [scene], [hopper])
        assert [f.kind for f in person_findings(kb, obs, ev, "photograph")] == expected


def test_two_tasks_on_one_image_compute_its_tools_once(
    verifier: Verifier, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """L0 and L1 of one image arrive together: faces and OCR run once, both get the same view."""
    import threading
    import time

    from forgebench.suites.mandela.verifier import model

    calls: list[str] = []
    real_faces, real_read = faces.detect_faces, model._read

    def slow_faces(rgb: np.ndarray):  # type: ignore[no-untyped-def]
        calls.append("faces")
        time.sleep(0.2)  # long enough that the second task arrives while the first computes
        return real_faces(rgb)

    def slow_read(rgb: np.ndarray, mirrored: bool):  # type: ignore[no-untyped-def]
        calls.append("text")
        time.sleep(0.2)
        return real_read(rgb, mirrored)

    monkeypatch.setattr(faces, "detect_faces", slow_faces)
    monkeypatch.setattr(model, "_read", slow_read)
    seen: list[object] = []
    start = threading.Barrier(2)

    def task() -> None:
        start.wait()
        seen.append(verifier.observe(world.plaque_fake, "same-key", text=True, people=True))

    threads = [threading.Thread(target=task) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(calls) == ["faces", "text"]
    a, b = seen
    assert a.text == b.text and [f.face.box for f in a.faces] == [f.face.box for f in b.faces]
    verifier.observe(world.plaque_real, "other-key", text=True, people=False)
    assert calls.count("text") == 2  # another image is still computed
