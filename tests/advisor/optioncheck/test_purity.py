"""advisor.optioncheck stays a pure core: stdlib only, no advisor.advisors, data loaded lazily."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import advisor.optioncheck

PACKAGE = Path(advisor.optioncheck.__file__).parent
TOOLS = {"generate_mariadb.py"}  # runs subprocesses by design; never imported by the judge
#: computation only, no framework: edit distances in C for "did you mean …?" (names.closest), and
#: msgspec's Struct for the immutable records.
LIBRARIES = {"msgspec", "rapidfuzz"}


def test_modules_import_only_the_stdlib_and_the_package() -> None:
    """No framework, no advisor.advisors: other modules may import this one, not the reverse."""
    allowed = sys.stdlib_module_names | LIBRARIES
    for path in PACKAGE.glob("*.py"):
        if path.name in TOOLS:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            )  # fmt: skip
            for name in names:
                top = name.split(".")[0]
                assert top in allowed or name.startswith("advisor.optioncheck"), (path, name)


def test_importing_the_package_reads_no_data() -> None:
    """The CLI's start-up pays nothing until a verdict is asked for."""
    code = (
        "import advisor.optioncheck, advisor.optioncheck.data as d;"
        "assert d.mariadb.cache_info().currsize == 0;"
        "advisor.optioncheck.judge('port', '3306', flavor='mariadb', version='10.11');"
        "assert d.mariadb.cache_info().currsize == 1"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=PACKAGE.parents[1])


def test_every_module_is_small() -> None:
    """Small modules, as the house asks (under 200 lines)."""
    for path in [*PACKAGE.glob("*.py")]:
        assert len(path.read_text().splitlines()) < 200, path
