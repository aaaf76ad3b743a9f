"""The library's shape (issue 8, item 6): data flows one way, so the import graph has no cycle.

Every import is counted: top-level, inside a function, and under ``TYPE_CHECKING``, since a cycle
hidden in a function or a type annotation is still two modules that each need the other.  The
package facade (``loba_dsl/__init__.py``) is lazy and is not a node: modules never import from it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "loba_dsl"


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(path: Path, modules: dict[str, Path]) -> list[tuple[str, str, int]]:
    """(imported module, imported name or '', line) for every import of a loba_dsl module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = _module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    out: list[tuple[str, str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((a.name, "", node.lineno) for a in node.names if a.name.startswith("loba_dsl"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[: len(parent) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            if not base.startswith("loba_dsl"):
                continue
            for a in node.names:
                sub = f"{base}.{a.name}"
                if sub in modules:
                    out.append((sub, "", node.lineno))
                else:
                    out.append((base, a.name, node.lineno))
    return out


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        if name == "loba_dsl":
            continue
        for target, _, _ in _imports(path, modules):
            if target in modules and target != name and target != "loba_dsl":
                graph[name].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    # The check itself can fail: a made-up graph with a cycle is reported.
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_inside_the_library() -> None:
    assert _cycles(_graph()) == []


def test_modules_never_import_the_facade() -> None:
    modules = _modules()
    offenders = [
        f"{name}:{line} imports '{what}' from the facade"
        for name, path in modules.items() if name != "loba_dsl"
        for target, what, line in _imports(path, modules) if target == "loba_dsl" and what
    ]
    assert offenders == []


def test_no_private_name_is_imported_across_modules() -> None:
    modules = _modules()
    offenders = [
        f"{name}:{line} imports {target}.{what}"
        for name, path in modules.items()
        for target, what, line in _imports(path, modules)
        if what.startswith("_") and not what.startswith("__") and target != name
    ]
    assert offenders == []


@pytest.mark.parametrize("forbidden", ["typer", "rich", "click", "starlette"])
def test_the_library_never_imports_a_front_end(forbidden: str) -> None:
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not any(n == forbidden or n.startswith(forbidden + ".") for n in names), (path, forbidden)
