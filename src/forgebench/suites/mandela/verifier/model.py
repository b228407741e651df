"""``builtin/verifier``: an offline model backend that answers the Mandela probes by checking the
image against a knowledge base with real tools (OCR, face identity, canonical-scene matching).

Spec: ``builtin/verifier@KB_FOLDER`` (or ``extra_body = {kb = "KB_FOLDER"}`` in a models file;
``face_threshold`` overrides :data:`faces.MATCH_THRESHOLD`). It sees what any model sees, the
prompt and the image, plus the KB: never the item's label, family, edit region or contradiction,
and it does not read ``Request.meta`` beyond the probe id (the item id there is ignored).

Each image variant is analysed once (cached by its content-derived variant id): the scene match
for every image probe, faces for the verdict probes, L2 and FACE, OCR for the verdict probes.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import numpy as np

from forgebench.models.base import ModelError, Request, Response, Usage, image_limit
from forgebench.models.images import load_rgb
from forgebench.models.spec import ModelConfig, SpecError
from forgebench.suites.mandela.verifier import answer, faces, ocr, prompts, threads, toolcache
from forgebench.suites.mandela.verifier.kb import KBError, KnowledgeBase, load_kb
from forgebench.suites.mandela.verifier.objects import object_findings
from forgebench.suites.mandela.verifier.reasoning import (
    Event,
    Finding,
    Observation,
    SeenFace,
    absent_findings,
    person_findings,
    text_findings,
)
from forgebench.suites.mandela.verifier.scenes import SceneIndex, SceneMatch
from forgebench.suites.mandela.verifier.toolcache import MISS, ToolCache

VERDICT_PROBES = frozenset({"L0", "L1", "L-adv"})
_ORDER = (
    "absent",
    "person_date",
    "person_place",
    "person_not_recorded",
    "text_anachronism",
    "text",
    "colour",
    "missing_object",
)


class Verifier:
    """The tools and the KB, with no dependence on the runner (usable from a notebook)."""

    def __init__(
        self,
        kb: KnowledgeBase,
        face_threshold: float = faces.MATCH_THRESHOLD,
        tool_cache: Path | None = None,
    ) -> None:
        self.kb = kb
        self.face_threshold = face_threshold
        self._portraits = {e.id: [kb.path(p) for p in e.portraits] for e in kb.facts if e.portraits}
        for paths in self._portraits.values():  # an unreadable portrait fails here, once
            for path in paths:
                faces.check_portrait(path)
        self._gallery: faces.Gallery | None = None
        self._gallery_lock = threading.Lock()
        self.scenes = SceneIndex(kb.scenes, kb.root)
        self.tool_folder = tool_cache
        self.disk = (
            None if tool_cache is None else ToolCache(tool_cache, kb.fingerprint(), self.scenes)
        )
        """Tool results kept on disk between runs (:mod:`.toolcache`), when a folder is given."""
        self._lock = threading.Lock()
        self._cache: dict[tuple[str, str], Any] = {}
        self._flights: dict[tuple[str, str], threading.Lock] = {}

    @property
    def gallery(self) -> faces.Gallery:
        """The KB's portraits embedded, on first use: a resumed run whose answers are all stored
        embeds none (like the scene index's features, :class:`.SceneIndex`)."""
        with self._gallery_lock:
            if self._gallery is None:
                self._gallery = faces.Gallery.from_portraits(self._portraits, self.face_threshold)
            return self._gallery

    def _cached(self, key: str, part: str, compute: Any) -> Any:
        """``compute()`` once per ``(key, part)``, even when several tasks on one image ask at once.

        A single flight: the first caller computes while later callers for the same key wait on
        its per-key lock and then read its value, so two probes of one image (L0 and L1 arrive
        together) never run OCR or face detection twice. Different keys run in parallel.
        """
        slot = (key, part)
        with self._lock:
            if slot in self._cache:
                return self._cache[slot]
            flight = self._flights.setdefault(slot, threading.Lock())
        with flight:
            with self._lock:
                if slot in self._cache:
                    return self._cache[slot]
            value = MISS if self.disk is None else self.disk.get(key, part)
            try:
                if value is MISS:
                    value = compute()
                    if self.disk is not None:
                        self.disk.put(key, part, value)
            except BaseException:
                with self._lock:
                    self._flights.pop(slot, None)
                raise
            with self._lock:
                if len(self._cache) > 4096:
                    self._cache.clear()
                self._cache[slot] = value
                self._flights.pop(slot, None)
        return value

    def _scene(self, rgb: np.ndarray, key: str) -> SceneMatch | None:
        scene: SceneMatch | None = self._cached(
            key, "scene", lambda: threads.VISION.call(self.scenes.match, rgb)
        )
        return scene

    def _tools(
        self, rgb: np.ndarray, key: str, *, text: bool, people: bool
    ) -> tuple[SceneMatch | None, list[faces.Face], list[ocr.TextLine]]:
        """The scene match, and the faces and text asked for, of one image (cached under
        ``key``): what :meth:`observe` sees before it identifies the faces."""
        scene = self._scene(rgb, key)
        found: list[faces.Face] = []
        lines: list[ocr.TextLine] = []
        if people:
            found = self._cached(key, "faces", lambda: faces.detect_faces(rgb))
        if text:
            mirrored = scene is not None and scene.mirrored
            lines = self._cached(key, "text", lambda: _read(rgb, mirrored))
        return scene, found, lines

    def observe(self, rgb: np.ndarray, key: str, *, text: bool, people: bool) -> Observation:
        """Run the tools on one image (results cached under ``key``)."""
        h, w = rgb.shape[:2]
        scene, found, lines = self._tools(rgb, key, text=text, people=people)
        seen = [SeenFace(f, self.gallery.identify(f)) for f in found]
        return Observation((w, h), scene, lines, seen)

    def warm(self, rgb: np.ndarray, key: str, probes: Iterable[str], *, text: bool = True) -> None:
        """Compute and keep the tool results :meth:`answer` reads for ``probes`` on this image
        (with ``text`` False, all but OCR): its answers then read them instead of computing.
        Faces are found, not identified (that is a dot product per face, done by the answer), so
        warming from results kept on disk embeds no portrait."""
        wanted = set(probes)
        verdict = bool(wanted & VERDICT_PROBES)
        if verdict or wanted & {"L2", "RECOG"}:
            people = verdict or "L2" in wanted
            self._tools(rgb, key, text=verdict and text, people=people)
        if "FACE" in wanted:
            self._cached(key, "faces", lambda: faces.detect_faces(rgb))

    def warm_text(
        self, rgb: np.ndarray, key: str, unflipped: list[ocr.TextLine] | None = None
    ) -> None:
        """Keep the text :meth:`observe` reads on this image without waiting for its scene
        match first: the image is read as it is (``unflipped``, when already read by
        :func:`read_ahead`) and read again flipped only when its scene turns out mirrored, so
        what is kept is what :meth:`observe` would have read."""

        def read() -> list[ocr.TextLine]:
            lines = _read(rgb, False) if unflipped is None else unflipped
            scene = self._scene(rgb, key)
            return _read(rgb, True) if scene is not None and scene.mirrored else lines

        self._cached(key, "text", read)

    def serves(self, kb: KnowledgeBase, face_threshold: float, tool_cache: Path | None) -> bool:
        """Whether a verifier built from these would be this one (same KB folder and content,
        threshold and tool folder)."""
        return (
            self.kb.root == kb.root
            and self.kb.fingerprint() == kb.fingerprint()
            and self.face_threshold == face_threshold
            and self.tool_folder == tool_cache
        )

    def event(self, obs: Observation, prompt: str) -> Event | None:
        """The recognised scene's event, else the caption's."""
        if obs.scene is not None:
            ev = obs.scene.scene.event
            return Event(ev.label, ev.date, ev.place, "scene")
        cap = prompts.caption(prompt)
        if cap is not None:
            rec = self.kb.scene_by_event(cap.event)
            place = rec.event.place if rec else None
            return Event(cap.event, cap.date, place, "caption")
        return None

    def findings(
        self, obs: Observation, event: Event | None, noun: str, rgb: np.ndarray
    ) -> list[Finding]:
        """Every contradiction, most specific first."""
        out = absent_findings(self.kb, obs, set(self.gallery.vectors), noun)
        out += person_findings(self.kb, obs, event, noun)
        out += text_findings(self.kb, obs, event)
        if obs.scene is not None:
            canonical = self.scenes.images[obs.scene.scene.id]
            out += object_findings(obs, canonical, rgb, event, noun)
        return sorted(out, key=lambda f: _ORDER.index(f.kind))

    def face_answer(self, rgb: np.ndarray, key: str, name: str) -> str:
        """Is the face in ``rgb`` the named person?"""
        e = self.kb.by_name(name)
        if e is None or e.id not in self.gallery.vectors:
            return f"I cannot tell: I have no reference portrait of {name}."
        found = self._cached(key, "faces", lambda: faces.detect_faces(rgb))
        if not found:
            return "I cannot tell: I find no face in this image."
        face = max(found, key=lambda f: (f.box[2] - f.box[0]) * (f.box[3] - f.box[1]))
        sim = self.gallery.similarity(face, e.id) or 0.0
        if sim >= self.gallery.threshold:
            return (
                f"YES. The face matches my reference portraits of {e.name} (similarity {sim:.2f})."
            )
        return f"NO. The face does not match my reference portraits of {e.name} (similarity {sim:.2f})."

    def answer(self, probe: str, prompt: str, rgb: np.ndarray | None, key: str) -> str:
        """The answer text of one probe."""
        noun = prompts.noun(prompt)
        if probe == "TEXT":
            q = prompts.text_question(prompt)
            return answer.text_answer(self.kb, *q) if q else "UNKNOWN. I cannot read the question."
        if probe == "EVENT":
            eq = prompts.event_question(prompt)
            return answer.event_answer(self.kb, *eq) if eq else "UNKNOWN"
        if rgb is None:
            raise ModelError(f"probe {probe} needs an image", retryable=False, task_only=True)
        if probe == "FACE":
            name = prompts.face_name(prompt)
            if name is None:
                return "I cannot tell: I cannot read whose face I am asked about."
            return self.face_answer(rgb, key, name)
        if probe == "RECOG":
            obs = self.observe(rgb, key, text=False, people=False)
            return answer.recog_answer(self.event(obs, ""))
        if probe == "L2":
            return answer.l2_answer(self.kb, self.observe(rgb, key, text=False, people=True))
        obs = self.observe(rgb, key, text=True, people=True)
        event = self.event(obs, prompt)
        cap = prompts.caption(prompt)
        return answer.verdict_answer(
            self.findings(obs, event, noun, rgb), obs, event, cap.event if cap else None
        )


def _read(rgb: np.ndarray, mirrored: bool) -> list[ocr.TextLine]:
    """OCR; a mirror image of a recognised scene is read flipped back (as a person would), with
    the boxes returned in the image's own frame."""
    if not mirrored:
        return ocr.read_text(rgb)
    w = rgb.shape[1]
    lines = ocr.read_text(np.ascontiguousarray(rgb[:, ::-1]))
    return [
        ocr.TextLine(ln.text, (w - ln.box[2], ln.box[1], w - ln.box[0], ln.box[3]), ln.score)
        for ln in lines
    ]


def read_ahead(rgb: np.ndarray) -> list[ocr.TextLine]:
    """The text of an image read as it is, before its scene match says whether it is mirrored
    (for :meth:`Verifier.warm_text`)."""
    return _read(rgb, False)


class VerifierModel:
    """:class:`Verifier` behind the async :class:`Model` interface."""

    def __init__(self, name: str, verifier: Verifier) -> None:
        self.name = name
        self.verifier = verifier
        self.fingerprint = verifier.kb.fingerprint()

    async def generate(self, request: Request) -> Response:
        """Answer one probe (CPU work in a worker thread)."""
        probe = request.meta.get("probe")
        if not isinstance(probe, str) or not probe:
            probe = prompts.probe_of(request.prompt)
        rgb = None
        key = ""
        image_limit(self.name, request, 1, " (builtin/verifier reads one image)")
        if request.images:
            ref = request.images[0]
            rgb = await asyncio.to_thread(
                load_rgb, Path(ref.path), "builtin/verifier", task_only=True
            )
            key = ref.variant_id
        text = await asyncio.to_thread(self.verifier.answer, probe, request.prompt, rgb, key)
        raw = {"verifier": "builtin/verifier", "probe": probe, "kb": self.fingerprint}
        return Response(text=text, raw=raw, usage=Usage(), finish_reason="stop")

    def describe_request(self, request: Request) -> dict[str, Any]:
        """The stored request: prompt, image variant, parameters and the KB's fingerprint."""
        return {
            "model": self.name,
            "prompt": request.prompt,
            "image": request.images[0].variant_id if request.images else None,
            "params": dict(request.params),
            "kb": self.fingerprint,
        }

    async def aclose(self) -> None:
        """Nothing to release."""


def create(config: ModelConfig) -> VerifierModel:
    """``builtin/verifier@KB`` (or ``extra_body.kb``) from its config; one-line
    :class:`SpecError` when the KB or a tool is missing."""
    kb_path = config.extra_body.get("kb") or config.parsed.base_url
    if not kb_path:
        raise SpecError(
            f"model {config.name}: builtin/verifier needs a knowledge base: "
            "builtin/verifier@KB_FOLDER (or extra_body.kb in a models file)"
        )
    threshold = config.extra_body.get("face_threshold", faces.MATCH_THRESHOLD)
    if not isinstance(threshold, int | float) or not -1.0 <= float(threshold) <= 1.0:
        raise SpecError(
            f"model {config.name}: face_threshold must be in [-1, 1], got {threshold!r}"
        )
    ready = _reused.get()
    if ready is None:
        _check_tools(config)
    try:
        kb = load_kb(Path(str(kb_path)))
    except KBError as exc:
        raise SpecError(f"model {config.name}: {exc}") from None
    folder = toolcache.configured()
    if ready is not None:
        if ready.serves(kb, float(threshold), folder):  # built with its tools: none loaded here
            return VerifierModel(config.name, ready)
        _check_tools(config)
    return VerifierModel(config.name, Verifier(kb, float(threshold), folder))


def _check_tools(config: ModelConfig) -> None:
    """One-line :class:`SpecError` naming the first missing tool (checking loads their models)."""
    missing = [msg for ok, msg in _tool_checks() if not ok]
    if missing:
        raise SpecError(f"model {config.name}: {missing[0]}")


_reused: ContextVar[Verifier | None] = ContextVar("forgebench_verifier_reused", default=None)


@contextmanager
def reusing(verifier: Verifier) -> Iterator[None]:
    """Within the block, a ``builtin/verifier`` model created on the same KB, threshold and tool
    folder as ``verifier`` uses it, with the tool results it holds or is computing (a prewarm's:
    :mod:`.prewarm`), instead of building its own. Answers are the same either way."""
    token = _reused.set(verifier)
    try:
        yield
    finally:
        _reused.reset(token)


def _tool_checks() -> list[tuple[bool, str]]:
    return [
        (
            faces.available(),
            "builtin/verifier needs the faces extra: pip install 'forgebench[faces]'",
        ),
        (ocr.available(), "builtin/verifier needs the ocr extra: pip install 'forgebench[ocr]'"),
    ]
