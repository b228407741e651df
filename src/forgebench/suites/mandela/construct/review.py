"""Manual review round trip (seed 000 §3.2 / Appendix C: "Manual review then checks whether the
edit reached its intended target and whether any visible artefact reveals the manipulation").

:func:`export_review` writes ``BUILD/review/index.html``: a static sheet, one card per forged
item (the source, the kept edit, every candidate of its specification, the gate results and a
difference heatmap), where a reviewer accepts or rejects each item with a note and saves the
decisions as a JSON file (the browser downloads ``decisions.json``; nothing is sent anywhere).

:func:`import_review` applies such a file to ``BUILD/dataset/items.jsonl``: every decided item's
``provenance.reviewer`` records ``{name, decision, note}``; rejected items leave the dataset (they
are kept in ``BUILD/review/rejected_items.jsonl``), and rejecting an absent-celebrity erase
rejects its swap and k0 siblings too (a triple member without its erase is invalid).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

import numpy as np
from PIL import Image
from pydantic import BaseModel, Field, ValidationError

from forgebench.construct.legacy import CANDIDATES
from forgebench.construct.pixels import mean_abs_diff
from forgebench.construct.render import EDIT_PROBE, stored_record
from forgebench.construct.specs import write_jsonl
from forgebench.construct.workstore import WorkStore
from forgebench.errors import UserError
from forgebench.run.store import DB_NAME
from forgebench.suites.mandela.contract import Item, write_items
from forgebench.util.atomic import write_text
from forgebench.util.paths import InputFileError, read_input_text


class ReviewError(UserError):
    """A review file or build folder that cannot be used (one line)."""


class Decision(BaseModel):
    """One reviewer decision."""

    decision: Literal["accept", "reject"]
    """Keep the item or drop it."""
    note: str = ""
    """Why (free text)."""


class Decisions(BaseModel):
    """The file the review sheet saves."""

    reviewer: str = Field(min_length=1)
    """Who reviewed."""
    decisions: dict[str, Decision]
    """Item id -> decision (items left undecided are absent)."""


def _items(build: Path) -> list[Item]:
    path = build / "dataset" / "items.jsonl"
    if not path.is_file():
        raise ReviewError(f"{path}: not found (review works on a build folder)")
    return [
        Item.model_validate_json(x)
        for x in path.read_text(encoding="utf-8").splitlines()
        if x.strip()
    ]


def _heatmap(a: Path, b: Path, out: Path) -> None:
    from matplotlib import colormaps  # ~0.4 s to import: only the sheet's heatmaps need it

    x = np.asarray(Image.open(a).convert("RGB"))
    y = np.asarray(Image.open(b).convert("RGB").resize((x.shape[1], x.shape[0])))
    d = mean_abs_diff(x, y)
    d = d / max(float(d.max()), 1e-6)
    rgb = (colormaps["inferno"](d)[..., :3] * 255).astype(np.uint8)
    out.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(rgb).save(out)


def _candidates(build: Path) -> dict[str, list[dict[str, Any]]]:
    """Spec id -> its candidates' records (the build's work store), each with its image's
    path relative to ``BUILD/review``."""
    out: dict[str, list[dict[str, Any]]] = {}
    work_dir = build / "work"
    if not (work_dir / DB_NAME).is_file() and not (work_dir / CANDIDATES).is_file():
        return out
    work = WorkStore(work_dir)
    try:
        for t in work.store.current_tasks(EDIT_PROBE):
            rec = stored_record(work, t.item_id, int(t.extra["candidate"]), t.model, t.key)
            if rec is None:
                continue
            src = (
                f"../{work.blob_path(rec.blob).relative_to(build).as_posix()}" if rec.blob else None
            )
            out.setdefault(t.item_id, []).append(rec.model_dump() | {"src": src})
    finally:
        work.close()
    return out


def export_review(build: Path) -> Path:
    """Write the review sheet; returns ``BUILD/review/index.html``."""
    items = _items(build)
    originals = {it.seed_id: it.image for it in items if it.label == "authentic"}
    cands = _candidates(build)
    cards = []
    for it in items:
        if not it.is_forged:
            continue
        heat = f"heatmaps/{it.id}.png"
        if it.seed_id in originals:
            _heatmap(
                build / "dataset" / originals[it.seed_id],
                build / "dataset" / it.image,
                build / "review" / heat,
            )
        prov = (it.model_extra or {}).get("provenance") or {}
        cards.append({
            "id": it.id, "family": it.family, "contradiction": it.contradiction,
            "instruction": it.edit.instruction if it.edit else "",
            "source": f"../dataset/{originals.get(it.seed_id, '')}", "edit": f"../dataset/{it.image}",
            "heatmap": heat, "gates": prov.get("gates", []),
            "candidates": [
                {"index": c["candidate"], "status": c["status"], "message": c.get("message"),
                 "src": c["src"]}
                for c in cands.get(it.id, [])
            ],
        })  # fmt: skip
    # raw text inside <script>: only a closing tag could end it early ("<\/" is the same JSON)
    page = _PAGE.replace("__DATA__", json.dumps(cards).replace("</", "<\\/"))
    out = build / "review" / "index.html"
    write_text(out, page)
    return out


def load_decisions(path: Path) -> Decisions:
    """Read a decisions file; :class:`ReviewError` naming the problem."""
    try:
        return Decisions.model_validate_json(read_input_text(path))
    except InputFileError as exc:
        raise ReviewError(str(exc)) from None
    except ValidationError as exc:
        e = exc.errors()[0]
        where = ".".join(str(p) for p in e["loc"]) or "(file)"
        raise ReviewError(f"{path}: {where}: {e['msg']}") from None


def import_review(build: Path, decisions: Decisions) -> tuple[int, int]:
    """Apply decisions (see the module docstring); returns (accepted, rejected) counts."""
    items = _items(build)
    ids = {it.id for it in items}
    unknown = sorted(set(decisions.decisions) - ids)
    if unknown:
        raise ReviewError(f"decisions name unknown item {unknown[0]!r}")
    rejected = {i for i, d in decisions.decisions.items() if d.decision == "reject"}
    erased_seeds = {it.seed_id for it in items if it.id in rejected and it.variant == "erase"}
    extra = {it.id for it in items if it.seed_id in erased_seeds and it.variant in ("swap", "k0")}
    keep: list[Item] = []
    drop: list[Item] = []
    for it in items:
        d = decisions.decisions.get(it.id)
        prov = dict((it.model_extra or {}).get("provenance") or {})
        if d is not None:
            prov["reviewer"] = {"name": decisions.reviewer, "decision": d.decision, "note": d.note}
        elif it.id in extra:
            prov["reviewer"] = {"name": decisions.reviewer, "decision": "reject",
                                "note": "sibling of a rejected absent-celebrity erase"}  # fmt: skip
        it.provenance = prov  # type: ignore[attr-defined]
        (drop if it.id in rejected | extra else keep).append(it)
    write_items(build / "dataset" / "items.jsonl", keep)
    previous = build / "review" / "rejected_items.jsonl"
    old = [json.loads(x) for x in previous.read_text().splitlines()] if previous.is_file() else []
    write_jsonl(previous, [*old, *(it.model_dump(mode="json") for it in drop)])
    return sum(d.decision == "accept" for d in decisions.decisions.values()), len(drop)


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>forgebench review</title>
<style>
body{font:14px system-ui,sans-serif;margin:1em;background:#fafafa}
.card{background:#fff;border:1px solid #ccc;border-radius:6px;padding:.8em;margin:.8em 0}
.card.accept{border-color:#2a2}.card.reject{border-color:#c22}
.imgs img{max-height:220px;margin-right:.5em;border:1px solid #ddd}
.cands img{max-height:90px}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:2px 6px}
.fail{color:#c22}.pass{color:#2a2}.border{color:#b80}.unchecked{color:#888}
</style></head><body>
<h1>Review</h1>
<p>Reviewer <input id="reviewer" placeholder="your name"> <button id="save">Save decisions</button>
<span id="status"></span></p>
<div id="cards"></div>
<script id="data" type="application/json">__DATA__</script>
<script>
const cards = JSON.parse(document.getElementById('data').textContent);
const root = document.getElementById('cards');
function esc(s){const d=document.createElement('div');d.textContent=s==null?'':String(s);return d.innerHTML;}
function st(g){if(g.passed===null)return'unchecked';if(g.border)return'border';return g.passed?'pass':'fail';}
for (const c of cards) {
  const el = document.createElement('div'); el.className='card'; el.dataset.id=c.id;
  const gates = c.gates.map(g=>`<tr><td>${esc(g.gate)}</td><td class="${st(g)}">${st(g)}</td><td>${esc(g.reason)}</td></tr>`).join('');
  const cands = c.candidates.map(k=>k.src?`<figure><img src="${esc(k.src)}" alt="candidate ${k.index}"><figcaption>#${k.index} ${esc(k.status)}</figcaption></figure>`:`<span>#${k.index} ${esc(k.status)} ${esc(k.message)}</span>`).join('');
  el.innerHTML = `<h2>${esc(c.id)} <small>${esc(c.family)}</small></h2>
    <p>${esc(c.instruction)}</p><p><em>${esc(c.contradiction)}</em></p>
    <div class="imgs"><img src="${esc(c.source)}" alt="source"><img src="${esc(c.edit)}" alt="edit"><img src="${esc(c.heatmap)}" alt="difference heatmap"></div>
    <table>${gates}</table><div class="cands">${cands}</div>
    <label><input type="radio" name="d-${esc(c.id)}" value="accept"> accept</label>
    <label><input type="radio" name="d-${esc(c.id)}" value="reject"> reject</label>
    <input class="note" placeholder="note" size="60">`;
  el.querySelectorAll('input[type=radio]').forEach(r=>r.addEventListener('change',()=>{el.className='card '+r.value;}));
  root.appendChild(el);
}
document.getElementById('save').addEventListener('click', () => {
  const reviewer = document.getElementById('reviewer').value.trim();
  if (!reviewer) { document.getElementById('status').textContent = 'enter your name first'; return; }
  const decisions = {};
  for (const el of root.querySelectorAll('.card')) {
    const r = el.querySelector('input[type=radio]:checked');
    if (r) decisions[el.dataset.id] = {decision: r.value, note: el.querySelector('.note').value};
  }
  const blob = new Blob([JSON.stringify({reviewer, decisions}, null, 1)], {type: 'application/json'});
  const a = document.createElement('a'); a.href = URL.createObjectURL(blob); a.download = 'decisions.json';
  document.body.appendChild(a); a.click(); a.remove();
  document.getElementById('status').textContent = Object.keys(decisions).length + ' decision(s) saved';
});
</script></body></html>
"""
