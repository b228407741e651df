"""Figures of the code's structure (measured from the source as text, printed; nothing asserted).

What a reader of the tree meets, as the one-way structure issue counts it: the members of the
``Suite`` base class, modules over 400 lines, imports of forgebench modules made inside functions
(outside the CLI's start-up path they hide part of the import graph), and the import circles of
the package (strongly connected components of the graph of module-level imports, and again with the
imports inside functions added; ``if TYPE_CHECKING:`` blocks left out, each ``from forgebench.x import y`` counted as an import of
``forgebench.x`` and of ``forgebench.x.y`` where that is a module).

    .venv/bin/python benchmarks/structure_figures.py [--json] [--src SRC]
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LONG = 400


def _module_name(src: Path, path: Path) -> str:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(
    module: str, is_package: bool, tree: ast.Module
) -> tuple[set[str], list[str], set[str]]:
    """(modules imported at module level, the imports made inside functions, their modules)."""
    top: set[str] = set()
    local: list[str] = []
    inner: set[str] = set()

    def targets(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [a.name for a in node.names]
        base = _absolute(module, is_package, node)
        return [base] + [f"{base}.{a.name}" for a in node.names]

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for sub in child.orelse:
                    visit(sub, in_function)
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                names = [n for n in targets(child) if n.split(".")[0] == "forgebench"]
                if in_function:
                    local.extend(names[:1])
                    inner.update(names)
                else:
                    top.update(names)
                continue
            is_fn = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            visit(child, in_function or is_fn)

    visit(tree, False)
    return top, local, inner


def _sccs(graph: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(10000)

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def _suite_members(src: Path) -> int | None:
    base = src / "forgebench" / "suites" / "base.py"
    if not base.is_file():
        return None
    for node in ast.parse(base.read_text()).body:
        if isinstance(node, ast.ClassDef) and node.name == "Suite":
            n = 0
            for item in node.body:
                members = (ast.FunctionDef, ast.AsyncFunctionDef, ast.AnnAssign, ast.Assign)
                n += isinstance(item, members)
            return n
    return None


def figures(src: Path) -> dict[str, object]:
    files = sorted((src / "forgebench").rglob("*.py"))
    modules = {_module_name(src, f): f for f in files}
    graph: dict[str, set[str]] = {}
    full: dict[str, set[str]] = {}
    local_by_area: Counter[str] = Counter()
    long_modules: list[tuple[str, int]] = []
    for name, path in modules.items():
        text = path.read_text()
        lines = text.count("\n")
        if lines > LONG:
            long_modules.append((name, lines))
        top, local, inner = _imports(name, path.name == "__init__.py", ast.parse(text))
        graph[name] = {m for m in top if m in modules and m != name}
        full[name] = graph[name] | {m for m in inner if m in modules and m != name}
        area = name.split(".")[1] if "." in name else name
        local_by_area[area] += len(local)
    circles = _sccs(graph)
    all_circles = _sccs(full)
    return {
        "modules": len(modules),
        "suite_base_members": _suite_members(src),
        "modules_over_400_lines": sorted(long_modules, key=lambda t: -t[1]),
        "function_local_imports": sum(local_by_area.values()),
        "function_local_imports_by_area": dict(local_by_area.most_common()),
        "import_circles": [len(c) for c in circles],
        "largest_circle": max(circles, key=len) if circles else [],
        "import_circles_with_function_imports": [len(c) for c in all_circles],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    got = figures(args.src)
    if args.json:
        print(json.dumps(got, indent=1))
        return
    print(f"modules: {got['modules']}")
    print(f"Suite base class members: {got['suite_base_members']}")
    longs = got["modules_over_400_lines"]
    assert isinstance(longs, list)
    print(f"modules over {LONG} lines: {len(longs)}")
    for name, n in longs:
        print(f"  {n:5d} {name}")
    print(f"imports of forgebench modules inside functions: {got['function_local_imports']}")
    print(f"  by area: {got['function_local_imports_by_area']}")
    print(f"import circles (sizes): {got['import_circles']}")
    print(f"  largest: {got['largest_circle']}")
    print(
        "import circles counting imports inside functions too (sizes): "
        f"{got['import_circles_with_function_imports']}"
    )


if __name__ == "__main__":
    main()
