"""One registry type for everything forgebench finds by name: benchmarks, model providers,
export formats, image editors and store migrations.

An entry is either the object itself or a lazy reference, ``"package.module:object"`` (or a bare
``"package.module"`` for a module), imported on first use, so registering costs no import and an
optional extra is needed only by what uses it. Each registry checks what it resolves (an
instance of its base class, or a predicate), keeps registration order (built-ins first, then
installed packages, then ``add`` calls), and can be frozen once the program has started: adding
to a frozen registry is an error, so what a command sees cannot change under it.

Installed packages add entries through an ``importlib.metadata`` entry-point group
(``forgebench.suites``, ``forgebench.providers``): ``pip install`` of a package declaring

    [project.entry-points."forgebench.suites"]
    quiz = "quiz_bench.suite:Quiz"

makes its benchmark appear in every verb. An entry point whose package fails to import is one
warning line naming the package; the rest of the registry works.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any, Generic, TypeVar

from forgebench.errors import UserError

T = TypeVar("T")

__all__ = ["Entry", "Registry", "RegistryError", "resolve"]


class RegistryError(UserError):
    """An unknown name, or an entry that does not import or is not of the registry's kind."""


@dataclass
class Entry(Generic[T]):
    """One registered name: its target (object or ``"module:object"``) and where it came from."""

    name: str
    target: T | str
    origin: str = "forgebench"
    """``forgebench`` (built in), the distribution of an entry point, or ``register``."""
    meta: dict[str, Any] = field(default_factory=dict)
    """What the registry's owner keeps beside the target (a provider's optional extra)."""
    resolved: bool = False


def resolve(ref: str, package: str | None = None) -> Any:
    """The object a ``"module:attr.attr"`` (or ``"module"``) reference names; a module name
    starting with ``.`` is relative to ``package``."""
    module_name, _, attrs = ref.partition(":")
    obj: Any = importlib.import_module(module_name, package)
    for attr in filter(None, attrs.split(".")):
        obj = getattr(obj, attr)
    return obj


class Registry(Generic[T]):
    """Names to objects of one kind, resolved lazily and checked on resolution."""

    def __init__(
        self,
        kind: str,
        *,
        base: type | None = None,
        check: Callable[[Any], bool] | None = None,
        instantiate: bool = False,
        group: str | None = None,
        warn: Callable[[str], None] | None = None,
    ) -> None:
        self.kind = kind
        """What an entry is, in messages (``benchmark``, ``provider``)."""
        self.base = base
        self.check = check
        self.instantiate = instantiate
        """A target resolving to a subclass of ``base`` is instantiated (no arguments)."""
        self.group = group
        """The entry-point group installed packages add entries through."""
        self._warn = warn
        self._entries: dict[str, Entry[T]] = {}
        self._frozen = False
        self._scanned = False

    # -- registering -------------------------------------------------------------------------

    def add(self, name: str, target: T | str, *, origin: str = "register", **meta: Any) -> None:
        """Add (or replace: the last registration wins) ``name``."""
        if self._frozen:
            raise RegistryError(f"cannot add {self.kind} {name!r}: the registry is frozen")
        if not name:
            raise RegistryError(f"a {self.kind} needs a name")
        self._entries.pop(name, None)
        self._entries[name] = Entry(name, target, origin, dict(meta))

    def add_lazy(self, name: str, factory: Callable[[], T], *, origin: str = "register") -> None:
        """Add ``name`` as a factory called (once, without arguments) on first use."""
        self.add(name, _Factory(factory), origin=origin)  # type: ignore[arg-type]

    def remove(self, name: str) -> None:
        """Drop ``name`` (tests; a frozen registry refuses)."""
        if self._frozen:
            raise RegistryError(f"cannot remove {self.kind} {name!r}: the registry is frozen")
        self._entries.pop(name, None)

    def freeze(self) -> None:
        """No further change: called once the command line has loaded what it serves."""
        self.load_entry_points()
        self._frozen = True

    @property
    def frozen(self) -> bool:
        return self._frozen

    def load_entry_points(self) -> None:
        """Add the entries of installed packages (once; nothing is imported here)."""
        if self._scanned or self.group is None:
            return
        self._scanned = True
        for ep in metadata.entry_points(group=self.group):
            if ep.name in self._entries and self._entries[ep.name].origin == "forgebench":
                self._say(
                    f"warning: package {_dist(ep)} declares {self.kind} {ep.name!r}, which is "
                    "built in; the built-in one is kept"
                )
                continue
            self.add(ep.name, ep.value, origin=_dist(ep))

    # -- reading -----------------------------------------------------------------------------

    def __contains__(self, name: object) -> bool:
        self.load_entry_points()
        return name in self._entries

    def __len__(self) -> int:
        self.load_entry_points()
        return len(self._entries)

    def names(self) -> list[str]:
        """Every registered name, in registration order."""
        self.load_entry_points()
        return list(self._entries)

    def entry(self, name: str) -> Entry[T]:
        """The entry of ``name`` (unresolved); :class:`RegistryError` naming the known ones."""
        self.load_entry_points()
        try:
            return self._entries[name]
        except KeyError:
            known = ", ".join(self._entries) or "none"
            raise RegistryError(f"unknown {self.kind} {name!r}; known: {known}") from None

    def get(self, name: str) -> T:
        """The object registered as ``name``, imported and checked on first use."""
        entry = self.entry(name)
        if not entry.resolved:
            entry.target = self._resolve(entry)
            entry.resolved = True
        return entry.target  # type: ignore[return-value]

    def items(self) -> Iterator[tuple[str, T]]:
        """Every (name, object) that resolves; an entry point that fails to import is one
        warning line naming its package and is left out."""
        for name in self.names():
            try:
                yield name, self.get(name)
            except RegistryError as exc:
                if self._entries[name].origin in ("forgebench", "register"):
                    raise
                self._say(f"warning: {exc}")
                self._entries.pop(name, None)

    # -- internals ---------------------------------------------------------------------------

    def _resolve(self, entry: Entry[T]) -> T:
        obj: Any = entry.target
        from_package = entry.origin not in ("forgebench", "register")
        where = f"package {entry.origin}: " if from_package else ""
        if isinstance(obj, _Factory):
            obj = obj.make()
        elif isinstance(obj, str):
            try:
                obj = resolve(obj)
            except Exception as exc:  # an installed package's import may fail in any way
                if not from_package:
                    raise
                raise RegistryError(
                    f"{where}{self.kind} {entry.name!r} ({entry.target}) does not load: "
                    f"{type(exc).__name__}: {_first_line(exc)}"
                ) from None
        if (
            self.instantiate
            and self.base is not None
            and isinstance(obj, type)
            and issubclass(obj, self.base)
        ):
            obj = obj()
        if self.base is not None and not isinstance(obj, self.base):
            raise RegistryError(
                f"{where}{self.kind} {entry.name!r} is a {type(obj).__name__}, "
                f"not a {self.base.__name__}"
            )
        if self.check is not None and not self.check(obj):
            raise RegistryError(f"{where}{self.kind} {entry.name!r} is not a {self.kind}")
        return obj

    def _say(self, line: str) -> None:
        if self._warn is not None:
            self._warn(line)
        else:
            print(line, file=sys.stderr)


@dataclass(frozen=True)
class _Factory:
    make: Callable[[], Any]


def _dist(ep: metadata.EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return str(getattr(dist, "name", None) or ep.value.split(":", 1)[0].split(".", 1)[0])


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else ""
