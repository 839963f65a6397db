"""Facts about single settings that several advisors cite: where a value came from, as evidence, and
whether innodb_dedicated_server sizes it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from advisor.findings import Evidence

if TYPE_CHECKING:
    from advisor.context import AuditContext, Setting


def setting_source(ctx: AuditContext, name: str) -> str:
    """Where a variable's value comes from, for evidence (`my.cnf:12`, `default for this version`, ...)."""
    setting = ctx.config.get(name)
    return setting.where() if setting is not None else "default for this version"


def setting_evidence(setting: Setting, label: str | None = None) -> Evidence:
    """Evidence for one setting: its value and where it came from."""
    return Evidence(label or setting.name, setting.value, setting.where())


def sized_by_dedicated_server(ctx: AuditContext, setting: Setting | None) -> bool:
    """True when innodb_dedicated_server (MySQL 8.0.3+) sizes this variable: it is ON and nothing set it."""
    if setting is not None and setting.source != "default":
        return False
    return ctx.knows("innodb_dedicated_server") and ctx.config.flag("innodb_dedicated_server") is True
