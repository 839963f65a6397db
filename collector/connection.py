"""Connecting to the server with PyMySQL: host and port or a Unix socket, a user, and a password
read from a file or the environment — never from the command line, where `ps` would show it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from collector.errors import CollectError

PASSWORD_ENV = "INNOTUNE_COLLECT_PASSWORD"
DEFAULT_PORT = 3306
CONNECT_TIMEOUT_SECONDS = 10
#: A statement that runs longer (the schema query over tens of thousands of tables) is cut off.
READ_TIMEOUT_SECONDS = 600
PROGRAM_NAME = "innotune-collect"  # shown in performance_schema.session_connect_attrs


@dataclass(frozen=True)
class ConnectionOptions:
    """Where and as whom to connect. The password is left out of the repr, so it never lands in a log."""

    user: str
    host: str | None = None
    port: int = DEFAULT_PORT
    socket: str | None = None
    password: str = field(default="", repr=False)

    def describe(self) -> str:
        """`user@host:port` or `user@/path/to.sock`, for messages."""
        where = self.socket if self.socket else f"{self.host}:{self.port}"
        return f"{self.user}@{where}"


def read_password(password_file: str | None, environ: Mapping[str, str]) -> str:
    """The first line of `password_file`, stripped; else $INNOTUNE_COLLECT_PASSWORD; else empty
    (for accounts that log in by socket authentication)."""
    if password_file is None:
        return environ.get(PASSWORD_ENV, "")
    try:
        text = Path(password_file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise CollectError(f"{password_file}: cannot read the password file ({reason})") from None
    lines = text.splitlines()
    return lines[0].strip() if lines else ""


def connect(options: ConnectionOptions) -> Any:
    """An autocommit PyMySQL connection; CollectError saying why when the server refuses or is away."""
    import pymysql

    try:
        return pymysql.connect(
            host=None if options.socket else options.host,
            port=options.port,
            unix_socket=options.socket,
            user=options.user,
            password=options.password,
            charset="utf8mb4",
            autocommit=True,
            connect_timeout=CONNECT_TIMEOUT_SECONDS,
            read_timeout=READ_TIMEOUT_SECONDS,
            program_name=PROGRAM_NAME,
        )
    except pymysql.err.MySQLError as exc:
        # PyMySQL's messages name the host and the user, never the password.
        reason = exc.args[1] if len(exc.args) > 1 else str(exc)
        raise CollectError(f"cannot connect to {options.describe()}: {reason}") from None
