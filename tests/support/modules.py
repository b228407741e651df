"""Loading a helper script of the tests (a loopback server, a synthetic run, a benchmark) as a
module, once per process, under a name of its own (``sys.modules[name]``, so dataclasses and
pickling inside it find their module).

Imported as ``from support.modules import file_module``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def file_module(name: str, path: Path) -> ModuleType:
    """The module of the file ``path``, executed the first time ``name`` is asked for."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]
