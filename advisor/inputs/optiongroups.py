"""Which option-file groups the server reads, by flavor and version.

The server collects options from every group it reads in file order, whatever the group, so the
order of the groups below does not matter: the last occurrence of an option in the files wins.
Group names compare without regard to case (`[MYSQLD]` is `[mysqld]`).
"""

from __future__ import annotations

from typing import Final

from advisor.version import ServerVersion

#: Groups that only the server reads, where new server settings may be written. `client-server` is left
#: out (the client programs read it too and stop on server-only options) and so is `galera`.
SERVER_ONLY_PREFIXES: Final = ("mysqld", "server", "mariadb", "mariadbd")

#: The groups mysqld_safe reads for its own options such as `malloc-lib` (MySQL manual, mysqld_safe:
#: "[mysqld_safe] … for backward compatibility, it also reads [safe_mysqld]"). It reads [mysqld] and
#: [server] too, but its own options there would stop mysqld.
MYSQLD_SAFE_GROUPS: Final = frozenset({"mysqld_safe", "safe_mysqld"})


def groups_read(version: ServerVersion) -> frozenset[str]:
    """The option groups mysqld/mariadbd of this flavor and version reads (lower case, no brackets).

    MySQL and Percona Server: `[mysqld]`, `[server]` and `[mysqld-X.Y]` for the server's major.minor
    (sql/mysqld.cc `load_default_groups` = {"mysqld", "server", MYSQL_BASE_VERSION}; MySQL Reference
    Manual, "Using Option Files"). Percona Server and Percona XtraDB Cluster use the MySQL list.

    MariaDB (KB "Configuring MariaDB with Option Files", server option groups; sql/mysqld.cc):
    `[mysqld]`, `[server]`, `[mysqld-X.Y]`, `[mariadb]`, `[mariadb-X.Y]` and `[client-server]`;
    `[galera]` in every 10.1+ build (wsrep is compiled in since 10.1); `[mariadbd]` and `[mariadbd-X.Y]`
    from 10.4.6, when the `mariadbd` name arrived. Checked against the real binary:
    `mariadbd --help --verbose` (10.11.19) prints "The following groups are read: mysqld server
    mysqld-10.11 mariadb mariadb-10.11 mariadbd mariadbd-10.11 client-server galera".
    Newer development sources also read major-only groups (`[mariadb-13]`); no released server
    documented here does, so they are not listed.
    """
    line = version.line
    groups = {"mysqld", "server", f"mysqld-{line}"}
    if version.is_mariadb:
        groups.update(("mariadb", f"mariadb-{line}", "client-server"))
        if version.at_least(10, 1):
            groups.add("galera")
        if version.at_least(10, 4, 6):
            groups.update(("mariadbd", f"mariadbd-{line}"))
    return frozenset(groups)


def is_server_only_group(group: str, groups: frozenset[str]) -> bool:
    """A group the server reads and no client program does: where new server settings belong."""
    return group in groups and group.split("-", 1)[0] in SERVER_ONLY_PREFIXES
