"""Server ids, replicas that log what they apply, read-only replicas."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.context import AuditContext
from advisor.derived.replication import binlog_enabled, proposed_server_id, server_id_mandatory
from advisor.derived.settings import setting_evidence
from advisor.findings import Evidence, Severity
from advisor.model import Role
from advisor.references import (
    MARIADB_REPLICATION_VARIABLES,
    MARIADB_SERVER_VARIABLES,
    MYSQL_BINLOG_OPTIONS,
    MYSQL_SERVER_VARIABLES,
)
from advisor.rules import Proposal, rule
from advisor.units import parse_bool


def _first_known(ctx: AuditContext, *names: str) -> str:
    """The first of several names (new spelling first) that this version has."""
    return next((name for name in names if ctx.knows(name)), names[-1])


@rule(
    "replication.server_id_unset",
    Severity.CRITICAL,
    [
        "https://dev.mysql.com/doc/refman/8.0/en/replication-options.html#sysvar_server_id",
        "https://dev.mysql.com/doc/refman/5.7/en/replication-options.html",
        f"{MARIADB_REPLICATION_VARIABLES}#server_id",
    ],
)
def server_id_unset(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: server_id is 0 while binary logging is on or the server is a replica; or a replica
    still has the default id 1 from no option file.

    Why it matters: a replica with id 0 refuses to start replicating, a source with id 0 refuses
    replicas (MySQL 5.7 does not even start with log_bin and no server_id). Two servers with the same
    id break replication: the source drops one of them, or events are skipped as the replica's own.

    What we recommend: a unique, explicit server_id on every server of the topology. The finding
    proposes one: 1 for a primary or standalone server, and for a replica a number drawn from its host
    name (the live dump's `hostname`; else from its option files, which is not unique across replicas
    set up from one file) — we cannot see the other servers, so change it if another server has it.

    Caveats: critical on a primary or replica with id 0, a warning on a standalone server with binary
    logging, a notice for a replica left at the default 1.
    """
    setting = ctx.config.get("server_id")
    if setting is None:
        return
    value = ctx.config.number("server_id")
    binlog = binlog_enabled(ctx)
    if binlog and setting.source == "default" and server_id_mandatory(ctx):
        return  # MySQL 5.7 would not start: startup.binlog_without_server_id writes the id into the file
    replicating = ctx.role in (Role.PRIMARY, Role.REPLICA)
    chosen, why = proposed_server_id(ctx)
    if value == 0 and (replicating or binlog):
        yield Proposal(
            title="server_id is 0: replication cannot run",
            rationale="Replication identifies every server by server_id; 0 means unset. A replica "
            "with id 0 will not connect to its source and a source with id 0 refuses replicas "
            "(MySQL 5.7 refuses to start with binary logging and no server_id). Every server of the "
            f"topology needs its own number: server_id = {chosen} ({why}); change it if another server "
            "has it.",
            evidence=(setting_evidence(setting), Evidence("role", ctx.role, "audit input")),
            variable="server_id",
            recommended=str(chosen),
            severity=None if replicating else Severity.WARNING,
        )
    elif value == 1 and ctx.role == Role.REPLICA and setting.file_value is None:
        yield Proposal(
            title="Replica runs with the default server_id 1",
            rationale="Every new server gets server_id 1, very often the primary too. Two servers "
            "with one id cannot replicate (the replica's I/O thread stops, or drops the events as its "
            f"own). Set an explicit, unique server_id in the option file: server_id = {chosen} ({why}); "
            "change it if another server has it.",
            evidence=(setting_evidence(setting),),
            variable="server_id",
            recommended=str(chosen),
            severity=Severity.NOTICE,
        )


@rule(
    "replication.replica_updates_off",
    Severity.INFO,
    [
        f"{MYSQL_BINLOG_OPTIONS}#sysvar_log_replica_updates",
        f"{MARIADB_REPLICATION_VARIABLES}#log_slave_updates",
    ],
)
def replica_updates_off(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: a replica does not write the changes it applies to its own binary log
    (log_replica_updates from MySQL 8.0.26, log_slave_updates before and on MariaDB).

    Why it matters: if this replica is ever promoted, the other replicas cannot continue from it and
    its binary log lacks everything it applied: no point-in-time recovery across the switch.

    What we recommend: ON on replicas that may be promoted. Without a binary log the line alone does
    nothing (mariadbd 10.11 starts and warns "You need to use --log-bin to make --log-slave-updates
    work"; the variable reads ON and nothing is logged), so then the file is left as it is and the
    finding says what to set together: log_bin with a base name of your choice (a bare log_bin names
    the files after the host — mariadbd warns that a hostname change breaks replication; MySQL 5.7
    also refuses to start with log_bin and no server_id), a unique server_id, and the updates flag.
    The base name is the DBA's choice (backups and tools follow it), so we do not write it.

    Caveats: information only: a replica used purely for reads or backups does not need it, and it
    costs binlog writes. MySQL 8.0 turns it on by default.
    """
    if ctx.role != Role.REPLICA:
        return
    name = _first_known(ctx, "log_replica_updates", "log_slave_updates")
    setting = ctx.config.get(name)
    if setting is None or parse_bool(setting.value) is not False:
        return
    if binlog_enabled(ctx) is False:
        yield Proposal(
            title=f"Replica does not log what it applies ({name}=OFF, and no binary log)",
            rationale="If this replica is promoted to primary, the remaining replicas cannot follow it "
            "and it has no binary log of what it replicated, so point-in-time recovery across the "
            f"promotion is impossible. {name} = ON alone does nothing without a binary log (MariaDB "
            f'warns "You need to use --log-bin to make --log-slave-updates work"), so this file is left '
            "as it is. If this replica may be promoted, set together under [mysqld]: log_bin = <base name> "
            "(name it: a bare log_bin names the files after the host, and a hostname change breaks "
            f"replication), a unique server_id, and {name} = ON; then restart.",
            evidence=(setting_evidence(setting),),
        )
        return
    yield Proposal(
        title=f"Replica does not log what it applies ({name}=OFF)",
        rationale="If this replica is promoted to primary, the remaining replicas cannot follow it "
        "and its own binary log holds none of the data it replicated, so point-in-time recovery "
        "across the promotion is impossible.",
        evidence=(setting_evidence(setting),),
        variable=name,
        recommended="ON",
    )


@rule(
    "replication.replica_writable",
    Severity.WARNING,
    [
        f"{MYSQL_SERVER_VARIABLES}#sysvar_super_read_only",
        f"{MARIADB_SERVER_VARIABLES}#read_only",
    ],
)
def replica_writable(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: a replica accepts writes from clients (read_only=OFF), or, on MySQL 5.7.8+,
    accounts with SUPER / CONNECTION_ADMIN still can (super_read_only=OFF).

    Why it matters: a stray write on a replica (a mis-pointed application, a manual fix) makes it
    differ from the primary; replication later stops on a duplicate key or silently keeps the drift.

    What we recommend: super_read_only=ON where it exists (it implies read_only), read_only=ON
    elsewhere (MariaDB has no super_read_only).

    Caveats: replication threads are never blocked. Warning when anyone can write; a notice when only
    privileged accounts can. On MariaDB accounts with READ_ONLY ADMIN (SUPER in older releases) still
    write through read_only.
    """
    if ctx.role != Role.REPLICA:
        return
    read_only = ctx.config.get("read_only")
    if read_only is None:
        return
    has_super = ctx.knows("super_read_only")
    super_setting = ctx.config.get("super_read_only") if has_super else None
    variable = "super_read_only" if has_super else "read_only"
    if parse_bool(read_only.value) is False:
        yield Proposal(
            title="Replica accepts writes (read_only=OFF)",
            rationale="Any client that connects here by mistake can change data the primary does not "
            "have; replication then stops on a conflict or keeps the difference silently.",
            evidence=(setting_evidence(read_only),),
            variable=variable,
            recommended="ON",
        )
    elif super_setting is not None and parse_bool(super_setting.value) is False:
        yield Proposal(
            title="Replica is read-only except for privileged accounts",
            rationale="read_only does not stop accounts with SUPER (or CONNECTION_ADMIN): an admin "
            "script or tool run here still writes. super_read_only closes that gap.",
            evidence=(setting_evidence(read_only), setting_evidence(super_setting)),
            variable="super_read_only",
            recommended="ON",
            severity=Severity.NOTICE,
        )
