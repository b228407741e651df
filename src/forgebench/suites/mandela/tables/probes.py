"""Tables of seed 000 on the diagnostic probes and caption controls: 7 (recognition), 8 (text,
identity and face probes), 9 (identity on full vs crop), 11 (wrong caption), 12 (families under
the four conditions), 13 (authentic images) and 19 (Full / Mirror / Crop).

Paired comparisons (Tables 9, 11, 12, 19) need the row-level frame; without it those tables are
skipped or their p-value columns left empty, with the reason in the notes.
"""

from __future__ import annotations

import pandas as pd

from forgebench.analysis.stats import format_p, mcnemar_exact, paired_mcnemar
from forgebench.report.table import Cell, Column, Skipped, Table, dash, num, signed, text
from forgebench.suites.mandela.paired_tests import identity_arms
from forgebench.suites.mandela.tables.inputs import TableData, flag, order_by, rate
from forgebench.suites.mandela.tables.main import DERECOG, _model, _sectioned


def _forged(df: pd.DataFrame, population: str | None = None) -> pd.DataFrame:
    sub = df[df["label"] == "forged"] if len(df) else df
    return sub[flag(sub, population)] if population and len(sub) else sub


def _p_cell(p: float | None) -> Cell:
    return Cell(p, format_p(p)) if p is not None else dash()


def _recog_full(data: TableData, models: list[str]) -> dict[str, float | None]:
    return {m: data.metrics.get(m, "RECOG", "full", "peripheral", "recog") for m in models}


def table_recognition(data: TableData) -> Table | Skipped:
    """Table 7: self-reported recognition of the peripheral forgeries under Full, Mirror, Crop."""
    met = data.metrics
    models = met.has("RECOG", "full", "peripheral", "recog", data.order)
    if not models:
        return Skipped(7, "no RECOG results on the peripheral forgeries in metrics.csv")
    models = order_by(data, models, _recog_full(data, models))
    cols = [Column(c) for c in ("Model", "Full", "Mirror", "Crop", "n")]
    rows = []
    for m in models:
        n = met.n(m, "RECOG", "full", "peripheral", "recog")
        rows.append(
            [
                _model(data, m),
                *(
                    num(met.get(m, "RECOG", c, "peripheral", "recog"))
                    for c in ("full", "mirror", "crop")
                ),
                Cell(n, str(n) if n is not None else "—"),
            ]
        )
    caption = "Self-reported recognition (%, RECOG probe) of the peripheral forgeries under Full, Mirror (the full image flipped horizontally) and Crop (the edited region and its neighbours). Rows sorted by recognition under Full."
    return Table(7, caption, cols, [(None, rows)])


def _face_block(data: TableData, m: str) -> list[Cell]:
    """FACE pass count, and full-image authenticity and naming rates on the pass set.

    All three come from metrics.csv (``face_pass``; ``real`` and ``named`` of L0 on subset
    ``face_pass``), whose pass set leaves the wrong-name control out (Appendix N), so the three
    columns describe one population. The frame only adds the refusal mark.
    """
    hit = data.metrics.find(m, "FACE", "face_pass", "face_pass")
    if hit is None:
        return [dash(), dash(), dash()]
    value, n = hit
    passed = round(float(value) * n / 100.0) if n else None
    orig = data.answers(m, "FACE", "face_original")
    if len(orig) and "name_source" in orig.columns:
        orig = orig[orig["name_source"].astype(object) != "wrong_name"]
    refusal = len(orig) > 0 and (orig["verdict"] == "NO").mean() >= 0.9
    return [
        Cell(passed, f"{passed}/{n}" if n else "—", marks="r" if refusal else ""),
        num(data.metrics.get(m, "L0", "full", "face_pass", "real")),
        num(data.metrics.get(m, "L0", "full", "face_pass", "named")),
    ]


def table_identity(data: TableData) -> Table | Skipped:
    """Table 8: TEXT, L2, L0 detection by L2 answer, and FACE."""
    met = data.metrics
    models = [
        m
        for m in data.order
        if any(
            met.get(m, p, c, s, k) is not None
            for p, c, s, k in (
                ("TEXT", "none", "named_insertion", "text_knows"),
                ("L2", "full", "erase", "l2_names"),
            )
        )
    ]
    if not models:
        return Skipped(8, "no TEXT or L2 results in metrics.csv")
    cols = [
        Column("Model"),
        Column("knows", "TEXT (%)"),
        Column("names", "L2 (%)"),
        Column("cannot", "L2 (%)"),
    ]
    cols += [
        Column("named", "L0 detection by L2 answer (%)"),
        Column("cannot", "L0 detection by L2 answer (%)"),
    ]
    cols += [Column("pass", "FACE"), Column("full real (%)", "FACE"), Column("named (%)", "FACE")]

    def det_n(m: str, subset: str) -> Cell:
        v, n = met.get(m, "L0", "full", subset, "det"), met.n(m, "L0", "full", subset, "det")
        if n is None:
            return dash()
        return Cell(v, f"{v:.1f} ({n})" if v is not None else f"— ({n})")

    def row(m: str) -> list[Cell]:
        return [
            _model(data, m),
            num(met.get(m, "TEXT", "none", "named_insertion", "text_knows")),
            num(met.get(m, "L2", "full", "erase", "l2_names")),
            num(met.get(m, "L2", "full", "erase", "l2_cannot")),
            det_n(m, "l2_named"),
            det_n(m, "l2_cannot"),
            *_face_block(data, m),
        ]

    caption = "Text-only, identity and face probes. TEXT: share of named-insertion forgeries for which the model, given only the name, event and date, rules out the person's presence. L2: on the absent-celebrity erase items, whether the erased person is named or the model says someone cannot be identified; L0 detection is stratified by those answers (n in brackets). FACE: pairs where the original face is accepted and the replacement rejected, then full-image authenticity and naming rates on that pass set; r: declines isolated-face identification (answers no to at least 90% of originals); — the probe was not run."
    return Table(8, caption, cols, _sectioned(data, models, row))


def table_identity_crop(data: TableData) -> Table | Skipped:
    """Table 9: L2 names a principal figure on the full image vs the crop (exact McNemar)."""
    if data.frame is None:
        return Skipped(9, f"needs the row-level frame ({data.frame_reason})")
    models = [m for m in data.order if not data.answers(m, "L2", "crop").empty]
    if not models:
        return Skipped(9, "no L2 answers under crop in the run")
    cols = [Column(c) for c in ("Model", "pairs", "Full", "Crop", "only Full / only Crop", "p")]

    def row(m: str) -> list[Cell]:
        named_f, named_c = identity_arms(
            _forged(data.answers(m, "L2", "full")), _forged(data.answers(m, "L2", "crop"))
        )
        res = paired_mcnemar(named_f, named_c, outcome="named")
        return [
            _model(data, m),
            Cell(res.n, str(res.n)),
            num(rate(named_f["named"])),
            num(rate(named_c["named"])),
            Cell(f"{res.b}/{res.c}", f"{res.b}/{res.c}"),
            _p_cell(res.p if res.n else None),
        ]

    caption = "Identity probe (L2) on the peripheral people-family forgeries asked on the full image and on the crop around the edited region. Full / Crop: share of items whose answer names a principal figure (strict denominators); pairs: the peripheral people-family forgeries with principal figures asked under both; only Full / only Crop: items named under one condition only; p: exact McNemar test."
    return Table(9, caption, cols, _sectioned(data, models, row))


def _det_p(data: TableData, m: str, cond: str, population: str, against: str = "full") -> Cell:
    if data.frame is None:
        return dash()
    a = _forged(data.answers(m, "L1", against), population)
    b = _forged(data.answers(m, "L1", cond), population)
    if a.empty or b.empty:
        return dash()
    return _p_cell(paired_mcnemar(a, b).p)


def table_wrong_caption(data: TableData) -> Table | Skipped:
    """Table 11: Full, Full+Caption and Full+Wrong caption on the peripheral people-family items."""
    met = data.metrics
    models = met.has("L1", "full_wrong_caption", "peripheral_K1", "det", data.order)
    if not models:
        return Skipped(11, "no L1 results under full_wrong_caption on peripheral_K1 in metrics.csv")
    conds = (
        ("full", "Full"),
        ("full_caption", "Full+Caption"),
        ("full_wrong_caption", "Full+Wrong caption"),
    )
    cols = [Column("Model")] + [
        Column(r, t) for _, t in conds for r in ("Det", "Auth", "Bal", "KGR")
    ]
    cols += [
        Column("Caption", "p vs. Full"),
        Column("Wrong", "p vs. Full"),
        Column("uptake", "Wrong caption"),
        Column("dispute", "Wrong caption"),
    ]
    rows = []
    for m in models:
        cells = [_model(data, m)]
        for c, _ in conds:
            cells += [
                num(met.get(m, "L1", c, "peripheral_K1", k)) for k in ("det", "auth", "bal", "kgr")
            ]
        cells += [
            _det_p(data, m, "full_caption", "peripheral_K1"),
            _det_p(data, m, "full_wrong_caption", "peripheral_K1"),
        ]
        cells += [
            num(met.get(m, "L1", "full_wrong_caption", "peripheral_K1", k))
            for k in ("uptake", "dispute")
        ]
        rows.append(cells)
    caption = "Wrong-caption control on the peripheral people-family forgeries and their authentic originals (L1, strict scoring): Full, Full+Caption and Full+Wrong caption (a different same-era event of the same domain). p: exact McNemar test of detection against Full. Uptake and dispute: whether the model adopts or explicitly rejects the wrong event."
    notes = [] if data.frame is not None else [f"No p-values: {data.frame_reason}."]
    if all(
        met.get(m, "L1", "full_wrong_caption", "peripheral_K1", "uptake") is None for m in models
    ):
        notes.append(
            "Uptake and dispute are not in metrics.csv (no grader of wrong-event uptake): left empty."
        )
    return Table(11, caption, cols, [(None, rows)], notes)


def table_families_conditions(data: TableData) -> Table | Skipped:
    """Table 12: detection and KGR by family under the four conditions (peripheral forgeries)."""
    if data.frame is None:
        return Skipped(12, f"needs the row-level frame ({data.frame_reason})")
    models = []
    for m in data.order:
        fc = _forged(data.answers(m, "L1", "full_caption"), "peripheral")
        if len(fc) and (fc["family"] != "K1").any():
            models.append(m)
    if not models:
        return Skipped(
            12, "no model has L1 full_caption answers on non-people peripheral forgeries"
        )
    cols = [Column("Model"), Column("Fam."), Column("n")]
    cols += [Column(short, "Det") for _, _, short in DERECOG] + [
        Column(short, "KGR") for _, _, short in DERECOG
    ]
    cols += [Column("Δ", "Cap."), Column("p", "Cap."), Column("p_CC", "Cap.")]
    rows = []
    for m in models:
        arms = {c: _forged(data.answers(m, "L1", c), "peripheral") for c, _, _ in DERECOG}
        fams = sorted(set(arms["full"]["family"].dropna().astype(str)) - {"K0"})
        for k, fam in enumerate(fams):
            sub = {c: a[a["family"] == fam] for c, a in arms.items()}
            det = {c: rate(s["correct"]) if len(s) else None for c, s in sub.items()}
            kgr = {
                c: rate(pd.to_numeric(s["level"], errors="coerce").fillna(0) >= 3)
                if len(s)
                else None
                for c, s in sub.items()
            }
            cap = (
                det["full_caption"] - det["full"]
                if det["full_caption"] is not None and det["full"] is not None
                else None
            )
            p_cap = (
                paired_mcnemar(sub["full"], sub["full_caption"]).p
                if len(sub["full_caption"])
                else None
            )
            p_cc = (
                paired_mcnemar(sub["full"], sub["crop_caption"]).p
                if len(sub["crop_caption"])
                else None
            )
            rows.append(
                [
                    _model(data, m) if k == 0 else text(""),
                    text(fam),
                    Cell(len(sub["full"]), str(len(sub["full"]))),
                    *(num(det[c]) for c, _, _ in DERECOG),
                    *(num(kgr[c]) for c, _, _ in DERECOG),
                    signed(cap),
                    _p_cell(p_cap),
                    _p_cell(p_cc),
                ]
            )
    caption = "Detection and KGR (%) under the four de-recognition conditions by knowledge family for the models run under Full+Caption on every family (peripheral forgeries; L1; strict scoring). n: forgeries; F, FC, C, CC: Full, Full+Caption, Crop, Crop+Caption; Cap.: Det(FC) - Det(F) with its exact McNemar p; p_CC: McNemar p of Det(CC) against Det(F)."
    return Table(12, caption, cols, [(None, rows)])


def _auth_by_recognition(data: TableData, m: str) -> list[Cell]:
    if data.frame is None:
        return [dash()] * 4
    l1 = data.answers(m, "L1", "full")
    rec = data.answers(m, "RECOG", "full")
    l1, rec = l1[l1["label"] == "authentic"], rec[rec["label"] == "authentic"]
    if l1.empty or rec.empty:
        return [dash()] * 4
    both = l1[["item_id", "correct"]].merge(rec[["item_id", "verdict"]], on="item_id")
    recognized = both["verdict"] == "RECOGNISED"
    r, u = rate(both.loc[recognized, "correct"]), rate(both.loc[~recognized, "correct"])
    diff = r - u if recognized.any() and (~recognized).any() else None
    return [num(rate(recognized)), num(r), num(u), signed(diff)]


def table_authentic(data: TableData) -> Table | Skipped:
    """Table 13: authentic accuracy under L1 by domain and by recognition."""
    met = data.metrics
    models = met.has("L1", "full", "all", "auth", data.order)
    if not models:
        return Skipped(13, "no L1 authentic accuracy in metrics.csv")
    domains = ("A1", "A2", "A3", "A4", "A5", "A6")
    cols = [Column("All", "Authentic accuracy, L1 (%)")] + [
        Column(d, "Authentic accuracy, L1 (%)") for d in domains
    ]
    cols = [Column("Model"), *cols] + [
        Column(c, "By recognition (L1)") for c in ("RECOG", "recognized", "not", "Δ")
    ]

    def row(m: str) -> list[Cell]:
        return [
            _model(data, m),
            num(met.get(m, "L1", "full", "all", "auth")),
            *(num(met.get(m, "L1", "full", d, "auth")) for d in domains),
            *_auth_by_recognition(data, m),
        ]

    caption = "Accuracy on authentic images (%, L1, strict scoring) by domain (A1 historical photographs, A2 film stills, A3 sports, A4 paintings, A5 political news, A6 meme templates) and by whether the model recognizes the image (RECOG under Full: share recognized, accuracy on recognized and unrecognized images, difference)."
    notes = [] if data.frame is not None else [f"No recognition split: {data.frame_reason}."]
    return Table(13, caption, cols, _sectioned(data, models, row), notes)


def table_mirror_crop(data: TableData) -> Table | Skipped:
    """Table 19: Full, Mirror and Crop on the peripheral forgeries and all authentic images."""
    met = data.metrics
    models = met.has("L1", "mirror", "peripheral", "det", data.order)
    if not models:
        return Skipped(19, "no L1 results under mirror on the peripheral forgeries in metrics.csv")
    recog = _recog_full(data, models)
    if any(v is not None for v in recog.values()):
        models = order_by(data, models, recog)
    conds = ("full", "mirror", "crop")
    cols = [Column("Model")] + [
        Column(c, "Detection") for c in ("Full", "Mirror", "Crop", "b / c", "p")
    ]
    cols += [Column(c, "KGR") for c in ("Full", "Mirror", "Crop")] + [
        Column(c, "Authentic accuracy") for c in ("Full", "Mirror", "Crop")
    ]
    rows = []
    for m in models:
        bc: list[Cell] = [dash(), dash()]
        if data.frame is not None:
            crop = _forged(data.answers(m, "L1", "crop"), "peripheral")
            mirror = _forged(data.answers(m, "L1", "mirror"), "peripheral")
            if len(crop) and len(mirror):
                res = paired_mcnemar(crop, mirror)
                bc = [
                    Cell(f"{res.b}/{res.c}", f"{res.b}/{res.c}"),
                    _p_cell(mcnemar_exact(res.b, res.c) if res.b + res.c else None),
                ]
        rows.append(
            [
                _model(data, m),
                *(num(met.get(m, "L1", c, "peripheral", "det")) for c in conds),
                *bc,
                *(num(met.get(m, "L1", c, "peripheral", "kgr")) for c in conds),
                *(num(met.get(m, "L1", c, "all", "auth")) for c in conds),
            ]
        )
    caption = "Detection, KGR and authentic accuracy (%, L1) under Full, Mirror and Crop for the peripheral forgeries and all authentic images. b / c: forgeries detected only under Crop / only under Mirror; p: exact McNemar test between them. Rows in the order of Table 7."
    notes = [] if data.frame is not None else [f"No b / c and p: {data.frame_reason}."]
    return Table(19, caption, cols, [(None, rows)], notes)
