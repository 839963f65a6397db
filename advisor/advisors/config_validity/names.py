"""Near-miss option names (typos of a name the version knows) and who reads an option group.

A near miss is a letter or two from a known name (one missing, added, changed, or two swapped):
the test looks up each one-letter deletion of the name in an index of the deletions of every known
name, built once per version. Results are memoised per name, so a fleet's repeated files cost a
dictionary lookup.
"""

from __future__ import annotations

from typing import Final, Literal

from advisor.patterns import lazy

GroupRole = Literal["server", "other_version", "mysqld_safe", "client", "unknown"]

#: Server variables that client programs or mysqld_safe also take: legitimate outside the server's groups.
CLIENT_SIDE_OPTIONS: Final = frozenset(
    {
        "port", "socket", "user", "basedir", "datadir", "pid_file", "log_error", "open_files_limit",
        "malloc_lib", "tmpdir", "default_character_set", "max_allowed_packet", "net_buffer_length",
        "connect_timeout", "local_infile", "bind_address", "secure_auth", "key_buffer_size", "key_buffer",
        "sort_buffer_size", "read_buffer_size", "myisam_sort_buffer_size", "ft_min_word_len",
        "interactive_timeout", "server_id", "plugin_dir", "lc_messages_dir", "init_command",
    }
)  # fmt: skip
_MYSQLD_SAFE_GROUPS: Final = frozenset({"mysqld_safe", "safe_mysqld", "mariadb-safe", "mariadbd-safe"})
_CLIENT_GROUPS: Final = frozenset(
    {
        "client", "mysql", "mysqldump", "mysqladmin", "mysqlcheck", "mysqlimport", "mysqlshow", "mysqlslap",
        "mysqlbinlog", "mysqlhotcopy", "mysqlpump", "mysql_upgrade", "isamchk", "myisamchk", "myisampack",
        "client-mariadb", "mariadb-client", "mariadb-dump", "mariadb-admin", "mariadb-check",
        "mariadb-import", "mariadb-show", "mariadb-slap", "mariadb-binlog", "mariadb-upgrade",
    }
)  # fmt: skip
# Groups of tools that legitimately carry server options (backup tools, the embedded server, Galera SST,
# mysqld_multi) or that belong to test frameworks: nothing to say about them.
_TOOL_GROUPS: Final = frozenset(
    {"embedded", "xtrabackup", "mariabackup", "mariadb-backup", "sst", "mysqld_multi", "galera", "env"}
)
_VERSION_GROUP_RE: Final = lazy(r"(?:mysqld|mariadb|mariadbd)-\d+\.\d+\Z")
# `[mysqld3307]`, `[mysqld_replica]`: mysqld_multi instances and --defaults-group-suffix groups, which a
# server started that way does read. MySQL never reads the MariaDB names.
_SERVER_PREFIXES: Final = ("mysqld", "server")
_MARIADB_SERVER_PREFIXES: Final = ("mysqld", "mariadbd", "mariadb", "server")


def group_role(group: str, groups_read: frozenset[str], mariadb: bool) -> GroupRole | None:
    """Who reads `group`: this server, another server version, mysqld_safe, client programs, nobody
    we know of (`unknown`); None when it may well be read by a server started differently."""
    if group in groups_read:
        return "server"
    if _VERSION_GROUP_RE().match(group):
        return "other_version"
    if not group or "." in group or group in _TOOL_GROUPS:  # mysql-test `[mysqld.1]`, backup tools
        return None
    if group in _MYSQLD_SAFE_GROUPS:
        return "mysqld_safe"
    if group in _CLIENT_GROUPS:
        return "client"
    if group.startswith(_MARIADB_SERVER_PREFIXES if mariadb else _SERVER_PREFIXES):
        return None
    return "unknown"


_INDEXES: dict[frozenset[str], dict[str, str]] = {}
_MEMO: dict[tuple[str, frozenset[str], bool], str | None] = {}
_MEMO_LIMIT: Final = 20_000


def _deletion_index(known: frozenset[str]) -> dict[str, str]:
    index = _INDEXES.get(known)
    if index is None:
        index = {}
        for name in sorted(known):
            for position in range(len(name)):
                index.setdefault(name[:position] + name[position + 1 :], name)
        _INDEXES[known] = index
    return index


def near_miss(name: str, known: frozenset[str], accepts_prefixes: bool) -> str | None:
    """The known name `name` is a near miss of (one or two letters off), or None.

    `accepts_prefixes`: the server takes a unique prefix of an option name (MariaDB, MySQL before 5.7),
    so a name that starts a known one is an abbreviation, not a typo.
    """
    key = (name, known, accepts_prefixes)
    if key in _MEMO:
        return _MEMO[key]
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    found = _MEMO[key] = _near_miss(name, known, accepts_prefixes)
    return found


def _near_miss(name: str, known: frozenset[str], accepts_prefixes: bool) -> str | None:
    if accepts_prefixes and any(candidate.startswith(name) for candidate in known):
        return None
    index = _deletion_index(known)
    if name in index:  # a letter missing
        return index[name]
    for position in range(len(name)):
        shorter = name[:position] + name[position + 1 :]
        if shorter in known:  # a letter too many
            return shorter
        if shorter in index:  # a letter changed, or two swapped
            return index[shorter]
    return None
