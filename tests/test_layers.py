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
    "renderer": {"engine", "renderer", "PIL"},
    "data": {"engine", "data", "aiosqlite"},
    "bot": {"engine", "renderer", "data", "bot", "discord", "aiohttp", "fakediscord"},
}


def imported_roots(path: Path) -> set[str]:
    roots = set()
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
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            prefix = ".".join(base) if node.level else ""
            module = ".".join(p for p in (prefix, node.module or "") if p)
            modules.add(module)
            modules.update(f"{module}.{alias.name}" for alias in node.names)
    return modules


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
