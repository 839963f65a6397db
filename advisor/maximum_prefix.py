"""What a `maximum-<name> = V` option line does, as mariadbd 10.11.19 showed it.

The manuals say the prefix caps how far `SET` may raise a session variable. That holds for the server's
own variables: `maximum-sort_buffer_size = 1M` then `sort_buffer_size = 4M` starts with 4M, and `SET
GLOBAL`/`SET SESSION sort_buffer_size = 8388608` are truncated to 1M (warning 1292). A plugin's options
(InnoDB, Aria, ...) keep no maximum of their own: the prefix writes the variable itself, in read order
with its plain lines — `innodb_buffer_pool_size = 512M` then `maximum-innodb_buffer_pool_size = 256M`
starts a 256M pool, `maximum-innodb_buffer_pool_size = 1G` alone a 1G pool, and `SET GLOBAL
innodb_buffer_pool_size = 1G` is not capped (a private instance, `--verbose --help` and `SELECT @@`).

So a recommendation above a `maximum-` line in force must say so: for a plugin option the line is a
second setting that overrides ours (config_validity comments it out, keeping its value where no rule
changes it); for a server variable our value holds from the next restart, but the live SQL would be
truncated to the cap, so the finding offers the restart instead and names the line.
MySQL is not claimed: not tried on its binary here.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from msgspec.structs import replace

from advisor.sql import numeric_value

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.findings import Finding
    from advisor.inputs.optionfiles import OptionEntry, OptionFileSet
    from advisor.version import ServerVersion


def maximum_sets_value(version: ServerVersion, name: str) -> bool:
    """Does `maximum-<name>` set the variable itself on this server (a MariaDB plugin option)?"""
    if not version.is_mariadb:
        return False
    from advisor.optioncheck.data import canonical, mariadb

    facts = mariadb().options.get(canonical(name))
    return facts is not None and facts.maximum_ok and facts.plugin is not None


def last_setting(options: OptionFileSet, groups: Collection[str], name: str) -> OptionEntry | None:
    """The last line in read order that sets `name`, counting `maximum-` lines (ask only about names
    whose `maximum-` sets the value: `maximum_sets_value`)."""
    found = None
    for entry in options.entries(groups):
        if entry.name == name and entry.prefix in (None, "maximum", "skip", "disable", "enable"):
            found = entry
    return found


def _cap(ctx: AuditContext, name: str) -> OptionEntry | None:
    """The `maximum-<name>` line in force, if any."""
    if ctx.options is None:
        return None
    found = ctx.options.effective(ctx.groups_read).get(f"maximum_{name}")
    return found.entry if found is not None else None


def respect_set_caps(ctx: AuditContext, findings: Sequence[Finding]) -> list[Finding]:
    """A value above a `maximum-` line in force is never silent: for a plugin option the finding says the
    line is a second setting that config_validity comments out; for a server variable `SET` would truncate
    the value to the cap, so the finding names the line and asks for the restart instead of offering SQL
    that does not do what it says."""
    if ctx.options is None or not ctx.version.is_mariadb:
        return list(findings)
    settled: list[Finding] = []
    for finding in findings:
        cap = _cap(ctx, finding.variable) if finding.variable and finding.change == "set" else None
        cap_value = (
            numeric_value(ctx.catalog, ctx.version, finding.variable or "", cap.value) if cap else None
        )
        wanted = finding.recommended_value
        if cap is None or cap_value is None or wanted is None or wanted <= cap_value:
            settled.append(finding)
        elif maximum_sets_value(ctx.version, cap.name):
            said = (
                f" Your {cap.raw_name} = {cap.value} ({cap.file}:{cap.line}) is no cap on MariaDB but a second "
                f"setting of {cap.name} that would start the server at {cap.value}: the recommended file "
                "comments it out (config_validity.maximum_sets_value), so this value is the one in force."
            )
            settled.append(replace(finding, rationale=finding.rationale + said))
        elif finding.apply_sql is not None:
            said = (
                f" Your {cap.raw_name} = {cap.value} ({cap.file}:{cap.line}) caps SET at {cap.value}: SET GLOBAL "
                f"would truncate {finding.recommended} to it, so the new value takes effect at the next restart "
                "(the server starts with the file's value above the cap); raise or remove that line if sessions "
                "should be able to SET it too."
            )
            settled.append(
                replace(finding, rationale=finding.rationale + said, apply_sql=None, restart_required=True)
            )
        else:
            settled.append(finding)
    return settled
