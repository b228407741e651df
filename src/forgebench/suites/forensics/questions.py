"""Expanding a Forensics dataset into questions: (item, probe, condition) -> prompt and images.

Probes: ``MCQ`` on every item; ``MCQ_CHOICE`` (``--protocol choice``) on every item under ``full``
only, with ``MCQ``'s text and images (its ``choice`` letters tell the server which answers it may
give); ``ATTR`` and ``ATTR_DESC`` on binary-classification forgeries
(:mod:`.attribution`), under ``full`` only. Conditions for ``MCQ``: ``full`` (always), ``tiled``
(candidate rows), the robustness conditions ``<kind>_<level>`` (:mod:`.perturb`), and the studies
``multi_image``, ``prefix``, ``face_boxes`` (:mod:`.studies`), each only on the items it applies
to. Asking for an unknown probe or condition is an error naming it.

Images are :class:`ImageSpec` values: the source files, what is done to them, and a seed. Their
variant id hashes the sources' bytes, the operation, the seed and the renderer version, so the
engine's cache can hold each rendered variant once; ``full`` on a single image renders nothing
(the dataset file is sent as it is). A robustness condition on a multi-image row perturbs the
tiled image (block counts then follow the tile's shorter side). ``multi_image``, and ``full`` on a
candidate row, show several images per question: one ``file`` spec per image, in the row's order;
such a ``full`` question carries its ``tiled`` question as the fallback for a model that takes
one image (:attr:`ForensicsQuestion.fallback`).
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

from forgebench.errors import UserError
from forgebench.suites.forensics.attribution import attribution_question, eligible
from forgebench.suites.forensics.contract import ForensicsItem
from forgebench.suites.forensics.ids import ATTR, ATTR_DESC, CONDITIONS, MCQ, MCQ_CHOICE, PROBES
from forgebench.suites.forensics.ids import PERTURBATIONS as ROBUSTNESS
from forgebench.suites.forensics.perturb import RENDERER_VERSION, image_seed, perturb
from forgebench.suites.forensics.prompt import CHOICE_VERSION, MCQ_VERSION, PAPER_PREFIX, mcq_prompt
from forgebench.suites.forensics.studies import (
    FACE_BOX_NOTE,
    TILED,
    applies,
    candidate_row,
    draw_face_boxes,
    shown_apart,
    tile,
)


class QuestionError(UserError, ValueError):
    """An unknown probe or condition (the message names it and the known ones)."""


@dataclass(frozen=True)
class ImageSpec:
    """One image shown to the model: source file(s) and what is done to them."""

    sources: tuple[Path, ...]
    """Absolute source paths (several only for ``tile``)."""
    op: str
    """``file`` (sent as is), ``tile``, ``face_boxes``, or a robustness condition; ``tile+`` or
    ``face_boxes+`` prefixes a robustness condition applied afterwards."""
    seed: int = 0

    def variant_id(self) -> str:
        """Hash of the sources' bytes, the operation, the seed and the renderer version."""
        h = hashlib.sha256(f"{RENDERER_VERSION}\0{self.op}\0{self.seed}".encode())
        for p in self.sources:
            h.update(hashlib.sha256(p.read_bytes()).digest())
        return h.hexdigest()[:32]

    def render(self) -> bytes:
        """The image's bytes: the file itself for ``file``, else a PNG."""
        if self.op == "file":
            return self.sources[0].read_bytes()
        frames = []
        for p in self.sources:
            with Image.open(p) as im:
                frames.append(im.convert("RGB"))
        base, _, robust = self.op.partition("+")
        if base == "tile":
            image = tile(frames)
        elif base == "face_boxes":
            image = draw_face_boxes(frames[0])
        else:
            image, robust = frames[0], base
        if robust:
            image = perturb(image, robust, self.seed)
        buf = io.BytesIO()
        image.save(buf, format="PNG", compress_level=1)
        return buf.getvalue()


@dataclass(frozen=True)
class ForensicsQuestion:
    """One model-independent question."""

    item_id: str
    probe: str
    condition: str
    text: str
    version: str
    images: tuple[ImageSpec, ...]
    options: dict[str, str] = field(hash=False)
    answer: str
    fallback: ForensicsQuestion | None = None
    """For ``full`` on a candidate row: its ``tiled`` question, for models of one image."""

    @property
    def choice(self) -> tuple[str, ...]:
        """The letters a constrained answer (``MCQ_CHOICE``) may be: the options shown, in order;
        empty for the free-form probes."""
        if self.probe != MCQ_CHOICE:
            return ()
        return tuple(k for k, v in self.options.items() if str(v).strip())


def _check(probes: Iterable[str], conditions: Iterable[str]) -> tuple[list[str], list[str]]:
    ps, cs = list(probes), list(conditions)
    for p in ps:
        if p not in PROBES:
            raise QuestionError(f"unknown Forensics probe {p!r} (known: {', '.join(PROBES)})")
    for c in cs:
        if c not in CONDITIONS:
            raise QuestionError(
                f"unknown Forensics condition {c!r} (known: full, tiled, multi_image, prefix, "
                "face_boxes, "
                "and <saturation|contrast|block|noise|blur|pixelate|jpeg>_<1-5>)"
            )
    return ps, cs


def _images(item: ForensicsItem, root: Path, condition: str, seed: int) -> tuple[ImageSpec, ...]:
    paths = tuple(root / p for p in item.images)
    robust = condition if condition in ROBUSTNESS else ""
    if shown_apart(item, condition):
        return tuple(ImageSpec((p,), "file") for p in paths)
    if condition == "face_boxes":
        return (ImageSpec(paths[:1], "face_boxes"),)
    if len(paths) > 1:
        op = "tile" + (f"+{robust}" if robust else "")
        return (ImageSpec(paths, op, image_seed(seed, item.id) if robust else 0),)
    if not robust:
        return tuple(ImageSpec((p,), "file") for p in paths)
    return tuple(ImageSpec((p,), robust, image_seed(seed, item.id, k)) for k, p in enumerate(paths))


def shown_images(item: ForensicsItem, root: Path, condition: str) -> tuple[ImageSpec, ...]:
    """The images an MCQ question under ``condition`` shows, in order (no prompt built)."""
    return _images(item, root, condition, 0)


def _mcq(
    item: ForensicsItem, root: Path, cond: str, text: str, version: str, seed: int,
    fallback: ForensicsQuestion | None = None, probe: str = MCQ,
) -> ForensicsQuestion:  # fmt: skip
    images = _images(item, root, cond, seed)
    return ForensicsQuestion(
        item.id, probe, cond, text, version, images, dict(item.options), item.answer, fallback
    )


def expand(
    items: Iterable[ForensicsItem],
    root: Path,
    *,
    probes: Iterable[str] = (MCQ,),
    conditions: Iterable[str] = ("full",),
    seed: int = 0,
    prefix: str = PAPER_PREFIX,
) -> Iterator[ForensicsQuestion]:
    """The questions of ``items`` for the requested probes and conditions."""
    ps, cs = _check(probes, conditions)
    for item in items:
        if MCQ in ps:
            for cond in cs:
                if not applies(item, cond):
                    continue
                hint = item.hint
                pre = prefix if cond == "prefix" else None
                if cond == "face_boxes":
                    pre = FACE_BOX_NOTE
                p = mcq_prompt(
                    item.images, item.question, item.options, hint, prefix=pre, version=MCQ_VERSION
                )
                version = f"{MCQ_VERSION}+faces-v1" if cond == "face_boxes" else p.version
                fallback = None
                if cond == "full" and candidate_row(item):
                    fallback = _mcq(item, root, TILED, p.text, version, seed)
                yield _mcq(item, root, cond, p.text, version, seed, fallback)
        if MCQ_CHOICE in ps and "full" in cs:  # MCQ's text; the server holds it to a letter
            p = mcq_prompt(item.images, item.question, item.options, item.hint)
            version = f"{p.version}+{CHOICE_VERSION}"
            fallback = None
            if candidate_row(item):
                fallback = _mcq(item, root, TILED, p.text, version, seed, probe=MCQ_CHOICE)
            yield _mcq(item, root, "full", p.text, version, seed, fallback, probe=MCQ_CHOICE)
        for probe in (x for x in ps if x in (ATTR, ATTR_DESC)):
            if "full" not in cs or not eligible(item):
                continue
            q = attribution_question(item, seed=seed, describe=probe == ATTR_DESC)
            p = mcq_prompt(item.images, q.question, q.options, q.hint, version=q.version)
            yield ForensicsQuestion(
                item.id,
                probe,
                "full",
                p.text,
                p.version,
                _images(item, root, "full", seed),
                q.options,
                q.answer,
            )
