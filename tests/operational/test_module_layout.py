"""The engine's module layout: small modules, one per rule area, and no import cycles.

Imports are read with ``ast`` from every module of ``wargame/``, including imports inside
functions (a cycle hidden in a function is still a cycle). Imports under ``if TYPE_CHECKING:``
never run and are left out: they are annotations only.
"""

from __future__ import annotations

import ast
from pathlib import Path

import wargame

PACKAGE = Path(wargame.__file__).parent
MAX_LINES = 600


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    """Names of the modules an import statement anywhere in ``tree`` asks for."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base if is_package else base[:-1]
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the wargame modules it imports (a submodule import also runs its packages)."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges: set[str] = set()
        for target in _imports(tree, name, path.name == "__init__.py"):
            parts = target.split(".")
            for i in range(1, len(parts) + 1):
                prefix = ".".join(parts[:i])
                if prefix in modules and prefix != name and not name.startswith(prefix + "."):
                    edges.add(prefix)
        graph[name] = edges
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0

    def strong(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph.get(v, ()):
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def _long_modules(package: str) -> list[str]:
    folder = PACKAGE / package
    out = []
    for path in sorted(folder.glob("*.py")):
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            out.append(f"{path.relative_to(PACKAGE.parent)}: {n} lines")
    return out


def test_operational_modules_are_at_most_600_lines() -> None:
    assert _long_modules("operational") == []


def test_memoir_modules_are_at_most_600_lines() -> None:
    assert _long_modules("memoir") == []


def test_no_import_cycle_in_wargame() -> None:
    assert find_cycles(import_graph()) == []


def test_the_cycle_search_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycles(graph) == [["a", "b", "c"]]


def test_function_level_imports_count() -> None:
    tree = ast.parse("def f():\n    from wargame.operational import state\n")
    assert "wargame.operational.state" in _imports(tree, "wargame.x", False)


def test_the_engine_modules_cite_their_rules() -> None:
    """Every rule-area module opens with a docstring naming the rulebook sections it holds."""
    areas = ["sequence", "movement_rules", "reinforcements", "combat_steps", "losses", "retreat",
             "advance", "air", "artillery", "bombardment", "naval", "mulberries", "maquis",
             "victory", "queries", "snapshot", "state_types"]
    for name in areas:
        path = PACKAGE / "operational" / f"{name}.py"
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        assert "Rules:" in doc, f"{path.name} has no 'Rules:' line in its docstring"
