"""Every Forensics item is in the report's one item viewer (the item page it had before showed
the first 500 only and is gone): a run of 520 items has each in the viewer's data, with its
picture and its answer (the section's link to the viewer: ``test_end_to_end``)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from forgebench import api, suites
from forgebench._api.outputs import viewer_hooks
from forgebench.report.site import build_site
from forgebench.suites.forensics.predictions import write_replay
from forgebench.suites.forensics.tsv_import import import_release_tsv
from support.report_js import load_js

from .conftest import encoded, write_tsv

N = 520
"""More than the old page's cap (500) and than one chunk of the viewer's index (500 rows)."""


def test_a_run_of_more_than_500_items_has_every_item_in_the_viewer(tmp_path: Path) -> None:
    binary = ("What is the authenticity of the image?", "AI-generated", "non AI-generated")
    rows = [
        dict(index=str(k), image=encoded(0) if k == 0 else "0", question=binary[0],
             A=binary[1], B=binary[2], answer="AB"[k % 2],
             category="human_entiresynthesis_diffusion_visibleimage_category")
        for k in range(N)
    ]  # fmt: skip
    ds = tmp_path / "ds"
    import_release_tsv(write_tsv(tmp_path / "ForensicsBench.tsv", rows), ds)
    xlsx = tmp_path / "vlm_ForensicsBench.xlsx"
    pd.DataFrame({"index": range(N), "prediction": ["A"] * N}).to_excel(xlsx, index=False)
    write_replay(xlsx, tmp_path / "replay.jsonl")
    run = tmp_path / "run"
    api.run(ds, run, [f"vlm=replay/{tmp_path / 'replay.jsonl'}"])
    api.metrics(run)  # the letters
    report = run / "report"
    # the viewer as ``report`` builds it (its tables and figures are tested elsewhere)
    build_site(run, dataset_root=ds, **viewer_hooks([suites.get("forensics")], run, report))
    listed = load_js(report / "data" / "index.js", "index")
    assert listed["meta"]["row_chunks"] == 2  # the rows past 500 come in the second chunk
    assert [r[0] for r in listed["rows"]] == [str(k) for k in range(N)]
    assert all(r[5] for r in listed["rows"])  # each item's thumbnail
    seen: dict[str, list[tuple[str, str]]] = {}
    for k in range(listed["meta"]["n_pages"]):
        for item in load_js(report / "data" / f"page-{k:04d}.js", "page")["items"]:
            seen[item["id"]] = [(a["m"], a["v"]) for a in item["answers"]]
            assert item["img"].get("view") and (report / item["img"]["view"]).is_file()
            assert ["right option", "AB"[int(item["id"]) % 2]] in item["facts"]
    assert seen == {str(k): [("vlm", "A")] for k in range(N)}
