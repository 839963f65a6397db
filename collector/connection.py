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
ER_ACCESS_DENIED = 1045


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


def _open(options: ConnectionOptions, password: str) -> Any:
    import pymysql

    return pymysql.connect(
        host=None if options.socket else options.host,
        port=options.port,
        unix_socket=options.socket,
        user=options.user,
        password=password,
        charset="utf8mb4",
        autocommit=True,
        connect_timeout=CONNECT_TIMEOUT_SECONDS,
        read_timeout=READ_TIMEOUT_SECONDS,
        program_name=PROGRAM_NAME,
    )


def _current_account(connection: Any) -> str:
    """CURRENT_USER(): the account the server matched, `user@host` (`@localhost` when anonymous)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT CURRENT_USER()")
        row = cursor.fetchone()
    value = row[0] if row else ""
    return value.decode() if isinstance(value, bytes) else str(value)


def anonymous_pitfall(user: str, account: str) -> str:
    """What to tell a user whose connection the server gave to the anonymous account `account`."""
    host = account.rpartition("@")[2]
    return (
        f"the server matches this connection to the anonymous account ''@'{host}' (an empty user name "
        f"matches every user, and the server picks the account with the most specific host first, so it "
        f"wins over '{user}'@'%'). Either drop the anonymous accounts (DROP USER ''@'{host}'; as "
        f"mariadb-secure-installation does) or create the account for this host: "
        f"CREATE USER '{user}'@'{host}' ... with the grants of docs/collector.md"
    )


def _anonymous_match(options: ConnectionOptions) -> str | None:
    """After an access denied: the anonymous account the server matches for this user and host,
    found by logging in with an empty password (it succeeds only through an anonymous account
    without a password, as mariadb-install-db creates them); None when that is not the cause."""
    import pymysql

    try:
        probe = _open(options, "")
    except pymysql.err.MySQLError:
        return None
    try:
        account = _current_account(probe)
    except pymysql.err.MySQLError:
        return None
    finally:
        probe.close()
    return account if account.startswith("@") else None


def connect(options: ConnectionOptions) -> Any:
    """An autocommit PyMySQL connection; CollectError saying why when the server refuses or is away.

    An anonymous account (''@'localhost', created by mariadb-install-db) takes precedence over
    'user'@'%' for connections from its host: the refusal, or a login as that anonymous account,
    is explained with what to do.
    """
    import pymysql

    try:
        connection = _open(options, options.password)
    except pymysql.err.MySQLError as exc:
        # PyMySQL's messages name the host and the user, never the password.
        reason = exc.args[1] if len(exc.args) > 1 else str(exc)
        message = f"cannot connect to {options.describe()}: {reason}"
        denied = bool(exc.args) and exc.args[0] == ER_ACCESS_DENIED and bool(options.user)
        if denied and (account := _anonymous_match(options)) is not None:
            pitfall = anonymous_pitfall(options.user, account)
            message += f". {pitfall[0].upper()}{pitfall[1:]}"
        raise CollectError(message) from None
    account = _current_account(connection)
    if options.user and account.startswith("@"):
        connection.close()
        raise CollectError(
            f"connected to {options.describe()} but not as {options.user}: "
            f"{anonymous_pitfall(options.user, account)}"
        )
    return connection
