"""Engines are pure: no framework, no I/O, no clock, no randomness but the named dice.

A static look at every module of the ``rules`` package, so that an engine
cannot quietly start reading the environment or the time.
"""

import ast
from pathlib import Path

import pytest

import rules

ROOT = Path(rules.__file__).parent
FORBIDDEN = {"django", "socket", "requests", "urllib", "http", "datetime", "os", "subprocess", "sqlite3"}
# Only the dice module may own a random generator; the CLI alone reads stdin; the clock is read only by
# the CLI (the wall time it reports for a simulation) and the simulation worker's loop (how often it
# reports progress), never as an input of the rules.
ALLOWED = {
    "random": {"dice.py"},
    "secrets": {"dice.py"},
    "sys": {"cli.py", "__main__.py"},
    "time": {"cli.py", "simulate_worker.py"},
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def opens_files(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open"
        for node in ast.walk(tree)
    )


MODULES = sorted(ROOT.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_module_imports_nothing_impure(path):
    roots = imported_roots(path)
    assert not roots & FORBIDDEN, f"{path.name} imports {sorted(roots & FORBIDDEN)}"
    for module, owners in ALLOWED.items():
        if module in roots:
            assert path.name in owners and path.parent == ROOT, f"{path} may not import {module}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_module_opens_no_file(path):
    """Package data is read through importlib.resources, never by path."""
    assert not opens_files(path)
