"""No import circles in the package: every import counts (at the top of a module, inside a
function, under ``TYPE_CHECKING``), and so does the package whose ``__init__`` an import runs.
An import inside a function, outside the CLI (whose commands import what they use when they
run), says why in a comment just above it (a block of such imports shares one comment)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "cardtable"


def _modules() -> dict[str, tuple[Path, bool]]:
    """Every module's dotted name: its file, and whether it is a package's ``__init__``."""
    found: dict[str, tuple[Path, bool]] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        found[".".join(parts)] = (path, is_package)
    return found


def _imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    """The dotted names an import statement names (a ``from`` import's names may be modules)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        stem = ".".join(base + ([node.module] if node.module else []))
    else:
        stem = node.module or ""
    return [stem] + [f"{stem}.{alias.name}" for alias in node.names]


def import_graph() -> dict[str, set[str]]:
    """Each module of the package and the modules of the package it imports, by any import."""
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, (path, is_package) in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for target in _imported(node, name, is_package):
                # Importing a.b.c runs a/__init__ and a/b/__init__ too.
                while target:
                    if target in modules and target != name and not name.startswith(target + "."):
                        graph[name].add(target)
                    target = target.rpartition(".")[0]
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The graph's strongly connected parts of more than one module (Tarjan's algorithm,
    without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.append(member)
                    if member == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found


def test_circles_are_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_in_the_package() -> None:
    graph = import_graph()
    # The graph sees the imports the circles were made of: a function-level one in the table
    # core would have shown here (as it did before the people's part had its hooks).
    assert "cardtable.server.table.owner" in graph["cardtable.server.people.presence"]
    assert circles(graph) == []


def _unexplained_function_imports(path: Path) -> list[int]:
    lines = path.read_text(encoding="utf-8").splitlines()
    tree = ast.parse("\n".join(lines))
    bad: list[int] = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        explained = False
        previous_end = -1
        for node in ast.walk(function):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            above = lines[node.lineno - 2].strip() if node.lineno > 1 else ""
            if above.startswith("#") or "#" in lines[node.lineno - 1]:
                explained = True
            elif node.lineno != previous_end + 1:
                explained = False
            if not explained:
                bad.append(node.lineno)
            previous_end = node.end_lineno or node.lineno
    return bad


def test_function_level_imports_say_why() -> None:
    unexplained = {
        str(path.relative_to(PACKAGE)): lines
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.relative_to(PACKAGE).parts[0] != "cli"
        and (lines := _unexplained_function_imports(path))
    }
    assert unexplained == {}


def test_an_unexplained_function_import_is_found(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "def f():\n"
        "    # Only on this platform.\n"
        "    import fcntl\n"
        "    import msvcrt\n"
        "\n"
        "    import json\n"
        "def g():\n"
        "    import os\n",
        encoding="utf-8",
    )
    assert _unexplained_function_imports(module) == [6, 8]
