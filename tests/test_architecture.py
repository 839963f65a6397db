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
    "store": {"store", "advisor", "conf"},
    "services": {"services", "store", "advisor", "conf"},
    "worker": {"worker", "services", "store", "advisor", "conf"},
    "api": {"api", "services", "store", "advisor", "conf"},
    "migrations": {"migrations", "store", "conf"},
    # The collector runs on database hosts: it may use the core and settings, never the service.
    "collector": {"collector", "advisor", "conf"},
    "cli": OURS,
}
#: computation-only libraries the core may use (no framework, nothing that does I/O); msgspec for its
#: immutable records (Struct), which cost far less to define and build than dataclasses.
ADVISOR_THIRD_PARTY = {"msgspec", "rapidfuzz"}


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


def test_advisor_core_imports_only_the_standard_library_and_computation_libraries() -> None:
    """advisor/ stays pure: no pydantic, FastAPI, SQLAlchemy, Celery, Redis or HTTP client."""
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path, line, module in _imports("advisor")
        if module not in OURS and module not in sys.stdlib_module_names and module not in ADVISOR_THIRD_PARTY
    ]
    assert not wrong, wrong


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _our_modules() -> dict[str, Path]:
    return {
        _module_name(path): path
        for package in sorted(OURS)
        if (ROOT / package).is_dir()
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement, inside functions too, except under `if TYPE_CHECKING:`."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            pending.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        pending.extend(ast.iter_child_nodes(node))
    return found


def _import_graph() -> dict[str, set[str]]:
    """module → the modules of ours it imports; `from x import y` names x.y when y is a submodule."""
    modules = _our_modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _runtime_imports(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - (node.level - 1)]
                    base = ".".join([*anchor, *([base] if base else [])])
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                    for alias in node.names
                ]
            for target in targets:
                while target and target not in modules:  # `import a.b.c` of a name inside a module
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
                    graph[name].update(_packages_run_first(name, target, modules))
    return graph


def _packages_run_first(importer: str, target: str, modules: dict[str, Path]) -> set[str]:
    """The packages whose `__init__` importing `target` may run first: its ancestors that are not the
    importer's own (those are already being imported when the importer runs)."""
    parts = target.split(".")
    own = {".".join(importer.split(".")[:size]) for size in range(1, importer.count(".") + 2)}
    return {
        package
        for size in range(1, len(parts))
        if (package := ".".join(parts[:size])) in modules and package not in own and package != importer
    }


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    lowlink: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(graph[root]))]
        index[root] = lowlink[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            if successors:
                successor = successors.pop(0)
                if successor not in index:
                    index[successor] = lowlink[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, sorted(graph[successor])))
                elif successor in on_stack:
                    lowlink[node] = min(lowlink[node], index[successor])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                lowlink[parent] = min(lowlink[parent], lowlink[node])
            if lowlink[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return sorted(components)


def _describe(component: list[str], graph: dict[str, set[str]]) -> str:
    members = set(component)
    arrows = [f"{module} → {target}" for module in component for target in sorted(graph[module] & members)]
    return f"{len(component)} modules: " + "; ".join(arrows)


def test_no_import_cycles_among_our_modules() -> None:
    """No two of our modules import each other, directly or round a loop (imports inside functions
    count, and so do the package `__init__`s an import runs first; `if TYPE_CHECKING:` imports do not)."""
    graph = _import_graph()
    cycles = [_describe(component, graph) for component in _cycles(graph)]
    assert not cycles, "\n".join(cycles)


def _advisor_of(module: str) -> str | None:
    """`replication` for advisor.advisors.replication and anything inside it; None elsewhere."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["advisor", "advisors"] else None


def test_advisors_never_import_each_other() -> None:
    """A module of one advisor (advisor/advisors/<x>, file or package) imports no other advisor and not
    the registry: facts several advisors need live in advisor/derived/ (every import counts here,
    `TYPE_CHECKING` ones too)."""
    found = []
    for name, path in _our_modules().items():
        advisor = _advisor_of(name)
        if advisor is None:
            continue
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*anchor, *([base] if base else [])])
                targets = [f"{base}.{alias.name}" for alias in node.names]
            else:
                continue
            for target in targets:
                if target.startswith("advisor.advisors") and _advisor_of(target) != advisor:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {target}")
    assert not found, "\n".join(found)
