"""MySQL 5.7: the binary log on and no server_id given stops the server at startup."""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from advisor.advisors.startup.lines import winning_lines, written
from advisor.derived.replication import binlog_enabled, server_id_mandatory
from advisor.findings import Evidence, Severity
from advisor.model import Role
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

    Caveats: not judged when a live dump shows the binary log on: the running server got an id (on its
    command line, which we do not see) and gets it again at a restart.
    """
    if not server_id_mandatory(ctx) or binlog_enabled(ctx) is not True:
        return
    found = winning_lines(ctx, ("log_bin",)).get("log_bin")
    setting = ctx.config.get("log_bin")
    if found is None or setting is None or setting.source == "live":
        return
    where = f"{found.file}:{found.line}"
    chosen, why = _server_id(ctx)
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
    )


def _server_id(ctx: AuditContext) -> tuple[int, str]:
    """1 (what MySQL 8.0 and MariaDB take when none is given) — except on a replica, whose primary most
    likely has 1 already: equal ids stop replication (error 1593), so a replica's id is drawn from its
    host name (the live dump's `hostname`), else from its option files, between 2 and 2**31 - 1."""
    if ctx.role != Role.REPLICA:
        return 1, "1 is what MySQL 8.0 and MariaDB take when none is given"
    hostname = ctx.config.text("hostname")
    if hostname:
        basis, what = hostname, f"drawn from the host name {hostname}"
    else:
        files = ctx.options.files if ctx.options is not None else {}
        basis = "".join(option_file.serialise() for option_file in files.values())
        what = (
            "drawn from its option files, as no host name was given — so not made unique: replicas set up "
            "from one file get the same id, and each needs its own"
        )
    number = 2 + zlib.crc32(basis.encode()) % (2**31 - 2)
    return number, f"a replica: not 1, which its primary most likely has; {what}"
