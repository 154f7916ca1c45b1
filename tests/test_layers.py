"""The package's layering (the README's Layout table): each layer imports only itself and the
layers below it, and only storage, the server and the CLI touch files, sockets, asyncio or a web
framework."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "cardtable"

LAYERS: dict[str, int] = {
    "cards": 1,
    "errors": 1,
    "rule_options": 1,
    "melds": 2,
    "games": 3,
    "driver": 4,
    "playouts": 4,
    "replay": 4,
    "registry": 4,
    "bots": 4,
    "coach": 4,
    "review": 4,
    "fairness": 4,
    "arena": 4,
    "envs": 4,
    "storage": 5,
    "server": 6,
    "cli": 6,
}
IO_MODULES = {
    "asyncio",
    "socket",
    "sqlite3",
    "http",
    "urllib",
    "fastapi",
    "starlette",
    "uvicorn",
    "websockets",
    "sqlalchemy",
    "platformdirs",
    "shutil",
    "tempfile",
}
IO_CALLS = {"open", "read_text", "write_text", "read_bytes", "write_bytes", "mkdir", "unlink"}


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "static" not in p.parts)


def _layer_of(path: Path) -> int | None:
    relative = path.relative_to(PACKAGE)
    top = relative.parts[0].removesuffix(".py")
    return LAYERS.get(top)


def _imports(tree: ast.AST) -> list[str]:
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def test_every_module_has_a_known_layer() -> None:
    unknown = [
        str(p.relative_to(PACKAGE))
        for p in _modules()
        if p.name != "__init__.py" or p.parent != PACKAGE
        if _layer_of(p) is None and p.relative_to(PACKAGE).parts[0] != "__init__.py"
    ]
    assert unknown == []


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_module_imports_only_its_own_or_lower_layers(path: Path) -> None:
    layer = _layer_of(path)
    if layer is None:
        return
    tree = ast.parse(path.read_text(encoding="utf-8"))
    upward = []
    for name in _imports(tree):
        parts = name.split(".")
        if parts[0] != "cardtable" or len(parts) < 2:
            continue
        target = LAYERS.get(parts[1])
        if target is not None and target > layer:
            upward.append(name)
    assert upward == [], f"layer {layer} module imports higher layers: {upward}"


def test_research_adapters_are_imported_by_nothing_else() -> None:
    importers = [
        str(p.relative_to(PACKAGE))
        for p in _modules()
        if p.relative_to(PACKAGE).parts[0] != "envs"
        and any(
            name == "cardtable.envs" or name.startswith("cardtable.envs.")
            for name in _imports(ast.parse(p.read_text(encoding="utf-8")))
        )
    ]
    assert importers == []


@pytest.mark.parametrize(
    "path",
    [p for p in _modules() if (_layer_of(p) or 99) <= 4],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_library_layers_touch_no_files_sockets_or_web(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    io_imports = [name for name in _imports(tree) if name.split(".")[0] in IO_MODULES]
    io_calls = [
        node.func.id if isinstance(node.func, ast.Name) else node.func.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id in IO_CALLS)
            or (isinstance(node.func, ast.Attribute) and node.func.attr in IO_CALLS)
        )
    ]
    assert io_imports == [] and io_calls == [], (io_imports, io_calls)


def test_the_readme_layout_table_names_every_module_in_its_layer() -> None:
    # The README's layer table is how a newcomer finds their way: it must name each top-level
    # module in the layer this test enforces.
    readme = (PACKAGE.parents[1] / "README.md").read_text(encoding="utf-8")
    layout = readme.split("## Layout", 1)[1].split("\n## ", 1)[0]
    listed: dict[str, int] = {}
    for row in layout.splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].isdigit():
            for name in re.findall(r"`([a-z_]+)", cells[1]):
                listed[name] = int(cells[0])
    assert listed == LAYERS


# The modules that answer HTTP requests: the routes, their dependencies and the app's edge.
HTTP_MODULES = {
    "server/routes/api.py",
    "server/app.py",
    "server/routes/boundary.py",
    "server/routes/dependencies.py",
    "server/routes/friends.py",
    "server/routes/identity.py",
    "server/routes/review.py",
}


def test_only_the_http_edge_speaks_http() -> None:
    """Below the routes errors are domain errors (``CardtableError``s): a module outside the
    HTTP edge that names ``HTTPException`` ties its callers (the cluster's owner calls, the
    lobby...) to one transport."""
    speaking = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if str(path.relative_to(PACKAGE)) not in HTTP_MODULES
        and any(
            isinstance(node, ast.Name | ast.alias | ast.Attribute)
            and "HTTPException"
            in {getattr(node, "id", None), getattr(node, "name", None), getattr(node, "attr", None)}
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        )
    )
    assert speaking == []


def test_the_readme_names_every_module_of_every_server_folder() -> None:
    # The second table of the README's Layout lists the web app's folders and their modules.
    readme = (PACKAGE.parents[1] / "README.md").read_text(encoding="utf-8")
    layout = readme.split("## Layout", 1)[1].split("\n## ", 1)[0]
    server = PACKAGE / "server"
    games = {path.name for path in (PACKAGE / "games").iterdir() if (path / "spec.py").exists()}
    rows = 0
    for row in layout.splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if len(cells) != 3 or not (cells[0].endswith("/`") or cells[0] == "top"):
            continue
        rows += 1
        listed = set(re.findall(r"`([a-z_]+)/?`", cells[1]))
        folder = server if cells[0] == "top" else server / cells[0].strip("`/")
        modules = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
        if cells[0] == "top":
            modules.add("static")
        if folder.name == "narration":
            modules -= games
        assert listed == modules, folder.name
    folders = {p.name for p in server.iterdir() if (p / "__init__.py").exists()}
    assert rows == len(folders) + 1
