"""The viewer's verdict and level facets come from the run's suites: Mandela's exactly
as before, a Forensics answer as its extracted letter with the step that found it."""

from __future__ import annotations

from pathlib import Path

from forgebench import api
from forgebench.report.site import build_site
from forgebench.suites.mandela.facets.viewer import VIEWER as MANDELA
from forgebench.suites.mandela.verdict import VERDICTS as MANDELA_PARSER_VERDICTS
from support.report_js import answer_codes, load_js

BEFORE_VERDICTS = [
    "FAKE", "REAL", "MISS", "YES", "NO", "RECOGNISED", "NOT_RECOGNISED",
    "NAMES", "CANNOT", "KNOWN", "UNKNOWN", "ERROR", "PENDING",
]  # fmt: skip
"""The verdict facet of a Mandela report before the facets moved into the suites."""
BEFORE_LEVELS = ["E0", "E1", "E2", "E3", "E4", "unscored", "none"]


def _js(path: Path) -> dict:
    return load_js(path, "index" if path.name == "index.js" else "page")  # type: ignore[no-any-return]


def test_mandela_report_keeps_its_facets(site_run: tuple[Path, Path]) -> None:
    _ds, run = site_run
    api.report(run)
    meta = _js(run / "report" / "data" / "index.js")["meta"]
    assert meta["verdicts"] == BEFORE_VERDICTS and meta["levels"] == BEFORE_LEVELS
    # every code the Mandela parser can store is a facet value
    assert sorted(MANDELA.verdict_codes) == sorted(MANDELA_PARSER_VERDICTS)
    page = _js(run / "report" / "data" / "page-0000.js")
    assert all("s" not in a for it in page["items"] for a in it["answers"])  # no "found by"
    assert all("facts" not in it for it in page["items"])


def test_without_declared_codes_the_facets_are_the_codes_found(
    site_run: tuple[Path, Path],
) -> None:
    _ds, run = site_run
    build_site(run)  # no suite hooks: the engine still offers what the run holds
    meta = _js(run / "report" / "data" / "index.js")["meta"]
    assert meta["verdicts"] == ["FAKE", "REAL", "ERROR", "PENDING"]
    assert meta["levels"] == ["E0", "E4", "unscored", "none"]
    # nor does it know Mandela's fields: without the suite's tags an item has its id only
    rows = _js(run / "report" / "data" / "index.js")["rows"]
    assert {(r[1], r[2], r[3]) for r in rows} == {("", "", "")}
    assert [g["label"] for g in meta["groups"]] == ["", ""]


def test_mixed_run_codes_forensics_answers_by_letter_and_step(mixed_run: Path) -> None:
    run = mixed_run
    result = api.report(run)
    assert result.warnings == []  # each item's picture found in its own benchmark's dataset
    index = _js(run / "report" / "data" / "index.js")
    meta = index["meta"]
    assert meta["verdicts"] == [*BEFORE_VERDICTS[:-2], "A", "B", "C", "D", "Z", "ERROR", "PENDING"]
    assert meta["levels"] == BEFORE_LEVELS
    rows = {r[0]: r for r in index["rows"]}
    letter = {i: answer_codes(meta, rows[i][6])[0][3] for i in ("0", "1", "2", "3")}
    assert letter == {"0": "A", "1": "A", "2": "Z", "3": "Z"}
    page = _js(run / "report" / "data" / "page-0000.js")
    items = {it["id"]: it for it in page["items"]}
    assert [(a["v"], a["s"]) for a in items["1"]["answers"]] == [("A", "option text (binary)")]
    assert [(a["v"], a["s"]) for a in items["2"]["answers"]] == [("Z", "refusal → Z")]
    assert [(a["v"], a["s"]) for a in items["3"]["answers"]] == [
        ("Z", "no option chosen → Z (hedge)")  # "Either A or B, hard to say.": a hedge first
    ]
    facts = dict(items["1"]["facts"])
    assert facts["options"] == "A. non AI-generated; B. AI-generated"
    assert facts["type code"] == "GS-RGB-BC-REAL-REAL" and facts["right option"] == "A"
    assert "facts" not in items["s0-k1"]  # Mandela items keep their card
    assert items["1"]["img"]["thumb"] and items["s0-k1"]["img"]["thumb"]
    search = load_js(run / "report" / "data" / "search.js", "search")
    position = [r[0] for r in index["rows"]].index("1")
    assert "what is the authenticity" in search[position]  # the question is searchable


def test_two_benchmarks_run_into_one_run_each_find_their_pictures(tmp_path: Path) -> None:
    from forgebench.run.generate import GenerationSettings
    from forgebench.run.source import Selection
    from support.forensics_data import write_forensics_release
    from support.mandela_data import write_mandela_dataset

    run = tmp_path / "run"
    mandela = write_mandela_dataset(tmp_path / "mandela", seeds=1)
    only_l0 = GenerationSettings(
        selection=Selection(probes=["L0"], conditions=["full"]), cache_dir=tmp_path / "cache"
    )
    api.run(mandela, run, ["builtin/artefact"], only_l0)
    forensics, replay = write_forensics_release(tmp_path / "forensics")
    api.run(forensics, run, [f"vlm=replay/{replay}"], GenerationSettings(cache_dir=tmp_path / "c"))
    api.metrics(run)
    result = api.report(run)  # the run's settings name the last dataset asked: Forensics
    assert result.warnings == []
    items = {it["id"]: it for it in _js(run / "report" / "data" / "page-0000.js")["items"]}
    assert sorted(items) == ["0", "1", "2", "3", "s0-auth", "s0-k2"]
    assert all(it["img"].get("thumb") for it in items.values())


def test_mixed_run_groups_forensics_items_by_type_and_modality(mixed_run: Path) -> None:
    api.report(mixed_run)
    index = _js(mixed_run / "report" / "data" / "index.js")
    meta, rows = index["meta"], {r[0]: r for r in index["rows"]}
    # one dropdown per facet, named by both suites; each suite's own name kept for its options
    assert [g["label"] for g in meta["groups"]] == ["Family / type", "Domain / modality"]
    assert meta["groups"][0]["of"] == {"mandela": "family", "forensics": "type"}
    assert meta["benchmarks"] == ["mandela", "forensics"]
    # [id, list line, type, modality, benchmark, ...]: release category -> Table 5 abbreviations
    assert rows["0"][1:5] == ["HS-RGB-BC-ES-DF", "ES", "RGB", "forensics"]
    assert rows["1"][1:5] == ["GS-RGB-BC-REAL-REAL", "REAL", "RGB", "forensics"]
    assert rows["2"][2] == "SPF" and rows["3"][2] == "ES"
    assert rows["s0-k1"][1:5] == ["forged · K1 · A1 · C3", "K1", "A1", "mandela"]
    texts = load_js(mixed_run / "report" / "data" / "search.js", "search")
    search = dict(zip(rows, texts, strict=True))
    assert "diffusion models" in search["0"] and "generative adversarial" in search["3"]
    assert "diffusion" not in search["3"]  # a GAN forgery is not found by "diffusion"
    items = {it["id"]: it for it in _js(mixed_run / "report" / "data" / "page-0000.js")["items"]}
    assert items["0"]["tags"] == [
        "HS-RGB-BC-ES-DF", "Entire Synthesis", "Diffusion models", "RGB Images",
        "Forgery Binary Classification",
    ]  # fmt: skip
    assert items["s0-k1"]["tags"] == ["forged", "K1", "date_impossible", "A1", "C3"]
