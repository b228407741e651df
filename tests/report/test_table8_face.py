"""Table 8's FACE columns: one pass set (the metrics'), and no numpy text in the CSV."""

from __future__ import annotations

from pathlib import Path

from forgebench.models.base import Response
from forgebench.report.table import to_csv
from forgebench.run.store import Store
from forgebench.run.tasks import Question, make_task
from forgebench.suites.mandela.contract import Item
from forgebench.suites.mandela.frame import load_frame
from forgebench.suites.mandela.metrics import compute_metrics
from forgebench.suites.mandela.tables.inputs import Metrics, TableData, prepare
from forgebench.suites.mandela.tables.probes import table_identity


def _erase(i: int) -> dict:
    return {
        "id": f"e{i}", "seed_id": f"s{i}", "image": f"e{i}.png", "label": "forged",
        "family": "K1", "k1_type": "absent_celebrity", "variant": "erase", "domain": "A1",
        "noun": "photograph", "saliency": "C1",
        "event": {"label": "Yalta Conference", "date": "1945-02-04"},
        "erased": {"name": "Joseph Stalin", "aliases": ["Stalin"]},
        "faces": {"original": [0, 0, 10, 10], "replacement": [0, 0, 10, 10],
                  "original_image": "o.png", "wrong_name": "Leon Trotsky"},
    }  # fmt: skip


def _ask(
    store: Store, item: str, probe: str, cond: str, text: str, extra: dict | None = None
) -> None:
    q = Question(
        item, probe, cond, f"{probe} {cond} {extra}", f"{probe}/v1", None, extra or {}, "mandela"
    )
    task = make_task(q, "m", {})
    store.put_tasks([task])
    store.put_answer(task.key, Response(text=text), 1, 0.1, {})


def test_face_columns_use_the_metrics_pass_set(tmp_path: Path) -> None:
    run = tmp_path / "RUN"
    with Store.open(run) as store:
        store.put_items("mandela", [Item.model_validate(_erase(i)) for i in range(3)])
        # e0 passes; e1 accepts the replacement (fails); e2 rejects the original (fails).
        # Every item rejects the wrong name, which is the control, not a second trial.
        verdicts = {0: ("YES.", "NO."), 1: ("YES.", "YES. Stalin."), 2: ("NO.", "NO.")}
        for i, (o, r) in verdicts.items():
            _ask(
                store,
                f"e{i}",
                "FACE",
                "face_original",
                o,
                {"face": "original", "name_source": "erased"},
            )
            _ask(
                store,
                f"e{i}",
                "FACE",
                "face_original",
                "NO.",
                {"face": "original", "name_source": "wrong_name"},
            )
            _ask(
                store,
                f"e{i}",
                "FACE",
                "face_replacement",
                r,
                {"face": "replacement", "name_source": "erased"},
            )
            _ask(store, f"e{i}", "L0", "full", "REAL. Stalin at Yalta." if i == 0 else "FAKE.")
            _ask(store, f"e{i}", "L2", "full", "Joseph Stalin.")
    frame = load_frame(run)
    met = compute_metrics(frame, None)
    fp = met[(met["metric"] == "face_pass")]
    assert fp["value"].tolist() == [100 / 3] and fp["n"].tolist() == [3]
    data = prepare(TableData(metrics=Metrics(met), groups={}, frame=frame))
    table = table_identity(data)
    header = [c.label for c in table.columns]
    row = table.rows[0]
    cells = dict(zip(header[-3:], row[-3:], strict=True))
    assert cells["pass"].text == "1/3"  # not 1/6 (the wrong-name rows counted as trials)
    assert cells["full real (%)"].text == "100.0" and cells["named (%)"].text == "100.0"
    csv_text = to_csv(table)
    assert "np." not in csv_text and "float64" not in csv_text
    assert ",1,100.0,100.0" in csv_text
