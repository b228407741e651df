"""The offline demo benchmark: a small Mandela-format dataset built from images that ship with
packages (scikit-image, matplotlib) and scenes rendered here.

:func:`build_demo` goes through the construction pipeline like any user's benchmark: it writes
the seed folder ``OUT/seeds`` (canonical images, scene records, fact table, the edit
specifications as proposals; :mod:`forgebench.demo.seedfolder`), verifies the proposals against
the facts (their contradictions are the computed ones), and renders them with the ``local/auto``
editor through ``forgebench build`` (candidates in ``OUT/work``, gates recorded in each item's
provenance). The result is ``OUT/dataset`` with ``items.jsonl``, ``images/`` and ``kb.jsonl``:
11 seeds, each contributing its untouched original as an authentic item, and 33 forgeries (44
items) covering every family K0-K6 (K0 controls name the family they control), the three K1
types, one absent-celebrity triple (erase / swap / k0 on one seed, the erase item with ``erased``
and ``faces`` for the FACE probe), peripheral (C2/C3) items with crops, wrong-event captions on the
peripheral people-family items and their originals, and all six domains.

Honesty of the annotations: every edit region is the bounding box of the pixels that differ
between the forgery and its original (measured, not declared); a forgery that changes nothing is
an error. Crops follow DESIGN.md: peripheral items carry a crop containing their edit region; an
authentic original carries the crop of its seed's peripheral people-family item when there is
one, else of its first peripheral item (the paper pairs one crop per seed and is silent on seeds
with several peripheral edits).

Every image, forged and authentic alike, passes one JPEG round trip at quality 92 (the paper's
normalisation, Appendix C) before it is stored as PNG (the builder's ``store="png"``); regions
are measured after it.

Determinism: all noise is seeded, fonts ship with matplotlib and images are written as PNG
without timestamps, so two builds give identical bytes (for pinned Pillow / libjpeg / zlib /
OpenCV versions).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from forgebench.construct.build import BuildConfig, build
from forgebench.construct.edit_api import make_editor
from forgebench.construct.facts import Knowledge
from forgebench.construct.scenes import load_facts, load_scenes
from forgebench.construct.specs import load_specs, write_jsonl
from forgebench.construct.verify import verify_specs
from forgebench.demo import photos as demo_photos
from forgebench.demo import rendered as demo_rendered
from forgebench.demo import rendered_culture as demo_culture
from forgebench.demo import specs as demo_specs
from forgebench.demo.seedfolder import write_seed_folder
from forgebench.demo.specs import SeedSpec
from forgebench.errors import UserError
from forgebench.run.lock import RunLocked, run_lock
from forgebench.util import built
from forgebench.util.owned import mark, remove_folder


class DemoError(UserError):
    """The demo could not be built where asked; the message is one clear line."""


KB: tuple[dict[str, Any], ...] = (
    {
        "id": "demo:grace-hopper",
        **demo_specs.HOPPER,
        "born": "1906-12-09",
        "died": "1992-01-01",
        # the hopper seed is her official portrait: the reference of the face-identity gate
        "portraits": ["images/hopper.png"],
        # on active duty at the Naval Data Automation Command, Washington, D.C., from her
        # promotion to commodore until her retirement (public record)
        "places": [
            {
                "place": "Naval Data Automation Command, Washington, D.C.",
                "from": "1983-12-15",
                "to": "1986-08-14",
            }
        ],
    },
    {"id": "demo:eileen-collins", **demo_specs.COLLINS, "born": "1956-11-19"},
    {
        "id": "demo:smartphone",
        "name": "smartphone",
        "aliases": ["iPhone", "touchscreen phone"],
        "introduced": "2007-06-29",
    },
    {
        "id": "demo:jet-airliner",
        "name": "jet airliner",
        "aliases": ["de Havilland Comet"],
        "introduced": "1949-07-27",
    },
    {
        "id": "demo:var",
        "name": "VAR",
        "aliases": ["video assistant referee"],
        "introduced": "2018-06-16",
    },
    {"id": "demo:falcon-9", "name": "Falcon 9", "aliases": [], "introduced": "2010-06-04"},
    {
        "id": "demo:nagano-1998",
        "name": "1998 Winter Olympics",
        "aliases": ["Nagano 1998"],
        "introduced": "1998-02-07",
    },
)
"""Knowledge-base rows for the entities the demo's contradictions rest on (public facts)."""


def seeds() -> list[SeedSpec]:
    """Every seed of the demo with its forgeries, in dataset order."""
    photos = [
        demo_photos.astronaut(),
        demo_photos.hopper(),
        demo_photos.rocket(),
        demo_photos.hubble(),
    ]
    return photos + [build() for build in (*demo_rendered.ALL, *demo_culture.ALL)]


ENFORCED_GATES = ["footprint", "pixar_effectiveness"]
"""Gates that may reject a demo candidate. The face gates run on every people-family item and
are recorded in its provenance (``face_similarity`` too) but do not reject: the small background
figure pasted into the astronaut portrait has a face below the detector's usable size and its
SFace similarity lands in the border band, which the demo keeps as an example of a flagged item."""


def build_pipeline(out: Path) -> Path:
    """Write the seed folder ``out/seeds``, verify its proposals and build ``out/dataset`` with
    the local editor; returns the dataset folder. A dataset that is exactly what the last
    complete build wrote with this recipe is kept as it is (:mod:`forgebench.util.built`). Holds
    ``out/work``'s lock throughout (another process building there: :class:`DemoError`)."""
    try:
        with run_lock(out / "work", "demo"):
            if built.unchanged(out / "dataset"):
                return out / "dataset"
            built.forget(out / "dataset")
            dataset = _pipeline(out)
            built.remember(dataset)
            return dataset
    except RunLocked as exc:
        raise DemoError(str(exc)) from None


def _pipeline(out: Path) -> Path:
    seeds_dir = out / "seeds"
    remove_folder(seeds_dir, "dataset")
    proposals = write_seed_folder(seeds_dir, seeds(), list(KB))
    mark(seeds_dir, "dataset")
    know = Knowledge.of(load_scenes(seeds_dir), load_facts(seeds_dir))
    accepted, rejected = verify_specs(load_specs(proposals), know, seeds_dir)
    if rejected:
        r = rejected[0]
        raise DemoError(f"demo proposal {r.spec.id} rejected: {r.verification.reason}")
    write_jsonl(seeds_dir / "specs.jsonl", (a.row() for a in accepted))
    cfg = BuildConfig(max_candidates=1, store="png", enforce=ENFORCED_GATES)
    verification = {a.spec.id: a.verification.model_dump() for a in accepted}
    rep = build(
        seeds_dir,
        [a.spec for a in accepted],
        know,
        make_editor("local/auto"),
        out,
        cfg,
        verification,
    )
    dataset = rep.written.get("mandela")
    if rep.dropped or dataset is None:
        sid, why = rep.dropped[0] if rep.dropped else ("-", "no dataset written")
        raise DemoError(f"demo forgery {sid} was not built: {why}")
    if dataset.problems:
        raise DemoError(f"the demo dataset is invalid: {dataset.problems[0]}")
    return dataset.path


def build_demo(out: Path) -> Path:
    """Build the demo dataset as ``out/dataset`` (through ``out/seeds`` and ``out/work``) and
    return that folder.

    The dataset is assembled in a temporary sibling folder and moved into place, so an
    interrupted build leaves nothing half-written. An existing ``out/dataset`` is kept when the
    last complete build wrote it, unchanged since, with this recipe, and otherwise replaced only
    when it is a dataset folder (holds ``items.jsonl``); anything else there is refused with
    :class:`DemoError`.
    """
    out = Path(out)
    refuse_other_folder(out)
    out.mkdir(parents=True, exist_ok=True)
    return build_pipeline(out)


def refuse_other_folder(out: Path) -> None:
    """:class:`DemoError` when ``out/dataset`` exists and is not a dataset folder (a file, or a
    folder holding things but no ``items.jsonl``): the demo writes nothing there. The demo
    checks this before it starts its build process and loads the verifier's models (about two
    CPU-seconds for an answer known at once); :func:`build_demo` checks it again."""
    target = Path(out) / "dataset"
    if target.exists() and (
        not target.is_dir() or (any(target.iterdir()) and not (target / "items.jsonl").is_file())
    ):
        raise DemoError(f"{target}: exists and is not a dataset folder; choose another --out")
