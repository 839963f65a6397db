"""The arrows: api → services → store → advisor, worker → services, collector → advisor; the core
imports no framework."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = {"advisor", "api", "worker", "store", "services", "cli", "conf", "migrations", "collector"}
ALLOWED_OURS = {
    "advisor": {"advisor"},
    "conf": {"conf"},
    "store": {"store", "advisor", "conf", "migrations"},
    "services": {"services", "store", "advisor", "conf"},
    "worker": {"worker", "services", "store", "advisor", "conf"},
    "api": {"api", "services", "store", "advisor", "conf"},
    "migrations": {"migrations", "store", "conf"},
    # The collector runs on database hosts: it may use the core and settings, never the service.
    "collector": {"collector", "advisor", "conf"},
    "cli": OURS,
}
ADVISOR_THIRD_PARTY = {"pydantic", "pydantic_core", "typing_extensions"}


def _imports(package: str) -> list[tuple[Path, int, str]]:
    found = []
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found += [(path, node.lineno, alias.name.split(".")[0]) for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.append((path, node.lineno, node.module.split(".")[0]))
    return found


@pytest.mark.parametrize("package", sorted(ALLOWED_OURS))
def test_package_imports_only_what_the_arrows_allow(package: str) -> None:
    """No package reaches into a room the arrows do not lead to."""
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path, line, module in _imports(package)
        if module in OURS and module not in ALLOWED_OURS[package]
    ]
    assert not wrong, wrong


def test_advisor_core_imports_only_the_standard_library_and_pydantic() -> None:
    """advisor/ stays pure: no FastAPI, SQLAlchemy, Celery, Redis or HTTP client."""
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path, line, module in _imports("advisor")
        if module not in OURS and module not in sys.stdlib_module_names and module not in ADVISOR_THIRD_PARTY
    ]
    assert not wrong, wrong
