"""Startup: settings the option parser takes (`--verbose --help` passes) that abort the real start.

Each was started on a private mariadbd 10.11.19 instance (own data directory, socket and port): the
server parsed the file, then stopped while initialising its engines. The facts behind them (plugins
loaded, InnoDB on or off, engines present) are shared in `advisor.derived.engines`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from advisor.derived.engines import (
    default_engine_lines,
    engine_available,
    innodb_disabled_by,
    innodb_lines,
    innodb_stays_off,
    key_plugin_loaded,
)
from advisor.findings import Evidence, Severity
from advisor.references import MARIADB_INNODB_VARIABLES, MARIADB_SERVER_VARIABLES
from advisor.rules import Proposal, mariadb_only, rule

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.inputs.optionfiles import OptionEntry

MARIADB_ENCRYPTION_KEYS = "https://mariadb.com/kb/en/encryption-key-management/"
MARIADB_DISABLE_INNODB = "https://mariadb.com/kb/en/innodb-system-variables/#innodb"
MARIADB_DEFAULT_ENGINE = f"{MARIADB_SERVER_VARIABLES}#default_storage_engine"
# Settings that need keys at startup; mariadbd 10.11.19 without a key plugin: "InnoDB: cannot enable
# encryption, encryption plugin is not available" (the first three, ON and FORCE alike), "Failed to enable
# encryption of temporary files" (the last). encrypt_binlog, aria_encrypt_tables and
# encrypt_tmp_disk_tables start without keys.
_NEED_KEYS: Final = (
    "innodb_encrypt_tables", "innodb_encrypt_log", "innodb_encrypt_temporary_tables", "encrypt_tmp_files",
)  # fmt: skip
_OFF_WORDS: Final = frozenset({"off", "0", "false", "no"})
_ENGINE_OPTIONS: Final = ("default_storage_engine", "default_tmp_storage_engine", "enforce_storage_engine")


def _written(entry: OptionEntry) -> str:
    return entry.raw_name if entry.given is None else f"{entry.raw_name} = {entry.given}"


def _comment_out(entry: OptionEntry, title: str, rationale: str, variable: str) -> Proposal:
    where = f"{entry.file}:{entry.line}"
    return Proposal(
        title=title,
        rationale=f"{where}: {rationale}",
        evidence=(Evidence(f"option line in [{entry.group}]", _written(entry), where),),
        variable=variable,
        change="comment_out",
        option_file=entry.file,
        option_line=entry.line,
    )


@rule(
    "startup.innodb_disabled",
    Severity.CRITICAL,
    [MARIADB_DISABLE_INNODB, MARIADB_DEFAULT_ENGINE],
    versions=mariadb_only(),
)
def innodb_disabled(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: a line that disables InnoDB (`skip-innodb`, `disable-innodb`, `innodb = OFF`,
    with or without `loose-`) while the default storage engine, or the default temporary one, is InnoDB
    (the default) or an engine the server does not have.

    Why it matters: the server refuses to run without its default engine: mariadbd 10.11.19 logs "Plugin
    'InnoDB' is disabled", then "Unknown/unsupported storage engine: InnoDB" and aborts. Old option files
    (MySQL 4/5.0 days, when InnoDB was optional) carry the line.

    What we recommend: comment the line out; InnoDB then starts as the default engine. To run without
    InnoDB on purpose, set default_storage_engine (and default_tmp_storage_engine, if set) to an engine the
    server has (Aria, MyISAM): such a file starts and the line stays, and no InnoDB advice is given then.

    Caveats: MariaDB only (observed on its binary). A data directory holding InnoDB tables needs InnoDB.
    """
    if innodb_disabled_by(ctx) is None or innodb_stays_off(ctx):
        return
    engines = {name: entry.value for name, entry in default_engine_lines(ctx).items()}
    defaults = (
        ", ".join(f"{name} = {value}" for name, value in engines.items()) or "default_storage_engine unset"
    )
    for entry in innodb_lines(ctx):
        yield _comment_out(
            entry,
            f"{_written(entry)}: {ctx.version.describe()} does not start",
            f"the line disables InnoDB, and the default storage engine is still InnoDB ({defaults}): the "
            "server aborts at startup ('Unknown/unsupported storage engine: InnoDB'). Comment the line out; "
            "to run without InnoDB, set default_storage_engine to another engine (Aria, MyISAM) instead.",
            "innodb",
        )


@rule(
    "startup.unknown_storage_engine",
    Severity.CRITICAL,
    [MARIADB_DEFAULT_ENGINE, f"{MARIADB_SERVER_VARIABLES}#enforce_storage_engine"],
    versions=mariadb_only(),
)
def unknown_storage_engine(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: default_storage_engine, default_tmp_storage_engine or enforce_storage_engine naming an
    engine the server does not have: a plugin engine (RocksDB, Spider, BLACKHOLE, ARCHIVE...) whose library
    the option files do not load.

    Why it matters: the option parser takes any name; at startup mariadbd 10.11.19 says
    "Unknown/unsupported storage engine: RocksDB" and aborts.

    What we recommend: comment the line out (the server keeps its default, InnoDB), or load the engine's
    plugin (`plugin_load_add = ha_rocksdb`) where it is installed, and keep the line.

    Caveats: MariaDB only. Engines built in are those of a default 10.11 build (InnoDB, Aria, MyISAM, MEMORY,
    CSV, MRG_MyISAM, SEQUENCE); an engine of a loaded library is taken as present. InnoDB named while InnoDB
    is disabled is startup.innodb_disabled's.
    """
    for name, entry in _engine_lines(ctx).items():
        engine = (entry.value or "").strip().strip("'\"")
        if not engine or engine.lower() == "innodb" or engine_available(ctx, engine):
            continue
        yield _comment_out(
            entry,
            f"{_written(entry)}: {ctx.version.describe()} does not start",
            f"{engine} is not an engine this server has: no option file loads its plugin, and the server "
            f"aborts at startup ('Unknown/unsupported storage engine: {engine}'). Comment the line out, or "
            "load the engine's plugin with plugin_load_add where it is installed.",
            name,
        )


def _engine_lines(ctx: AuditContext) -> dict[str, OptionEntry]:
    found: dict[str, OptionEntry] = {}
    entries = ctx.options.entries(ctx.groups_read) if ctx.options is not None else ()
    for entry in entries:
        if entry.prefix is None and entry.name in _ENGINE_OPTIONS:
            found[entry.name] = entry
    return found


@rule(
    "startup.encryption_without_keys",
    Severity.CRITICAL,
    [MARIADB_ENCRYPTION_KEYS, f"{MARIADB_INNODB_VARIABLES}#innodb_encrypt_tables"],
    versions=mariadb_only(),
)
def encryption_without_keys(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: innodb_encrypt_tables (ON or FORCE), innodb_encrypt_log,
    innodb_encrypt_temporary_tables or encrypt_tmp_files turned on while no option file starts a key
    management plugin (file_key_management, hashicorp_key_management, aws_key_management).

    Why it matters: encryption needs keys at startup. mariadbd 10.11.19 says "InnoDB: cannot enable
    encryption, encryption plugin is not available", InnoDB fails to register and the server aborts
    ("Unknown/unsupported storage engine: InnoDB"); encrypt_tmp_files stops it with "Failed to enable
    encryption of temporary files".

    What we recommend: comment the line out, or load and configure a key management plugin
    (`plugin_load_add = file_key_management` with `file_key_management_filename`) and keep the line.

    Caveats: MariaDB only. A key plugin loaded but switched OFF gives no keys. A server that runs without
    InnoDB (see startup.innodb_disabled) starts with the InnoDB ones. encrypt_binlog,
    aria_encrypt_tables and encrypt_tmp_disk_tables start without keys and are left alone.
    """
    if key_plugin_loaded(ctx) or ctx.options is None:
        return
    last: dict[str, OptionEntry] = {}
    for entry in ctx.options.entries(ctx.groups_read):
        if entry.name in _NEED_KEYS and entry.prefix in (None, "skip", "disable", "enable"):
            last[entry.name] = entry
    for name, entry in last.items():
        if (entry.value or "ON").strip().lower() in _OFF_WORDS or (
            name.startswith("innodb") and innodb_stays_off(ctx)
        ):
            continue  # off, or an InnoDB setting of a server that runs without InnoDB (it starts)
        yield _comment_out(
            entry,
            f"{_written(entry)}: {ctx.version.describe()} does not start",
            f"{name} needs encryption keys, and no option file starts a key management plugin: the server "
            "aborts at startup ('cannot enable encryption, encryption plugin is not available'). Comment the "
            "line out, or load a key plugin (plugin_load_add = file_key_management, with its key file).",
            name,
        )


RULES = (innodb_disabled, unknown_storage_engine, encryption_without_keys)
