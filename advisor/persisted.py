"""Advice on a variable MySQL 8.0+ persisted (SET PERSIST / SET PERSIST_ONLY, kept in mysqld-auto.cnf).

The server reads mysqld-auto.cnf after every option file at each start, so a persisted value wins over
the line we change in the recommended file: on the real 8.0.46, `max_connections = 200` in the file and
300 persisted ran 300 after a restart. A finding that changes such a variable therefore says so and
carries the statement that makes the change stick, one way for every case:

* the variable is dynamic and its SQL is `SET PERSIST x = v` (advisor.sql.apply_sql on 8.0+): that sets
  the running value and replaces the persisted one, so the file's line and mysqld-auto.cnf agree;
* otherwise (a read-only variable, a line commented out, a change to the file only): `RESET PERSIST IF
  EXISTS x` removes the persisted value and leaves the running one alone, so the next start reads the
  recommended file's line. Not `SET PERSIST_ONLY x = v`: then two places would hold the setting, and a
  DBA who later edits the file would meet the same surprise again. (8.0.46 accepted both statements; `IF
  EXISTS` turns the error of a name no longer persisted, ERROR 3615, into a warning.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from msgspec.structs import replace

from advisor.sql import same_value

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.findings import Finding


def reset_persist_sql(name: str) -> str:
    """The statement that leaves a persisted variable to the option files from the next start on."""
    return f"RESET PERSIST IF EXISTS {name};"


def with_persisted_values(ctx: AuditContext, findings: Sequence[Finding]) -> list[Finding]:
    """Each finding that changes a persisted variable, saying so and carrying SET PERSIST or RESET PERSIST."""
    return [_over_persisted(ctx, finding) for finding in findings]


def _over_persisted(ctx: AuditContext, finding: Finding) -> Finding:
    name = finding.variable
    if not name or finding.change not in ("set", "comment_out"):
        return finding
    setting = ctx.config.get(name)
    persisted = setting.persisted_value if setting is not None else None
    if persisted is None:
        return finding
    if (
        finding.change == "set"
        and finding.recommended is not None
        and same_value(ctx.catalog, ctx.version, name, persisted, finding.recommended)
    ):
        return finding  # what is persisted is already what we recommend: the restart keeps it
    said = (
        f" mysqld-auto.cnf persists {name} = {persisted} (SET PERSIST), and MySQL reads it after every "
        "option file at each start: a changed line alone would be undone at the next restart."
    )
    if finding.change == "set" and finding.apply_sql and f"SET PERSIST {name} =" in finding.apply_sql:
        said += (
            " The SQL here is SET PERSIST: it sets the running value and replaces the persisted one, so "
            "mysqld-auto.cnf and the recommended file agree."
        )
        return replace(finding, rationale=finding.rationale + said)
    said += (
        f" Run {reset_persist_sql(name)} before the restart: it removes the persisted value (the running "
        "value stays as it is until then), so the server reads the recommended file's line."
    )
    sql = reset_persist_sql(name)
    return replace(finding, rationale=finding.rationale + said, apply_sql=sql)
