"""Meta-tests over the rule registry: nothing vanishes, nothing is undocumented or untested."""

from __future__ import annotations

import inspect
from importlib import import_module
from pathlib import Path

from advisor.advisors import ADVISOR_MODULES, all_rules, load_modules
from advisor.docs import render_advisors_markdown
from advisor.rules import DOC_HEADINGS
from tests.advisor.case_files import load_cases

ROOT = Path(__file__).resolve().parents[2]


def test_every_module_in_the_folder_is_registered_and_imports() -> None:
    """An advisor under advisor/advisors/ — a module, or a package of modules — that is not in the
    registry would silently never run; every file of a package imports."""
    folder = ROOT / "advisor" / "advisors"
    modules = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
    packages = {p.name for p in folder.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert not modules & packages
    assert modules | packages == set(ADVISOR_MODULES)
    assert all(hasattr(module, "RULES") for module in load_modules())
    for name in packages:
        assert (folder / name / "__init__.py").is_file(), f"{name} is a folder, not a package"
        for path in sorted((folder / name).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))


def test_rule_ids_are_unique_and_belong_to_their_module() -> None:
    """Ids are stable and never reused; each starts with its advisor's name."""
    ids = [r.id for r in all_rules()] + [alias for r in all_rules() for alias in r.aliases]
    assert len(ids) == len(set(ids))
    for module, name in zip(load_modules(), ADVISOR_MODULES, strict=True):
        assert module.RULES, name
        assert all(r.id.startswith(f"{name}.") for r in module.RULES), name


def test_every_rule_is_documented_with_all_headings_and_references() -> None:
    """The docstring is the documentation: each heading present, at least one reference."""
    for item in all_rules():
        doc = inspect.cleandoc(item.doc)
        missing = [h for h in DOC_HEADINGS if f"{h}:" not in doc]
        assert not missing, f"{item.id} lacks {missing}"
        assert item.references, item.id


def test_every_rule_has_a_triggering_and_a_quiet_example() -> None:
    """Each rule id appears under `fires` in one case and under `quiet` in another."""
    cases = load_cases()
    fires = {rule for case in cases for rule in case.fires}
    quiet = {rule for case in cases for rule in case.quiet}
    ids = {r.id for r in all_rules()}
    assert not ids - fires, f"rules never shown firing: {sorted(ids - fires)}"
    assert not ids - quiet, f"rules never shown quiet: {sorted(ids - quiet)}"


def test_docs_advisors_md_is_fresh() -> None:
    """docs/advisors.md is what the registry renders today (`make docs` regenerates it)."""
    assert (ROOT / "docs" / "advisors.md").read_text() == render_advisors_markdown()
