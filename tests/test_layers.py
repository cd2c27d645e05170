"""The layers: engine (standard library only) < renderer, data < bot. Nothing imports upward."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = {"engine", "renderer", "data", "bot", "fakediscord"}
ALLOWED = {
    "engine": {"engine"},
    "renderer": {"engine", "renderer", "PIL", "zlib_ng"},
    "data": {"engine", "data", "aiosqlite", "asyncpg", "openskill"},
    "bot": {"engine", "renderer", "data", "bot", "discord", "aiohttp", "dotenv", "fakediscord"},
}


def imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, by its full dotted name (relative imports resolved),
    wherever the import stands: TYPE_CHECKING blocks and function bodies too."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = imported_from(node, package)
            modules.add(module)
            modules.update(f"{module}.{alias.name}" for alias in node.names)
    return modules


def imported_from(node: ast.ImportFrom, package: str) -> str:
    """The module a ``from … import`` names, relative imports resolved against ``package``."""
    base = package.split(".")[: len(package.split(".")) - node.level + 1]
    prefix = ".".join(base) if node.level else ""
    return ".".join(p for p in (prefix, node.module or "") if p)


def test_the_rules_never_import_the_ai() -> None:
    """Rule sets sit below the AI: what both need (the set-up suggestions) lives below."""
    for path in sorted((ROOT / "engine" / "rules").rglob("*.py")):
        ai = sorted(
            m for m in imported_modules(path) if m == "engine.ai" or m.startswith("engine.ai.")
        )
        assert not ai, f"{path.relative_to(ROOT)} imports {ai}"


def test_the_view_is_importable_without_the_round_machine() -> None:
    """What a viewer may know is plain data: reading a View loads no state machine."""
    probe = "import sys, engine.view; print('engine.round' in sys.modules)"
    found = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert found.stdout.strip() == "False"


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_package_imports_only_what_its_layer_may(package: str) -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    for path in sorted((ROOT / package).rglob("*.py")):
        outside = imported_roots(path) - stdlib - ALLOWED[package]
        assert not outside, f"{path.relative_to(ROOT)} imports {sorted(outside)}"


def test_only_the_demo_uses_the_fake_discord() -> None:
    for path in sorted((ROOT / "bot").rglob("*.py")):
        if "fakediscord" in imported_roots(path):
            assert path.name == "demo.py", path


def test_no_variant_name_branches_outside_the_registry() -> None:
    for package in ("engine", "renderer", "data", "bot"):
        for path in sorted((ROOT / package).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            assert "variant ==" not in text and "variant !=" not in text, path


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    return {module_name(p): p for package in PROJECT for p in (ROOT / package).rglob("*.py")}


def imports_of(path: Path, known: set[str]) -> set[str]:
    """The project modules ``path`` imports, wherever the import stands (TYPE_CHECKING
    blocks and function bodies too): ``from a import b`` imports the module ``a.b`` when
    there is one, else ``a``."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path.parent)
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = imported_from(node, package)
            for alias in node.names:
                name = f"{module}.{alias.name}"
                found.add(name if name in known else module)
    return found & known


def import_graph() -> dict[str, set[str]]:
    """Each project module and the project modules it imports, wherever the import stands
    (TYPE_CHECKING blocks and function bodies too)."""
    paths = project_modules()
    known = set(paths)
    return {name: imports_of(path, known) - {name} for name, path in paths.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle_anywhere() -> None:
    """Modules import each other in one direction only, TYPE_CHECKING imports included:
    the parts of the bot depend on the small services interface, not on the bot class."""
    assert cycles(import_graph()) == []


def test_cycles_are_found() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_table_runtime_has_no_discord_in_it() -> None:
    """Nothing the runtime imports, directly or through other modules, imports discord.py
    or its HTTP client."""
    graph = import_graph()
    reached = {name for name in graph if name.startswith("bot.runtime")}
    pending = list(reached)
    while pending:
        for other in graph[pending.pop()] - reached:
            reached.add(other)
            pending.append(other)
    paths = {module_name(p): p for package in PROJECT for p in (ROOT / package).rglob("*.py")}
    for name in sorted(reached):
        outside = imported_roots(paths[name]) & {"discord", "aiohttp"}
        assert not outside, f"{name}, imported by the runtime, imports {sorted(outside)}"
