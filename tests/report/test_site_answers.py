"""The viewer's column-wise answers hold what the per-record read holds, answer for answer, and
the pages written from them show what one dict per answer showed: on a run with every kind of
answer (answered with a verdict and grade, unscored, errored, errored without a reason, pending,
superseded, a task whose item the run does not hold, one image, several, none) over two
benchmarks whose item ids collide."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from forgebench.models.base import ImageRef, Response, Usage
from forgebench.report.site import build_site
from forgebench.report.site_answers import read_answers, shown_facets
from forgebench.report.site_data import read_viewer_data
from forgebench.run.store import GRADE_KIND, Judgement, Store
from forgebench.run.tasks import Question, make_task
from support.report_js import load_js

JUDGE = "judge/x"


def _views(verdict: str | None, detail: dict[str, Any]) -> tuple[str | None, str]:
    """A suite's view: the verdict as stored, and the step that found it."""
    return verdict, str(detail.get("step") or "")


def _run(tmp_path: Path) -> Path:
    run = tmp_path / "RUN"
    pic = ImageRef("va", tmp_path / "a.png", "image/png")
    frames = (ImageRef("vf1", tmp_path / "f1.png", "image/png"), pic)

    def task(bm: str, item: str, probe: str, cond: str, model: str, **kw: Any):  # type: ignore[no-untyped-def]
        q = Question(item, probe, cond, kw.pop("prompt", "p"), "v1", benchmark=bm, **kw)
        return make_task(q, model)

    tasks = [  # stored out of (model, probe, condition) order on purpose
        task("mandela", "0", "L1", "full", "zeta", image=pic),
        task("mandela", "0", "L0", "full", "alpha", image=pic),
        task("mandela", "0", "L0", "crop", "alpha", image=pic),
        task("mandela", "b", "L0", "full", "alpha"),  # text-only, pending
        task("forensics", "0", "MCQ", "full", "alpha", images=frames),
        task("forensics", "0", "MCQ", "full", "zeta", images=frames),
        task("forensics", "1", "MCQ", "full", "alpha", image=pic),
        task("forensics", "1", "MCQ", "full", "zeta", image=pic),
        task("forensics", "gone", "MCQ", "full", "alpha", image=pic),  # no such item
    ]
    old = task("mandela", "b", "L1", "full", "alpha", prompt="typo")
    with Store.open(run) as store:
        store.put_items("mandela", [{"id": "0"}, {"id": "b"}])
        store.put_items("forensics", [{"id": "0"}, {"id": "1"}])
        store.put_tasks([*tasks, old])
        store.put_tasks([task("mandela", "b", "L1", "full", "alpha", prompt="fixed")])
        for n in (0, 1, 2, 4, 5, 8):
            text = f"answer {n} </script>" if n else "FAKE: 'quoted'\nsecond line"
            store.put_answer(tasks[n].key, Response(text, {}, Usage(3, 2), "stop"), 1, 0.5, {})
        store.put_answer(old.key, Response("superseded", {}, Usage(1, 1), "stop"), 1, 0.5, {})
        store.put_error(tasks[6].key, "HTTP 500: server fell over", 500, 3)
        store.put_error(tasks[7].key, "", None, 1)
        store.put_verdicts(
            [
                (tasks[0].key, "FAKE", {"step": "letter"}, "p1"),
                (tasks[1].key, "REAL", {}, "p1"),
                (tasks[4].key, "B", {"step": "text"}, "p1"),
                (tasks[5].key, "B", {"step": "text"}, "p1"),
            ]
        )
        store.put_judgements(
            [
                Judgement(tasks[0].key, JUDGE, GRADE_KIND, "graded", "r", JUDGE, "E3", 3, "why"),
                Judgement(tasks[1].key, JUDGE, GRADE_KIND, "unscored", "r", JUDGE, None, None, "?"),
                Judgement(tasks[2].key, "judge/other", GRADE_KIND, "graded", "r", "o", "E1", 1),
            ]
        )
    return run


def _expected(run: Path, judge: str) -> list[list[tuple[Any, ...]]]:
    """Each item's answers from the per-record read, ordered as the viewer orders them."""
    with Store.open(run, create=False) as store:
        items = [(bm, it["id"]) for bm, it in store.all_items()]
        by_item: dict[tuple[str, str], list[tuple[Any, ...]]] = {key: [] for key in items}
        for r in store.records(judged=[(judge, GRADE_KIND)]):
            grade = r.judged[0]
            answered = r.text is not None
            row = (
                r.model, r.probe, r.condition, r.text,
                r.verdict if answered else None, r.verdict_json if answered else None,
                grade.level if grade else None, grade.status if grade else None,
                grade.reason if grade else None, None if answered else r.error,
                r.benchmark, r.item_id, r.images,
            )  # fmt: skip
            if (r.benchmark, r.item_id) in by_item:
                by_item[(r.benchmark, r.item_id)].append(row)
    return [sorted(rows, key=lambda a: a[:3]) for rows in by_item.values()]


def _columns(run: Path, judge: str) -> list[list[tuple[Any, ...]]]:
    with Store.open(run, create=False) as store:
        items = [(bm, it["id"]) for bm, it in store.all_items()]
        ans = read_answers(store, judge, items)
    col = {n: ans.column(n) for n in ans.table.column_names}
    groups, at = ans.image_groups()
    out = []
    for k in range(len(items)):
        rows = []
        for i in range(int(ans.starts[k]), int(ans.starts[k + 1])):
            yes = bool(col["answered"][i])
            rows.append(
                (
                    ans.models[ans.model_pos[i]], ans.probes[ans.probe_pos[i]],
                    ans.conditions[ans.condition_pos[i]], col["text"][i],
                    col["verdict"][i] if yes else None, col["verdict_json"][i] if yes else None,
                    col["level"][i], col["status"][i], col["reason"][i],
                    None if yes else col["error"][i], col["benchmark"][i], col["item_id"][i],
                    groups[at[i]],
                )
            )  # fmt: skip
            assert (col["model"][i], col["probe"][i]) == rows[-1][:2]
        out.append(rows)
    return out


def test_the_column_read_holds_every_answer_the_records_hold(tmp_path: Path) -> None:
    run = _run(tmp_path)
    for judge in (JUDGE, "judge/other", "nobody"):
        expected = _expected(run, judge)
        assert _columns(run, judge) == expected, judge
    mandela_0, mandela_b, forensics_0, forensics_1 = _expected(run, JUDGE)
    assert [a[:3] for a in mandela_0] == [
        ("alpha", "L0", "crop"), ("alpha", "L0", "full"), ("zeta", "L1", "full")
    ]  # fmt: skip
    pending = [(probe, "full", *[None] * 7, "mandela", "b", ()) for probe in ("L0", "L1")]
    assert [a[1:] for a in mandela_b] == pending  # the one that superseded "typo" is pending too
    assert [a[9] for a in forensics_1] == ["HTTP 500: server fell over", ""]
    assert len(forensics_0[0][12]) == 2 and mandela_0[0][6:9] == (None, None, None)


def test_pages_show_each_answer_as_the_per_record_path_showed_it(tmp_path: Path) -> None:
    run = _run(tmp_path)
    (tmp_path / "a.png").write_bytes(b"not read: no dataset folder")
    build_site(run, judge=JUDGE, page_size=3, answer_views={"forensics": _views})
    data = read_viewer_data(run, JUDGE)
    ids = [it["id"] for it in data.items]
    assert ids == ["mandela/0", "mandela/b", "forensics/0", "forensics/1"]  # ids collide
    index = load_js(run / "report" / "data" / "index.js", "index")
    pages = [load_js(p, "page") for p in sorted((run / "report" / "data").glob("page-*.js"))]
    shown = {it["id"]: it["answers"] for page in pages for it in page["items"]}
    assert list(shown) == ids
    for item_id, rows in zip(ids, _expected(run, JUDGE), strict=True):
        want = []
        for m, p, c, text, verdict, detail, level, status, reason, error, bm, _i, imgs in rows:
            v, lv, note = shown_facets(
                bm, verdict, detail, text is not None, bool(error), level, status,
                {"forensics": _views},
            )  # fmt: skip
            a = {"m": m, "p": p, "c": c, "t": text, "v": v, "l": lv, "r": reason, "e": error}
            if note:
                a["s"] = note
            if imgs:
                a["i"] = [None] * len(imgs)  # pictures not on disk: named, not shown
            want.append(a)
        assert shown[item_id] == want, item_id
    by_id = {r[0]: r for r in index["rows"]}
    assert len(by_id["mandela/0"][6]) == 3 and len(by_id["forensics/1"][6]) == 2
    f1 = shown["forensics/1"]
    assert [a["v"] for a in f1] == ["ERROR", "PENDING"]  # an error without a reason: pending
    assert shown["forensics/0"][0]["s"] == "text" and "s" not in shown["mandela/0"][0]
    assert shown["mandela/0"][2]["v"] == "FAKE" and shown["mandela/0"][2]["l"] == "E3"
    assert shown["mandela/0"][1]["l"] == "unscored" and shown["mandela/b"][0]["l"] == "none"
    assert "</script>" not in (run / "report" / "data" / "page-0000.js").read_text()
