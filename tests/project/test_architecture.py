"""The project's shape (issue 8, item 6; issue 21): data flows one way, so the import graph has no cycle,
and the two front ends (the ``loba`` CLI and the HTTP service) reach the library only through its facade.

Every import is counted: top-level, inside a function, and under ``TYPE_CHECKING``, since a cycle
hidden in a function or a type annotation is still two modules that each need the other.  A package's
lazy facade (``loba_dsl/__init__.py``, ``loba_service/__init__.py``: names imported on first use) is a
node with no edges out: importing it imports nothing, and modules of its own package never import from it.

What a front end may import besides the ``loba_dsl`` facade (and why) is the table ``BEYOND_THE_FACADE``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("loba_dsl", "loba_cli", "loba_service")
PACKAGE = ROOT / "loba_dsl"
FACADES = {"loba_dsl", "loba_service"}
"""The lazy package facades (PEP 562 ``__getattr__``): not a way into a cycle."""

BEYOND_THE_FACADE: dict[str, dict[str, str]] = {
    "loba_cli": {
        "loba_service": "`loba serve` runs the service (loba_cli/serve_command.py imports it when it runs)",
    },
    "loba_service": {},
}
"""For each front end: the packages or modules outside its own that it may import besides the ``loba_dsl``
facade, with the reason.  The library itself is not among them: the public API is what every surface uses."""



def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(packages: tuple[str, ...] = ("loba_dsl",)) -> dict[str, Path]:
    return {_module_name(p): p for package in packages for p in sorted((ROOT / package).rglob("*.py"))}


def _ours(name: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in PACKAGES)


def _imports(path: Path, modules: dict[str, Path]) -> list[tuple[str, str, int]]:
    """(imported module, imported name or '', line) for every import of one of the project's modules."""
    here = _module_name(path)
    return _imports_in(path.read_text(encoding="utf-8"), here if path.name == "__init__.py" else
                       here.rpartition(".")[0], modules)


def _imports_in(text: str, package: str, modules: dict[str, Path]) -> list[tuple[str, str, int]]:
    """``_imports`` of the source TEXT of a module of PACKAGE."""
    tree = ast.parse(text)
    out: list[tuple[str, str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((a.name, "", node.lineno) for a in node.names if _ours(a.name))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[: len(parent) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            if not _ours(base):
                continue
            for a in node.names:
                sub = f"{base}.{a.name}"
                if sub in modules:
                    out.append((sub, "", node.lineno))
                else:
                    out.append((base, a.name, node.lineno))
    return out


def _graph(packages: tuple[str, ...] = ("loba_dsl",)) -> dict[str, set[str]]:
    modules = _modules(packages)
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        if name in FACADES:
            continue
        for target, _, _ in _imports(path, modules):
            if target in modules and target != name:
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


def test_no_import_cycle_in_the_cli_and_the_service() -> None:
    # The CLI's command modules once imported each other (commands -> game_commands -> commands):
    # now main -> the command modules -> app -> common -> the facade.
    graph = _graph(PACKAGES)
    assert _cycles(graph) == []
    assert "loba_cli.app" in graph["loba_cli.game_commands"] and "loba_cli.commands" not in graph[
        "loba_cli.game_commands"]


def _beyond_the_facade(front_end: str) -> list[tuple[str, str, int, str]]:
    """(module, what it imports, line, the library module or other package) for every import of FRONT_END
    that is neither its own package, nor the ``loba_dsl`` facade, nor allowed by ``BEYOND_THE_FACADE``."""
    modules = _modules(PACKAGES)
    allowed = BEYOND_THE_FACADE[front_end]
    found = []
    for name, path in modules.items():
        if not (name == front_end or name.startswith(front_end + ".")):
            continue
        for target, what, line in _imports(path, modules):
            if target.split(".")[0] == front_end or target == "loba_dsl":
                continue
            if any(target == a or target.startswith(a + ".") for a in allowed):
                continue
            found.append((name, what, line, target))
    return found


def test_the_facade_check_sees_every_form_of_import() -> None:
    # The check can fail: each way a CLI module could reach past the facade is seen, the facade is not.
    modules = _modules(PACKAGES)
    probe = ("import loba_dsl\nfrom loba_dsl import check, __version__\nfrom loba_dsl.melds.check import check\n"
             "def f():\n    import loba_dsl.render\n    from loba_dsl.melds import check\nfrom . import common\n")
    seen = [(target, what) for target, what, _ in _imports_in(probe, "loba_cli", modules)]
    assert seen == [("loba_dsl", ""), ("loba_dsl", "check"), ("loba_dsl", "__version__"),
                    ("loba_dsl.melds.check", "check"), ("loba_cli.common", ""), ("loba_dsl.render", ""),
                    ("loba_dsl.melds.check", "")]


def test_the_cli_reaches_the_library_only_through_the_facade() -> None:
    assert [f"{name}:{line} imports {target}" for name, _, line, target in _beyond_the_facade("loba_cli")] == []


def test_the_service_reaches_the_library_only_through_the_facade() -> None:
    # Issue 21: the service once imported 23 library modules directly; now the public API is what it uses.
    assert [f"{name}:{line} imports {target}" for name, _, line, target in _beyond_the_facade("loba_service")] == []


def test_every_name_a_front_end_takes_from_the_facade_is_public() -> None:
    import loba_dsl

    modules = _modules(PACKAGES)
    taken = {(name, what, line) for name, path in modules.items() if not name.startswith("loba_dsl")
             for target, what, line in _imports(path, modules) if target == "loba_dsl" and what}
    public = {*loba_dsl.__all__, "__version__"}
    assert sorted(f"{n}:{line} takes {w}" for n, w, line in taken if w not in public) == []


def test_the_library_never_imports_a_front_end() -> None:
    modules = _modules(PACKAGES)
    offenders = [f"{name}:{line} imports {target}" for name in _modules() for target, _, line in
                 _imports(modules[name], modules) if target.split(".")[0] in ("loba_cli", "loba_service")]
    assert offenders == []


def test_the_service_never_imports_the_cli() -> None:
    modules = _modules(PACKAGES)
    offenders = [f"{name}:{line} imports {target}" for name, path in modules.items()
                 if name.startswith("loba_service") for target, _, line in _imports(path, modules)
                 if target.split(".")[0] == "loba_cli"]
    assert offenders == []


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
def test_the_library_never_imports_a_front_end_framework(forbidden: str) -> None:
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not any(n == forbidden or n.startswith(forbidden + ".") for n in names), (path, forbidden)
