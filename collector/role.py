"""The server's place in replication, as the audit's --role words: replica, primary or standalone.

* replica: replication is configured and running — a SHOW REPLICA STATUS row (SHOW SLAVE STATUS on
  servers older than MariaDB 10.5.1 and MySQL 8.0.22) whose I/O thread runs or connects, or whose SQL
  thread runs; without the privilege for that statement (MariaDB SLAVE MONITOR, MySQL REPLICATION
  CLIENT) MariaDB's `Slaves_running`/`Slave_running` status counters stand in;
* primary: replicas are connected (MariaDB's `Slaves_connected`), or the binary log is on and
  read_only is off — a server that writes a binary log others may read;
* standalone: neither.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: ER_PARSE_ERROR: the server predates SHOW REPLICA STATUS.
_PARSE_ERROR = 1064
#: ER_SPECIFIC_ACCESS_DENIED_ERROR, ER_ACCESS_DENIED_ERROR, ER_DBACCESS_DENIED_ERROR.
_DENIED = {1227, 1045, 1044}
_RUNNING_IO = {"yes", "connecting"}


@dataclass(frozen=True)
class RoleFinding:
    role: str
    how: str
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, str]:
        return {"role": self.role, "how": self.how}


class _Denied(Exception):
    """The account may not run SHOW REPLICA STATUS."""


def _replica_rows(connection: Any) -> list[dict[str, Any]]:
    """SHOW REPLICA STATUS (or SHOW SLAVE STATUS) as dicts with lower-case column names."""
    import pymysql

    for statement in ("SHOW REPLICA STATUS", "SHOW SLAVE STATUS"):
        try:
            with connection.cursor() as cursor:
                cursor.execute(statement)
                names = [column[0].lower() for column in cursor.description or ()]
                return [dict(zip(names, row, strict=False)) for row in cursor.fetchall()]
        except pymysql.err.MySQLError as exc:
            code = exc.args[0] if exc.args else None
            if code in _DENIED:
                raise _Denied(str(exc.args[-1])) from None
            if code != _PARSE_ERROR:
                raise
    return []


def _text(row: Mapping[str, Any], *names: str) -> str:
    value = next((row[name] for name in names if row.get(name) is not None), "")
    return value.decode() if isinstance(value, bytes) else str(value)


def _replica_from_rows(rows: list[dict[str, Any]]) -> RoleFinding | None:
    notes: list[str] = []
    for row in rows:
        source = _text(row, "source_host", "master_host")
        io = _text(row, "replica_io_running", "slave_io_running").lower()
        sql = _text(row, "replica_sql_running", "slave_sql_running").lower()
        if io in _RUNNING_IO or sql == "yes":
            return RoleFinding("replica", f"replicating from {source} (I/O thread {io}, SQL thread {sql})")
        notes.append(f"replication from {source} is configured but stopped: not counted as a replica")
    return RoleFinding("", "", tuple(notes)) if notes else None


def _status_number(status: Mapping[str, str], name: str) -> int:
    value = status.get(name, "")
    return int(value) if value.isdigit() else 0


def detect_role(connection: Any, variables: Mapping[str, str], status: Mapping[str, str]) -> RoleFinding:
    """The role from the replica status, the status counters and the binary log settings.

    `variables` and `status` are the SHOW GLOBAL VARIABLES/STATUS values by lower-case name.
    """
    import pymysql

    notes: list[str] = []
    try:
        found = _replica_from_rows(_replica_rows(connection))
    except (_Denied, pymysql.err.MySQLError) as exc:
        advice = "; grant SLAVE MONITOR (MySQL: REPLICATION CLIENT)" if isinstance(exc, _Denied) else ""
        notes.append(f"role: SHOW REPLICA STATUS failed ({exc.args[-1] if exc.args else exc}){advice}")
        found = None
        if _status_number(status, "slaves_running") or status.get("slave_running", "").upper() == "ON":
            found = RoleFinding("replica", "the Slaves_running/Slave_running status counters say replicating")
    if found is not None and found.role:
        return RoleFinding(found.role, found.how, (*notes, *found.notes))
    notes += found.notes if found is not None else ()
    connected = _status_number(status, "slaves_connected")
    if connected:
        return RoleFinding("primary", f"{connected} replica(s) connected (Slaves_connected)", tuple(notes))
    binlog = variables.get("log_bin", "").upper() == "ON"
    read_only = variables.get("read_only", "").upper() == "ON"
    if binlog and not read_only:
        return RoleFinding("primary", "the binary log is on and read_only is off", tuple(notes))
    why = "the binary log is off" if not binlog else "read_only is on"
    return RoleFinding("standalone", f"no replication running, no replica connected, {why}", tuple(notes))
