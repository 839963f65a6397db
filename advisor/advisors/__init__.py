"""The explicit registry of advisor modules. A module missing here is caught by a meta-test.

Each module exports `RULES: tuple[Rule, ...]`. The order here is the precedence the engine
uses when two advisors propose different values for one variable: earlier wins.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from advisor.rules import Rule

ADVISOR_MODULES: tuple[str, ...] = (
    "config_validity",
    "startup",
    "memory",
    "durability",
    "replication",
    "isolation",
    "buffer_pool",
    "redo_log",
    "flushing",
    "group_commit",
    "connections",
    "undo_history",
    "malloc",
    "primary_keys",
    "live_only",
    "persisted",
)


def load_modules() -> tuple[ModuleType, ...]:
    """Import every registered advisor module; an import error propagates, never skips."""
    return tuple(import_module(f"advisor.advisors.{name}") for name in ADVISOR_MODULES)


_RULES: tuple[Rule, ...] | None = None


def all_rules() -> tuple[Rule, ...]:
    """Every rule of every registered advisor, in registry order (loaded once per process)."""
    global _RULES
    if _RULES is None:
        rules: list[Rule] = []
        for module in load_modules():
            rules.extend(module.RULES)
        _RULES = tuple(rules)
    return _RULES


def precedence(advisor: str) -> int:
    """Lower wins a conflict over one variable."""
    return ADVISOR_MODULES.index(advisor) if advisor in ADVISOR_MODULES else len(ADVISOR_MODULES)
