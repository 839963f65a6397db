"""`maximum-<plugin option> = V` on MariaDB: a second setting of the option, not a cap."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from advisor.advisors.config_validity.lines import line_evidence
from advisor.findings import Severity
from advisor.maximum_prefix import last_setting, maximum_sets_value
from advisor.rules import Proposal, rule

if TYPE_CHECKING:
    from advisor.context import AuditContext

MARIADB_OPTION_PREFIXES: Final = "https://mariadb.com/kb/en/mariadbd-options/#option-prefixes"
MYSQL_MODIFIERS: Final = "https://dev.mysql.com/doc/refman/8.0/en/option-modifiers.html"


@rule("config_validity.maximum_sets_value", Severity.WARNING, [MARIADB_OPTION_PREFIXES, MYSQL_MODIFIERS])
def maximum_sets_value_line(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: on MariaDB, a `maximum-` line for an option of a plugin (InnoDB, Aria, ...), such as
    `maximum-innodb_buffer_pool_size = 1G`.

    Why it matters: the prefix is documented as a cap on what SET may raise, and so it works for the
    server's own variables; but a plugin option keeps no maximum of its own, and the prefix sets the
    option itself. mariadbd 10.11.19 starts a 1G pool from `maximum-innodb_buffer_pool_size = 1G`
    alone, a 256M pool from `innodb_buffer_pool_size = 512M` followed by `maximum-innodb_buffer_pool_size
    = 256M`, and lets `SET GLOBAL innodb_buffer_pool_size` go above it. Such a line read after ours
    silently replaces any value we recommend, and it caps nothing.

    What we recommend: comment the line out; when it is the setting in force and no rule recommends
    another value, write `name = value` with its value in its place, so the server keeps running what it
    runs today.

    Caveats: MariaDB only (observed on its binary; MySQL's behaviour was not tried). A bare `maximum-`
    line without a value is left alone.
    """
    if ctx.options is None or not ctx.version.is_mariadb:
        return
    for entry in ctx.options.entries(ctx.groups_read):
        if (
            entry.prefix != "maximum"
            or entry.value is None
            or not maximum_sets_value(ctx.version, entry.name)
        ):
            continue
        in_force = last_setting(ctx.options, ctx.groups_read, entry.name) is entry
        then = (
            f" The recommended file writes `{entry.name} = {entry.value}` in its place (unless a rule "
            "recommends another value)."
            if in_force
            else f" A later line sets {entry.name}, so this one changes nothing today."
        )
        yield Proposal(
            title=f"{entry.raw_name} = {entry.value} sets {entry.name} itself on MariaDB: it caps nothing",
            rationale=f"{entry.file}:{entry.line}: {entry.name} is an option of a plugin, which keeps no maximum "
            f"of its own: {ctx.version.describe()} reads `maximum-{entry.name}` as {entry.name} itself, in order "
            f"with its other lines, and SET GLOBAL can still raise it. Comment the line out.{then}",
            evidence=(line_evidence(entry),),
            variable=entry.name,
            change="comment_out",
            option_file=entry.file,
            option_line=entry.line,
        )
        if in_force:
            yield Proposal(
                title=f"Write {entry.name} = {entry.value}, the setting that line makes",
                rationale=f"{entry.file}:{entry.line} sets {entry.name} = {entry.value}; written without the "
                "prefix, it says what it does.",
                evidence=(line_evidence(entry),),
                variable=entry.name,
                recommended=entry.value,
                correction=True,
            )
