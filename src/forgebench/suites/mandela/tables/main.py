"""Tables of seed 000 read from ``metrics.csv``: 2/5 (main results), 3/6 (people family),
14 (saliency), 15 (E4), 16 (parsed detection by family), 17/18 (de-recognition sweeps) and
21 (decision rule). McNemar marks of Tables 3/6 use the row-level frame when it is present.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from forgebench.analysis.decision import classify, erase_swap_ratio
from forgebench.analysis.stats import as_bool, paired_arrays
from forgebench.report.table import Cell, Column, Skipped, Table, dash, num, signed, text
from forgebench.suites.mandela.contract import FAMILIES
from forgebench.suites.mandela.tables.inputs import TableData, flag, rate

DERECOG = (
    ("full", "Full", "F"),
    ("full_caption", "Full+Caption", "FC"),
    ("crop", "Crop", "C"),
    ("crop_caption", "Crop+Caption", "CC"),
)
RATE_LABELS = {"kgr": "KGR", "det": "Det", "auth": "Auth", "bal": "Bal"}


def _model(data: TableData, model: str, extra: str = "") -> Cell:
    return text(model, marks=data.marks(model) + extra)


def _sectioned(
    data: TableData, models: list[str], row: Callable[[str], list[Cell]]
) -> list[tuple[str | None, list[list[Cell]]]]:
    return [(heading, [row(m) for m in ms]) for heading, ms in data.sections(models)]


def table_main_results(data: TableData, number: int) -> Table | Skipped:
    """Table 2 (main-text models) or Table 5 (all models)."""
    met = data.metrics
    models = data.main() if number == 2 else data.order
    models = [
        m
        for m in models
        if met.get(m, "L0", "full", "all", "kgr") is not None
        or met.get(m, "L1", "full", "all", "kgr") is not None
    ]
    if not models:
        return Skipped(
            number, "no L0/L1 KGR under full in metrics.csv (run L0 and L1 and judge them)"
        )
    cols = [Column("Model")]
    cols += [Column(RATE_LABELS[r], "Default (L0)") for r in ("kgr", "det", "auth", "bal")]
    cols += [Column(RATE_LABELS[r], "Prompted (L1)") for r in ("kgr", "det", "auth", "bal")]
    cols += [Column("Auth", "L-adv")]
    cols += [Column(f, "KGR by knowledge family (L0)") for f in FAMILIES]
    cols += [Column("ΔKGR", "Derived")]

    def row(m: str) -> list[Cell]:
        cells = [_model(data, m)]
        for probe in ("L0", "L1"):
            cells += [
                num(met.get(m, probe, "full", "all", r)) for r in ("kgr", "det", "auth", "bal")
            ]
        cells.append(num(met.get(m, "L-adv", "full", "all", "auth")))
        cells += [num(met.get(m, "L0", "full", f, "kgr")) for f in FAMILIES]
        gap = met.get(m, "L1", "full", "all", "gap")
        if gap is None:
            k0, k1 = met.get(m, "L0", "full", "all", "kgr"), met.get(m, "L1", "full", "all", "kgr")
            gap = k1 - k0 if k0 is not None and k1 is not None else None
        cells.append(signed(gap))
        return cells

    which = f"the {len(models)} main-text models" if number == 2 else f"all {len(models)} models"
    caption = (
        f"Main results (strict scoring) for {which}. KGR, Det, Auth and Bal: knowledge-grounded rate, "
        "forgery detection, authentic-image accuracy and balanced accuracy (%). Left: L0, L1 and L-adv; "
        "right: L0 KGR by knowledge family. ΔKGR = KGR(L1) - KGR(L0), the elicitation gap. "
        "Rows sorted by L1 KGR within each group."
    )
    notes = [f"† also the judge ({data.judge})."] if any(data.marks(m) for m in models) else []
    if number == 2 and not data.main_models and len(data.order) > len(models):
        notes.append(
            "Main-text models: the first 15 of Table 5's order (pass main_models to choose)."
        )
    return Table(number, caption, cols, _sectioned(data, models, row), notes)


def _recog_share(data: TableData, m: str) -> float | None:
    met = data.metrics
    for subset in ("peripheral_K1", "peripheral", "forged"):
        v = met.get(m, "RECOG", "full", subset, "recog")
        if v is not None:
            return v
    return None


def _mcnemar_bold(data: TableData, model: str, condition: str) -> bool:
    """Det under ``condition`` differs from Full on the peripheral people-family forgeries (p < 0.05)."""
    if data.frame is None:
        return False
    # per-row arrays of the whole frame, indexed by each arm's rows: slicing the frame per
    # model and condition costs more than the test
    item = data.whole("item_id", lambda f: f["item_id"].to_numpy())
    correct = data.whole("correct", lambda f: as_bool(f["correct"]))
    peripheral = data.whole(
        "forged_peripheral_K1",
        lambda f: (
            (f["label"] == "forged").to_numpy(dtype=bool)
            & flag(f, "peripheral_K1").to_numpy(dtype=bool)
        ),
    )
    a, b = (data.rows(model, "L1", c) for c in ("full", condition))
    a, b = a[peripheral[a]], b[peripheral[b]]
    if not len(a) or not len(b):
        return False
    return paired_arrays(item[a], correct[a], item[b], correct[b]).p < 0.05


def table_people(data: TableData, number: int) -> Table | Skipped:
    """Table 3 (main-text models) or Table 6 (all): de-recognition and absent-celebrity blocks."""
    met = data.metrics
    base = data.main() if number == 3 else data.order
    models = [
        m
        for m in base
        if met.get(m, "L1", "full", "peripheral_K1", "det") is not None
        or met.get(m, "L0", "full", "erase", "det") is not None
    ]
    if not models:
        return Skipped(
            number, "no L1 results on peripheral_K1 and no L0 results on erase items in metrics.csv"
        )
    cols = [Column("Model")]
    for _, label, _ in DERECOG:
        cols += [Column(x, label) for x in ("Det", "Bal", "KGR")]
    cols += [Column(x, "Absent-celebrity (L0)") for x in ("Erase", "Swap", "K0", "Named", "& Real")]
    cols += [Column("Cap.", "Derived"), Column("Pen.", "Derived")]

    def row(m: str) -> list[Cell]:
        share = _recog_share(data, m)
        cells = [_model(data, m, "¶" if share is not None and share < 50 else "")]
        for cond, _, _ in DERECOG:
            det = met.get(m, "L1", cond, "peripheral_K1", "det")
            bold = cond != "full" and det is not None and _mcnemar_bold(data, m, cond)
            d = num(det)
            cells.append(Cell(d.raw, d.text, bold=bold))
            cells += [num(met.get(m, "L1", cond, "peripheral_K1", r)) for r in ("bal", "kgr")]
        cells += [num(met.get(m, "L0", "full", s, "det")) for s in ("erase", "swap", "triple_k0")]
        cells += [num(met.get(m, "L0", "full", "erase", k)) for k in ("named", "named_real")]
        cap = met.get(m, "L1", "full_caption", "peripheral_K1", "cap")
        if cap is None:
            fc, f = (
                met.get(m, "L1", "full_caption", "peripheral_K1", "det"),
                met.get(m, "L1", "full", "peripheral_K1", "det"),
            )
            cap = fc - f if fc is not None and f is not None else None
        pen = met.get(m, "L1", "crop_caption", "peripheral_K1", "pen")
        if pen is None:
            cc, f = (
                met.get(m, "L1", "crop_caption", "peripheral_K1", "bal"),
                met.get(m, "L1", "full", "peripheral_K1", "bal"),
            )
            pen = cc - f if cc is not None and f is not None else None
        return [*cells, signed(cap), signed(pen)]

    caption = (
        "People-family analyses. Left: peripheral people-family forgeries under L1 in the four "
        "de-recognition conditions (Det, Bal, KGR, %). Right: absent-celebrity items under L0: detection "
        "of erasures, same-seed swaps and K0 controls; Named: answers naming the erased person; & Real: "
        "naming that person while judging the image authentic. Cap. = Det(Full+Caption) - Det(Full); "
        "Pen. = Bal(Crop+Caption) - Bal(Full). Bold Det: exact McNemar p < 0.05 against Full. "
        "¶ recognizes fewer than half of the images under Full."
    )
    notes = [] if data.frame is not None else [f"No McNemar marks: {data.frame_reason}."]
    return Table(number, caption, cols, _sectioned(data, models, row), notes)


def table_saliency(data: TableData) -> Table | Skipped:
    """Table 14: detection and KGR under L1 by saliency class."""
    met = data.metrics
    models = [
        m
        for m in data.order
        if any(met.get(m, "L1", "full", s, "det") is not None for s in ("C1", "C2", "C3"))
    ]
    if not models:
        return Skipped(14, "no L1 results by saliency (subsets C1-C3) in metrics.csv")
    cols = [Column("Model")] + [Column(s, "Detection") for s in ("C1", "C2", "C3", "C1 - C3")]
    cols += [Column(s, "KGR") for s in ("C1", "C2", "C3")]

    def row(m: str) -> list[Cell]:
        det = [met.get(m, "L1", "full", s, "det") for s in ("C1", "C2", "C3")]
        diff = det[0] - det[2] if det[0] is not None and det[2] is not None else None
        kgr = [met.get(m, "L1", "full", s, "kgr") for s in ("C1", "C2", "C3")]
        return [_model(data, m), *map(num, det), signed(diff), *map(num, kgr)]

    caption = "Detection and KGR (%, L1, strict scoring) by saliency of the edit over all families: C1 main figure, C2 secondary figure, C3 background."
    return Table(14, caption, cols, _sectioned(data, models, row))


def table_e4(data: TableData) -> Table | Skipped:
    """Table 15: E4 next to KGR (E3+), and the people family without threshold-borderline items."""
    met = data.metrics
    models = [
        m
        for m in data.order
        if met.get(m, "L0", "full", "all", "e4") is not None
        or met.get(m, "L1", "full", "all", "e4") is not None
    ]
    if not models:
        return Skipped(15, "no e4 metric in metrics.csv (grade the answers with a judge)")
    f = data.frame
    border = (
        f is not None
        and "face_sim_border" in f.columns
        and bool(f["face_sim_border"].notna().any())
    )
    cols = [
        Column("Model"),
        Column("E3+", "L0"),
        Column("E4", "L0"),
        Column("E3+", "L1"),
        Column("E4", "L1"),
    ]
    cols += [
        Column("all", "K1 Det (L1)"),
        Column("no border", "K1 Det (L1)"),
        Column("all", "K1 KGR (L1)"),
        Column("no border", "K1 KGR (L1)"),
    ]

    def no_border(m: str) -> tuple[Cell, Cell]:
        if not border or f is None:
            return dash(), dash()
        sub = data.answers(m, "L1", "full")
        sub = sub[
            (sub["family"] == "K1") & (sub["label"] == "forged") & ~flag(sub, "face_sim_border")
        ]
        if sub.empty:
            return dash(), dash()
        kgr = rate(pd.to_numeric(sub["level"], errors="coerce").fillna(0) >= 3)
        return num(rate(sub["correct"])), num(kgr)

    def row(m: str) -> list[Cell]:
        nb_det, nb_kgr = no_border(m)
        return [
            _model(data, m),
            num(met.get(m, "L0", "full", "all", "kgr")),
            num(met.get(m, "L0", "full", "all", "e4")),
            num(met.get(m, "L1", "full", "all", "kgr")),
            num(met.get(m, "L1", "full", "all", "e4")),
            num(met.get(m, "L1", "full", "K1", "det")),
            nb_det,
            num(met.get(m, "L1", "full", "K1", "kgr")),
            nb_kgr,
        ]

    caption = "E4 rate next to KGR (E3+) under L0 and L1 over all forgeries, and people-family (K1) detection and KGR under L1, all items and without the items whose face-similarity score lies within ±0.05 of the acceptance threshold (%, strict scoring)."
    notes = (
        []
        if border
        else [
            "No item carries face_similarity {value, threshold, model}: 'no border' columns left empty."
        ]
    )
    return Table(15, caption, cols, _sectioned(data, models, row), notes)


def table_parsed_family(data: TableData) -> Table | Skipped:
    """Table 16: L0 detection by family over items with a parsed verdict (whole percent)."""
    met = data.metrics
    models = [
        m
        for m in data.order
        if any(met.get(m, "L0", "full", k, "det_parsed") is not None for k in FAMILIES)
    ]
    if not models:
        return Skipped(16, "no det_parsed by family under L0 in metrics.csv")
    cols = [Column("Model")] + [Column(k) for k in FAMILIES]
    rows = [
        [text(m), *(num(met.get(m, "L0", "full", k, "det_parsed"), 0) for k in FAMILIES)]
        for m in models
    ]
    caption = "Detection rate (%) on forgeries under the default probe (L0) by knowledge family, over items with a parsed verdict. Rows in the order of Table 2."
    return Table(16, caption, cols, [(None, rows)])


def table_sweeps(data: TableData, number: int) -> Table | Skipped:
    """Table 17 (strict) or 18 (parsed-only): the four de-recognition conditions."""
    met = data.metrics
    parsed = number == 18
    suffix = "_parsed" if parsed else ""
    models = [
        m
        for m in data.order
        if all(
            met.get(m, "L1", c, "peripheral_K1", "det" + suffix) is not None
            for c in ("full_caption", "crop", "crop_caption")
        )
    ]
    if not models:
        return Skipped(
            number,
            f"no model with L1 det{suffix} under full_caption, crop and crop_caption on peripheral_K1",
        )
    blocks = [
        ("det", "Detection on forgeries (%)"),
        ("auth", "Authentic accuracy (%)"),
        ("bal", "Balanced accuracy (%)"),
    ]
    if not parsed:
        blocks.append(("kgr", "KGR (%)"))
    cols = [Column("Model")] + [
        Column(short, title) for _, title in blocks for _, _, short in DERECOG
    ]

    def row(m: str) -> list[Cell]:
        cells = [_model(data, m)]
        for metric, _ in blocks:
            name = metric if metric == "kgr" else metric + suffix
            cells += [num(met.get(m, "L1", cond, "peripheral_K1", name)) for cond, _, _ in DERECOG]
        return cells

    if parsed:
        caption = "De-recognition conditions of Table 3 under parsed-only scoring (items without a parsed verdict excluded from the denominator); F, FC, C, CC: Full, Full+Caption, Crop, Crop+Caption. KGR is unchanged by the convention and is omitted."
    else:
        caption = "All four de-recognition conditions for every model with condition variants (peripheral people-family forgeries and their authentic originals, L1, strict scoring): detection, authentic accuracy, balanced accuracy and KGR under Full (F), Full+Caption (FC), Crop (C) and Crop+Caption (CC)."
    return Table(number, caption, cols, [(None, [row(m) for m in models])])


def table_decision(data: TableData) -> Table | Skipped:
    """Table 21: the preregistered decision rule (Appendix M) applied to every model."""
    met = data.metrics
    models = [m for m in data.order if met.get(m, "L0", "full", "swap", "det") is not None]
    if not models:
        return Skipped(
            21, "no L0 detection on swap items (absent-celebrity triples) in metrics.csv"
        )
    cols = [Column(c) for c in ("Model", "Erase (%)", "Swap (%)", "Ratio", "E4 (%)", "Outcome")]
    rows = []
    for m in models:
        erase = met.get(m, "L0", "full", "erase", "det")
        swap = met.get(m, "L0", "full", "swap", "det")
        e4 = met.get(m, "L0", "full", "erase", "e4")
        if erase is None or swap is None or e4 is None:
            outcome, ratio = "n/a (missing data)", None
        else:
            outcome = classify(erase, swap, e4)
            ratio = erase_swap_ratio(erase, swap)
            if outcome == "n/a":
                outcome = "n/a (swap ≤ 10)"
        rows.append([_model(data, m), num(erase), num(swap), num(ratio, 3), num(e4), text(outcome)])
    caption = "Application of the preregistered rule (L0, strict scoring). Ratio: erase detection over swap detection; E4: share of the erase items whose verdict states the contradiction. Collapse: ratio < 0.6 and E4 < 15; no collapse: ratio ≥ 0.8 and E4 ≥ 30; otherwise intermediate; models detecting at most one swap in ten are listed without a ratio. Rows in the order of Table 2."
    return Table(21, caption, cols, [(None, rows)])
