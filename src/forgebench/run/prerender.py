"""Render a plan's missing image variants on an executor before expansion (``run --executor``).

A first pass asks the suite for its questions with a cache that records, instead of rendering,
every derived variant (:class:`~forgebench.run.images.VariantSpec` with a ``render``) whose file
is absent. Workers run each spec's ``render`` on the source bytes and return the bytes; this
process writes them into the content-addressed cache. The real expansion afterwards finds every
variant cached and renders nothing, so the bytes, ids and questions are those of the local path.
Works for every suite: it only relies on ``QuestionSource.questions`` and ``VariantCache``.
"""

from __future__ import annotations

from forgebench.models.base import ImageRef
from forgebench.run.executor import Executor
from forgebench.run.images import VariantCache, VariantSpec, read_image
from forgebench.run.source import Loaded, QuestionSource, Selection

CHUNK = 2000
"""Variants sent to the executor at once."""


class _Collecting(VariantCache):
    """A cache over the same folder that records the derived variants it lacks."""

    def __init__(self, base: VariantCache) -> None:
        super().__init__(base.dir, root=base.root)
        self._index, self._verified = base._index, base._verified  # checked once, recorded once
        self.missing: dict[str, tuple[VariantSpec, ImageRef]] = {}

    def ensure(self, spec: VariantSpec | None) -> ImageRef | None:
        ref = self.ref(spec)
        derived = spec is not None and spec.render is not None
        if derived and ref is not None and not self._holds(ref):
            assert spec is not None
            self.missing.setdefault(ref.variant_id, (spec, ref))
        return ref


def render_variant(spec: VariantSpec) -> bytes:
    """The rendered bytes of one derived variant (runs on workers)."""
    assert spec.render is not None
    source = read_image(spec.source)
    return spec.render(source, str(spec.source))


def prerender(
    source: QuestionSource,
    loaded: Loaded,
    selection: Selection,
    cache: VariantCache,
    executor: Executor,
    *,
    chunk: int = CHUNK,
) -> int:
    """Render the missing derived variants of ``source``'s questions on ``executor`` into
    ``cache``, ``chunk`` at a time (memory stays bounded); returns how many were rendered."""
    collecting = _Collecting(cache)
    done = 0

    def flush() -> None:
        nonlocal done
        todo = list(collecting.missing.values())
        collecting.missing.clear()
        specs = [spec for spec, _ in todo]
        for (_, ref), data in zip(todo, executor.map(render_variant, specs), strict=True):
            cache.write_variant(ref.path, data)
        done += len(todo)

    for _ in source.questions(loaded, selection, collecting, render_images=True):
        if len(collecting.missing) >= chunk:
            flush()
    flush()
    return done
