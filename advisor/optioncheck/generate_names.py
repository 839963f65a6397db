"""Regenerate `data/names.json`: which option names each server version accepts, from the servers' own tests.

Run by hand after adding or changing a source extract (no network, no server needed)::

    .venv/bin/python -m advisor.optioncheck.generate_names [--check]

Inputs, every fact with its source:

* ``sources/<flavor>-<version>.names`` — the option names of one server version, as printed in the help
  section of its ``mysqld --verbose --help`` test result (``mysql-test/r/mysqld--help-notwin.result`` for
  MySQL). Each file starts with ``# key: value`` lines naming the flavor, version, repository, path and
  commit the names were read from (with the search tool's ``read_file``), and ``fork_adds``: options the
  copy of the source added, left out of the version's list; to refresh one, read the same file at a newer
  commit and write its ``--name`` entries in.
* ``data/mariadb-10.11.json`` — MariaDB 10.11's names read off the real ``mariadbd`` (generate_mariadb).
* ``../catalog/variables.json`` — when the tuned catalog dates a system variable later than the first
  snapshot whose option list already has the name, the option predates the variable: recorded under
  ``option_before_variable``.

Output (``data/names.json``, format 1): per flavor the snapshots in version order, and per canonical name
a string of ``0``/``1``, one character per snapshot (``1``: the version's option list has the name). The
test results leave some names out on purpose (``blind``): the test's own filter drops plugin options and a
few build-dependent ones (mysql-test/include/mysqld--help.inc: ``@plugins`` and the ``--ssl`` cut), and
plugins loaded by default print no enable option. A verdict on such a name is never trusted.

``--check`` rebuilds in memory and exits 1 when the checked-in file differs (a test runs it).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
SOURCES = HERE / "sources"
OUTPUT = HERE / "data" / "names.json"
MARIADB_REAL = HERE / "data" / "mariadb-10.11.json"
CATALOG = HERE.parent / "catalog" / "variables.json"
HEADER_KEYS = ("flavor", "version", "repo", "path", "commit", "note", "fork_adds")

# Names the test results cannot show, per flavor: prefixes (the name or name_...) and exact names.
BLIND: dict[str, dict[str, Any]] = {
    "mysql": {
        "source": (
            "mysql-test/include/mysqld--help.inc (mysql/mysql-server @ 0accbd0364e0 for 5.x, "
            "planetscale/mysql-server @ 18529f431c20 for 8.0/9.x): @plugins and @build_specific options and the "
            "help entries mentioning them are dropped from the result (innodb, ngram, mecab, mysqlx, ssl, "
            "tls-version, ...); admin_ssl is cut the same way; every default plugin's enable option (csv, "
            "memory, ...) is missing; Galera/Percona XtraDB Cluster builds add wsrep_* and pxc_* options"
        ),
        "prefixes": [
            "innodb", "ndb", "ndbcluster", "ndbinfo", "archive", "blackhole", "federated", "partition", "debug",
            "temp_pool", "ssl", "des_key_file", "thread_concurrency", "super_large_pages",
            "mutex_deadlock_detector", "null_audit", "maria", "aria", "pbxt", "oqgraph", "sphinx", "mysqlx",
            "ngram", "tls_version", "admin_tls_version", "admin_ssl", "mecab", "keyring_migration_socket",
            "auto_generate_certs", "lock_order", "enable_diagnostic_log", "log_diagnostic", "wsrep", "pxc",
        ],
        "names": [
            "csv", "memory", "heap", "mrg_myisam", "myisam", "perfschema", "binlog", "sha256_password",
            "caching_sha2_password", "mysql_native_password", "sha2_cache_cleaner", "daemon_keyring_proxy_plugin",
            "temptable", "keyring_proxy", "sha256_password_private_key_path", "sha256_password_public_key_path",
            "sha256_password_auto_generate_rsa_keys", "caching_sha2_password_auto_generate_rsa_keys",
        ],
    },
    "mariadb": {
        "source": (
            "MariaDB/server mysql-test/main/mysqld--help.test @ 02b64929992b (@plugins: the options of these "
            "plugins and the help entries mentioning them are dropped from the result), plus the plugins of "
            "later versions (s3, password_reuse_check, hashicorp, provider, gssapi, parsec) and the "
            "information-schema plugins of the thread pool; 10.11's own list is complete"
        ),
        "prefixes": [
            "innodb", "archive", "blackhole", "federated", "partition", "feedback", "debug", "temp_pool", "ssl",
            "des_key_file", "xtradb", "sequence", "thread_concurrency", "super_large_pages",
            "mutex_deadlock_detector", "connect", "null_audit", "aria", "oqgraph", "sphinx", "thread_handling",
            "test_sql_discovery", "query_cache_info", "in_predicate_conversion_threshold", "query_response_time",
            "metadata_lock_info", "locales", "unix_socket", "wsrep", "file_key_management",
            "cracklib_password_check", "user_variables", "s3", "password_reuse_check", "hashicorp", "provider",
            "gssapi", "parsec", "sql_sequence",
        ],
        "names": ["thread_pool_groups", "thread_pool_queues", "thread_pool_stats", "thread_pool_waits"],
    },
}  # fmt: skip


def canonical(name: str) -> str:
    return name.strip().lower().replace("-", "_")


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def read_extract(path: Path) -> tuple[dict[str, str], set[str]]:
    """(header, names) of one `.names` file."""
    header: dict[str, str] = {}
    names: set[str] = set()
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            key, colon, value = line[1:].strip().partition(":")
            if colon and key in HEADER_KEYS:
                header[key] = value.strip()
            continue
        names.update(canonical(word) for word in line.split())
    missing = [key for key in HEADER_KEYS[:5] if key not in header]
    if missing:
        raise SystemExit(f"{path}: header lacks {', '.join(missing)}")
    # options the copy of the source added (not upstream's): read, recorded, but not listed for the version
    return header, names - {canonical(word) for word in header.get("fork_adds", "").split()}


def real_mariadb() -> tuple[dict[str, str], set[str]]:
    document = json.loads(MARIADB_REAL.read_text())
    header = {
        "flavor": "mariadb",
        "version": "10.11.19",
        "repo": "mariadbd 10.11.19-MariaDB-0+deb12u1 on this machine",
        "path": "--verbose --help and information_schema.SYSTEM_VARIABLES (data/mariadb-10.11.json)",
        "commit": "-",
        "note": "complete: read off the real server with its plugins (generate_mariadb)",
    }
    return header, set(document["options"])


def snapshots() -> dict[str, list[tuple[dict[str, str], set[str]]]]:
    found: dict[str, list[tuple[dict[str, str], set[str]]]] = {}
    for path in sorted(SOURCES.glob("*.names")):
        header, names = read_extract(path)
        found.setdefault(header["flavor"], []).append((header, names))
    found.setdefault("mariadb", []).append(real_mariadb())
    for listed in found.values():
        listed.sort(key=lambda item: version_key(item[0]["version"]))
    return found


def _catalog_since(flavor: str) -> dict[str, str]:
    """The tuned catalog's first version of each system variable of the flavor (plain `since` only)."""
    since: dict[str, str] = {}
    for name, entry in json.loads(CATALOG.read_text())["variables"].items():
        block = entry.get(flavor)
        if not isinstance(block, dict):
            continue
        value = block.get("since", entry.get("since"))
        if isinstance(value, str) and value != "0" and "," not in value:
            since[name] = value
    return since


def option_before_variable(flavor: str, listed: list[tuple[dict[str, str], set[str]]]) -> dict[str, Any]:
    """Catalog names whose option appears in a snapshot older than the variable's `since`."""
    found: dict[str, Any] = {}
    for name, since in sorted(_catalog_since(flavor).items()):
        for header, names in listed:
            if name in names and version_key(header["version"]) < version_key(since):
                found[name] = {"option_seen": header["version"], "variable_since": since}
                break
    return found


def build() -> dict[str, Any]:
    flavors: dict[str, Any] = {}
    for flavor, listed in sorted(snapshots().items()):
        every = sorted(set().union(*(names for _, names in listed)))
        flavors[flavor] = {
            "snapshots": [{**header, "count": len(names)} for header, names in listed],
            "blind": BLIND.get(flavor, {"source": "", "prefixes": [], "names": []}),
            "option_before_variable": option_before_variable(flavor, listed),
            "names": {name: "".join("1" if name in names else "0" for _, names in listed) for name in every},
        }
    made_by = "python -m advisor.optioncheck.generate_names (from sources/*.names; do not edit)"
    return {"format": 1, "generated_by": made_by, "flavors": flavors}


def render(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=1, sort_keys=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when data/names.json is stale")
    args = parser.parse_args(argv)
    text = render(build())
    if args.check:
        stale = not OUTPUT.exists() or OUTPUT.read_text() != text
        print(f"{OUTPUT} is {'stale' if stale else 'up to date'}")
        return 1 if stale else 0
    OUTPUT.write_text(text)
    for flavor, block in json.loads(text)["flavors"].items():
        counts = ", ".join(f"{item['version']}: {item['count']}" for item in block["snapshots"])
        print(f"{flavor}: {counts}; option before variable: {len(block['option_before_variable'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
