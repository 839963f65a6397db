"""Option-file lines that MySQL 8.0+'s persisted values (mysqld-auto.cnf, SET PERSIST) override.

MySQL reads mysqld-auto.cnf after every option file at each start, so where it persists a variable the
file's line for it has no effect (8.0.46: `max_connections = 200` in the file, 300 persisted: 300 ran after
the restart, and performance_schema.variables_info named mysqld-auto.cnf as its source). A DBA who edits
that line, or reads it to learn what the server runs, is misled; so is a review of the file. Judged only
when the persisted values were given (`--persisted`, collected by `innotune collect`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from advisor.context import PERSISTED_FILE
from advisor.findings import Evidence, Severity
from advisor.redact import is_secret_option
from advisor.rules import Proposal, Versions, rule
from advisor.sql import same_spelling, same_value

if TYPE_CHECKING:
    from advisor.context import AuditContext

MYSQL_PERSISTED = "https://dev.mysql.com/doc/refman/8.0/en/persisted-system-variables.html"
MYSQL_RESET_PERSIST = "https://dev.mysql.com/doc/refman/8.0/en/reset-persist.html"


@rule(
    "persisted.overrides_file",
    Severity.NOTICE,
    [MYSQL_PERSISTED, MYSQL_RESET_PERSIST],
    Versions(mysql=((8, 0), (99,)), mariadb=None),
)
def overrides_file(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: an option-file line for a variable that mysqld-auto.cnf persists with another value
    (SET PERSIST or SET PERSIST_ONLY), given the persisted values.

    Why it matters: MySQL 8.0+ reads mysqld-auto.cnf after the option files at every start, so the
    persisted value runs and the file's line is dead: editing it changes nothing, and reading it misleads
    (MySQL 8.0.46: a file's max_connections = 200 under a persisted 300 ran 300 after the restart).

    What we recommend: decide which one is meant. To keep the persisted value, write it into the file too
    (or leave the line, knowing it is overridden); to make the file's line count, run RESET PERSIST IF
    EXISTS name (it removes the persisted value; the running value stays until the restart, or set it live
    with SET GLOBAL). Advice of other rules on the same variable already carries the statement that makes
    it stick.

    Caveats: only for MySQL 8.0+ with the persisted values given (performance_schema.persisted_variables,
    or mysqld-auto.cnf itself); values are compared as the server stores them, so 1G equals 1073741824.
    Variables whose names hold secrets are not compared.
    """
    persisted = ctx.config.persisted
    if not persisted:
        return
    for name, value in sorted(persisted.items()):
        setting = ctx.config.get(name)
        if setting is None or setting.file_value is None or is_secret_option(name):
            continue
        if same_value(ctx.catalog, ctx.version, name, setting.file_value, value):
            continue
        where = f"{setting.file}:{setting.line}" if setting.file else "an option file"
        value = same_spelling(ctx.catalog, ctx.version, name, value, setting.file_value)  # 256M beside 128M
        yield Proposal(
            title=f"{where} sets {name} = {setting.file_value}, but mysqld-auto.cnf persists {value}",
            rationale=f"MySQL reads mysqld-auto.cnf (SET PERSIST) after the option files at every start, so "
            f"{name} = {value} runs after a restart and the line at {where} has no effect: editing it "
            f"changes nothing. Keep one of them: write {value} into the file as well, or run RESET PERSIST "
            f"IF EXISTS {name}; so the file's {setting.file_value} is read at the next restart.",
            evidence=(
                Evidence(name, setting.file_value, where),
                Evidence(name, value, PERSISTED_FILE),
            ),
            variable=name,
        )


RULES = (overrides_file,)
