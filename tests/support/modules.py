"""Loading a helper script of the tests (a loopback server, a synthetic run, a benchmark) as a
module, once per process, under a name of its own (``sys.modules[name]``, so dataclasses and
pickling inside it find their module).

Imported as ``from support.modules import file_module``.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest


def file_module(name: str, path: Path) -> ModuleType:
    """The module of the file ``path``, executed the first time ``name`` is asked for."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


class _Refuse(importlib.abc.MetaPathFinder):
    def __init__(self, name: str) -> None:
        self.name = name

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> None:
        if fullname == self.name or fullname.startswith(self.name + "."):
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        return None


def not_installed(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Until the test ends, ``import name`` (and its submodules) fails as if the package were
    not installed, and the modules already loaded are out of ``sys.modules``. Unlike setting
    ``sys.modules[name] = None``, libraries that look a module up there to recognise its types
    (SciPy's array-API helpers do, for torch) see it as absent, not as ``None``."""
    for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        monkeypatch.delitem(sys.modules, loaded)
    monkeypatch.setattr(sys, "meta_path", [_Refuse(name), *sys.meta_path])
