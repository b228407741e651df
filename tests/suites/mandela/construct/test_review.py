"""Review round trip: export the sheet, decide in real Chromium, import the decisions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.construct.build import build
from forgebench.construct.edit_api import make_editor
from forgebench.construct.facts import Knowledge
from forgebench.construct.scenes import load_facts, load_scenes
from forgebench.construct.specs import EditSpec
from forgebench.suites.mandela.validate import validate_dataset
from support.browser import CHROMIUM, open_page

runner = CliRunner()

SPECS: list[dict[str, Any]] = [
    {"id": "k5-trophy", "seed_id": "final86", "family": "K5", "operation": "recolour",
     "region": [330, 60, 400, 160], "saliency": "C1", "target": "trophy",
     "attribute": {"name": "colour", "value": "red"}, "instruction": "Recolour the trophy red.",
     "params": {"hue": 0, "min_saturation": 0.5}, "contradiction": "The trophy was gold, not red."},
    {"id": "k4-text", "seed_id": "final86", "family": "K4", "operation": "retext",
     "region": [10, 460, 200, 505], "saliency": "C3", "target": "MEXICO", "text": "ITALY",
     "instruction": "Change MEXICO to ITALY </script> & co.", "contradiction": "'ITALY' replaces 'MEXICO'."},
    {"id": "k0-floor", "seed_id": "final86", "family": "K0", "control_for": "K5", "operation": "recolour",
     "region": [20, 300, 70, 350], "saliency": "C3", "entity": {"name": "floor"},
     "instruction": "Repaint the floor.", "params": {"hue_shift": 120}},
]  # fmt: skip


@pytest.fixture
def built(seed_dir: Path, tmp_path: Path) -> Path:
    know = Knowledge.of(load_scenes(seed_dir), load_facts(seed_dir))
    out = tmp_path / "build"
    rep = build(
        seed_dir, [EditSpec.model_validate(s) for s in SPECS], know, make_editor("local/auto"), out
    )
    assert rep.written["mandela"].count == 4, rep.dropped
    return out


def _items(build_dir: Path) -> dict[str, dict[str, Any]]:
    rows = (build_dir / "dataset" / "items.jsonl").read_text().splitlines()
    return {r["id"]: r for r in map(json.loads, rows)}


def test_review_import_records_reviewer_and_moves_rejected_items(
    built: Path, tmp_path: Path
) -> None:
    r = runner.invoke(app, ["review", "export", str(built)])
    assert r.exit_code == 0 and (built / "review" / "index.html").is_file()
    assert (built / "review" / "heatmaps" / "k5-trophy.png").is_file()
    dec = tmp_path / "d.json"
    dec.write_text(json.dumps({"reviewer": "ana", "decisions": {
        "k5-trophy": {"decision": "accept"}, "k4-text": {"decision": "reject", "note": "ghosting"}}}))  # fmt: skip
    r = runner.invoke(app, ["review", "import", str(built), str(dec)])
    assert r.exit_code == 0, r.output
    assert "1 accepted, 1 rejected; dataset valid (3 items)" in r.output
    items = _items(built)
    assert "k4-text" not in items
    assert items["k5-trophy"]["provenance"]["reviewer"] == {
        "name": "ana",
        "decision": "accept",
        "note": "",
    }
    assert items["k0-floor"]["provenance"]["reviewer"] is None  # undecided
    gone = [
        json.loads(x) for x in (built / "review" / "rejected_items.jsonl").read_text().splitlines()
    ]
    assert gone[0]["id"] == "k4-text" and gone[0]["provenance"]["reviewer"]["note"] == "ghosting"
    dec.write_text(json.dumps({"reviewer": "ana", "decisions": {"nope": {"decision": "accept"}}}))
    r = runner.invoke(app, ["review", "import", str(built), str(dec)])
    assert r.exit_code == 2 and "unknown item 'nope'" in r.output
    dec.write_text(
        json.dumps({"reviewer": "ana", "decisions": {"k5-trophy": {"decision": "maybe"}}})
    )
    r = runner.invoke(app, ["review", "import", str(built), str(dec)])
    assert r.exit_code == 2 and "decisions.k5-trophy.decision" in r.output


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")
def test_review_sheet_in_chromium_round_trip(built: Path, tmp_path: Path) -> None:
    r = runner.invoke(app, ["review", "export", str(built)])
    assert r.exit_code == 0
    with open_page() as page:
        page.goto((built / "review" / "index.html").as_uri())
        page.wait_for_load_state("load")
        assert page.locator(".card").count() == 3
        # the instruction with "</script>" did not break the page, and every image loaded
        assert "</script> & co." in page.locator(".card[data-id='k4-text']").inner_text()
        widths = page.locator("img").evaluate_all("ims => ims.map(i => i.naturalWidth)")
        assert len(widths) == 3 * 4 and all(w > 0 for w in widths)
        assert "footprint" in page.locator(".card[data-id='k5-trophy'] table").inner_text()
        page.locator("#save").click()
        assert page.locator("#status").inner_text() == "enter your name first"
        page.fill("#reviewer", "bo")
        page.check(".card[data-id='k0-floor'] input[value='reject']")
        page.fill(".card[data-id='k0-floor'] .note", "visible seam")
        page.check(".card[data-id='k5-trophy'] input[value='accept']")
        assert page.locator(".card[data-id='k0-floor']").get_attribute("class") == "card reject"
        with page.expect_download() as dl:
            page.locator("#save").click()
        saved = tmp_path / "decisions.json"
        dl.value.save_as(saved)
        assert page.errors == []
    assert json.loads(saved.read_text()) == {
        "reviewer": "bo",
        "decisions": {
            "k5-trophy": {"decision": "accept", "note": ""},
            "k0-floor": {"decision": "reject", "note": "visible seam"},
        },
    }
    r = runner.invoke(app, ["review", "import", str(built), str(saved)])
    assert r.exit_code == 0, r.output
    assert set(_items(built)) == {"final86-original", "k5-trophy", "k4-text"}
    assert validate_dataset(built / "dataset").ok
