"""MySQL 5.7: the binary log on and no server_id given stops the server at startup."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from advisor.advisors.startup.lines import winning_lines, written
from advisor.derived.replication import binlog_enabled, proposed_server_id, server_id_mandatory
from advisor.findings import Evidence, Severity
from advisor.references import MYSQL_BINLOG_OPTIONS
from advisor.rules import Proposal, mysql_only, rule

if TYPE_CHECKING:
    from advisor.context import AuditContext


@rule(
    "startup.binlog_without_server_id",
    Severity.CRITICAL,
    [
        "https://dev.mysql.com/doc/refman/5.7/en/replication-options.html#sysvar_server_id",
        f"{MYSQL_BINLOG_OPTIONS}#option_mysqld_log-bin",
    ],
    versions=mysql_only((5, 7, 3), (8, 0)),
)
def binlog_without_server_id(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: on MySQL (or Percona Server) 5.7.3 to 5.7.x, the option files turn the binary log
    on (`log-bin`, `log_bin = mysql-bin`) and give no server_id.

    Why it matters: the server stops at startup — "You have enabled the binary log, but you haven't
    provided the mandatory server-id. Please refer to the proper server start-up parameters
    documentation", then "Aborting" (MySQL 5.7.42's own mysqld, `--verbose --help` with such a file;
    any server_id line, 0 included, lets it start). Before 5.7.3 the server took 0 and started; 8.0
    defaults server_id to 1.

    What we recommend: server_id = 1 in the file, what 8.0 and MariaDB take when none is given, so the
    server starts with its binary log as the file wants it — on a replica an id drawn from its host name
    (else its option files) instead, as its primary most likely has 1 and equal ids stop replication
    (error 1593). Servers that replicate with each other each need their own id: change it if another
    server has it.

    Caveats: the change is to the file only (no live SQL): no server can be running from it as it is.
    Not judged when a live dump shows the binary log on: the running server got an id (on its
    command line, which we do not see) and gets it again at a restart.
    """
    if not server_id_mandatory(ctx) or binlog_enabled(ctx) is not True:
        return
    found = winning_lines(ctx, ("log_bin",)).get("log_bin")
    setting = ctx.config.get("log_bin")
    if found is None or setting is None or setting.source == "live":
        return
    where = f"{found.file}:{found.line}"
    chosen, why = proposed_server_id(ctx)
    yield Proposal(
        title=f"{written(found)} without a server_id: {ctx.version.describe()} does not start",
        rationale=f"{where} turns the binary log on and no option file gives server_id: "
        f"{ctx.version.product} 5.7 then stops at startup (\"You have enabled the binary log, but you haven't "
        f'provided the mandatory server-id"). server_id = {chosen} lets it start with its binary log ({why}); '
        "servers that replicate with each other each need their own id, so change it if another server "
        "of the topology has it.",
        evidence=(
            Evidence(f"option line in [{found.group}]", written(found), where),
            Evidence("server_id", "not given", "option files"),
            Evidence("role", ctx.role, "audit input"),
        ),
        variable="server_id",
        recommended=str(chosen),
        at_start=True,  # no server runs from this file: SET GLOBAL server_id would move another one
    )
