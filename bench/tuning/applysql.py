"""Run every `apply_sql` of an audit against the live instance, in the order printed, and check
that the server neither refused nor clamped it: after each SET, `SELECT @@GLOBAL.x` must read back
the intended value. MariaDB rounds innodb_buffer_pool_size to a multiple of
innodb_buffer_pool_chunk_size; such rounding is expected and reported as such, not as a clamp."""

from __future__ import annotations

import re
import time
from dataclasses import asdict, dataclass
from typing import Any

import pymysql

_SET = re.compile(r"^\s*SET\s+(?:GLOBAL\s+|PERSIST\s+|@@GLOBAL\.)`?(\w+)`?\s*=\s*(.+?)\s*$", re.I | re.S)
_UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


@dataclass(frozen=True)
class Check:
    profile: str
    statement: str
    variable: str | None
    intended: str | None
    actual: str | None
    ok: bool
    note: str


def statements(sql: str) -> list[str]:
    """Split on `;` outside quotes."""
    parts, current, quote = [], "", ""
    for char in sql:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == ";":
            parts.append(current.strip())
            current = ""
            continue
        current += char
    parts.append(current.strip())
    return [part for part in parts if part]


def normalise(value: Any) -> str:
    """Sizes in bytes, ON/OFF as 1/0, numbers without trailing zeros, the rest upper case."""
    text = str(value).strip().strip("'\"")
    size = re.fullmatch(r"(\d+)\s*([KMGT])B?", text, re.I)
    if size:
        return str(int(size.group(1)) * _UNITS[size.group(2).upper()])
    if text.upper() in ("ON", "TRUE", "OFF", "FALSE"):
        return "1" if text.upper() in ("ON", "TRUE") else "0"
    try:
        number = float(text)
        return str(int(number)) if number.is_integer() else repr(number)
    except ValueError:
        return text.upper()


def run_all(
    conn: pymysql.connections.Connection, profile: str, findings: list[dict[str, Any]]
) -> list[Check]:  # type: ignore[type-arg]
    checks = []
    for finding in findings:
        for statement in statements(finding.get("apply_sql") or ""):
            checks.append(check_one(conn, profile, statement))
    return checks


def check_one(conn: pymysql.connections.Connection, profile: str, statement: str) -> Check:  # type: ignore[type-arg]
    match = _SET.match(statement)
    variable, intended = (match.group(1).lower(), match.group(2)) if match else (None, None)
    with conn.cursor() as cur:
        try:
            cur.execute(statement)
        except pymysql.MySQLError as exc:
            return Check(profile, statement, variable, intended, None, False, f"refused: {exc.args}")
        cur.execute("SHOW WARNINGS")
        warnings = "; ".join(str(row[2]) for row in cur.fetchall())
        if variable is None or intended is None:
            return Check(
                profile, statement, None, None, None, True, "not a SET GLOBAL; ran it, nothing to read back"
            )
        if variable == "innodb_buffer_pool_size":
            _wait_pool_resize(cur)
        cur.execute(f"SELECT @@GLOBAL.{variable}")
        actual = str(cur.fetchone()[0])
        ok, note = _compare(cur, variable, intended, actual)
    note = f"{note}; warnings: {warnings}" if warnings else note
    return Check(profile, statement, variable, intended, actual, ok, note)


def _compare(cur: Any, variable: str, intended: str, actual: str) -> tuple[bool, str]:
    want, got = normalise(intended), normalise(actual)
    if want == got:
        return True, "read back as intended"
    if variable == "innodb_buffer_pool_size" and want.isdigit() and got.isdigit():
        cur.execute("SELECT @@GLOBAL.innodb_buffer_pool_chunk_size")
        chunk = int(cur.fetchone()[0])
        if int(got) % chunk == 0 and abs(int(got) - int(want)) < chunk:
            return True, f"rounded to a multiple of innodb_buffer_pool_chunk_size ({chunk}): expected"
    return False, f"CLAMPED or changed: intended {intended} ({want}), server has {actual} ({got})"


def _wait_pool_resize(cur: Any, timeout: float = 300.0) -> None:
    """The resize runs in the background; wait until the server says it completed (or failed)."""
    began = time.monotonic()
    while time.monotonic() - began < timeout:
        cur.execute("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_resize_status'")
        row = cur.fetchone()
        status = str(row[1]) if row else ""
        if not status or "Completed" in status or "fail" in status.lower():
            return
        time.sleep(1)


def as_dicts(checks: list[Check]) -> list[dict[str, Any]]:
    return [asdict(check) for check in checks]
