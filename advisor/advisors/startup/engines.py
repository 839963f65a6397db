"""Engines at startup: InnoDB disabled while it is still the default engine, and default engines the server
does not have. Both pass `--verbose --help` and abort the real start (mariadbd 10.11.19, a private instance)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from advisor.advisors.startup.lines import comment_out, winning_lines, written
from advisor.derived.engines import (
    default_engine_lines,
    engine_available,
    innodb_disabled_by,
    innodb_lines,
    innodb_stays_off,
    mysql_engines_certain,
    nearest_mysql,
)
from advisor.findings import Severity
from advisor.references import MARIADB_SERVER_VARIABLES
from advisor.rules import Proposal, mariadb_only, rule

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.inputs.optionfiles import OptionEntry

MARIADB_DISABLE_INNODB = "https://mariadb.com/kb/en/innodb-system-variables/#innodb"
MARIADB_DEFAULT_ENGINE = f"{MARIADB_SERVER_VARIABLES}#default_storage_engine"
MYSQL_DEFAULT_ENGINE = (
    "https://dev.mysql.com/doc/refman/8.0/en/server-system-variables.html#sysvar_default_storage_engine"
)
_ENGINE_OPTIONS: Final = ("default_storage_engine", "default_tmp_storage_engine", "enforce_storage_engine")
_MYSQL_ENGINE_OPTIONS: Final = ("default_storage_engine", "default_tmp_storage_engine")


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
        yield comment_out(
            entry,
            f"{written(entry)}: {ctx.version.describe()} does not start",
            f"the line disables InnoDB, and the default storage engine is still InnoDB ({defaults}): the "
            "server aborts at startup ('Unknown/unsupported storage engine: InnoDB'). Comment the line out; "
            "to run without InnoDB, set default_storage_engine to another engine (Aria, MyISAM) instead.",
            "innodb",
        )


@rule(
    "startup.unknown_storage_engine",
    Severity.CRITICAL,
    [MARIADB_DEFAULT_ENGINE, f"{MARIADB_SERVER_VARIABLES}#enforce_storage_engine", MYSQL_DEFAULT_ENGINE],
)
def unknown_storage_engine(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: default_storage_engine, default_tmp_storage_engine or enforce_storage_engine naming an
    engine the server does not have: a plugin engine (RocksDB, Spider, BLACKHOLE, ARCHIVE...) whose library
    the option files do not load.

    Why it matters: the option parser takes any name; at startup mariadbd 10.11.19 says
    "Unknown/unsupported storage engine: RocksDB" and aborts.

    What we recommend: comment the line out (the server keeps its default, InnoDB), or load the engine's
    plugin (`plugin_load_add = ha_rocksdb`) where it is installed, and keep the line.

    MySQL 5.7.42 and 8.0.46 (private instances) abort alike ("Unknown/unsupported storage engine: MyISAMx"),
    also with `loose-` and on an empty value; their engines are those of information_schema.ENGINES
    (InnoDB, MyISAM, MEMORY, CSV, ARCHIVE, BLACKHOLE, MRG_MYISAM, PERFORMANCE_SCHEMA; `heap`, `merge` and
    `innobase` name three of them; FEDERATED only with a `federated` line).

    Caveats: for MySQL the binary of the target's line speaks, with certainty up to its own release; a
    later release, 8.4 or 9.x (no binary here) gets 8.0.46's engines as a warning, and the line stays.
    For MariaDB, engines built in are those of a default 10.11 build (InnoDB, Aria, MyISAM, MEMORY,
    CSV, MRG_MyISAM, SEQUENCE); an engine of a loaded library is taken as present. InnoDB is unknown while
    it is disabled: with the default engines set to others (skip-innodb, default_storage_engine = Aria),
    `enforce_storage_engine = InnoDB` aborts (mariadbd 10.11.19) and is commented out here; while a default
    engine still needs InnoDB, startup.innodb_disabled comments out the switch instead.
    """
    mysql = ctx.version.is_mysql
    for name, entry in winning_lines(ctx, _MYSQL_ENGINE_OPTIONS if mysql else _ENGINE_OPTIONS).items():
        engine = (entry.value or "").strip().strip("'\"")
        if (not engine and not mysql) or engine_available(ctx, engine):
            continue
        if mysql and not mysql_engines_certain(ctx):
            yield _unsure(ctx, entry, engine, name)
            continue
        if engine.lower() == "innodb" and not innodb_stays_off(ctx):
            continue  # InnoDB disabled while a default engine needs it: startup.innodb_disabled's
        yield comment_out(
            entry,
            f"{written(entry)}: {ctx.version.describe()} does not start",
            f"{engine} is not an engine this server has: "
            f"{_why_missing(ctx, engine)}, and the server "
            f"aborts at startup ('Unknown/unsupported storage engine: {engine}'). Comment the line out, or "
            f"{_remedy(engine)}.",
            name,
        )


def _unsure(ctx: AuditContext, entry: OptionEntry, engine: str, name: str) -> Proposal:
    """A MySQL release no binary here covers: the nearest binary lacks the engine; warn, keep the line."""
    return Proposal(
        title=f"{written(entry)}: {ctx.version.describe()} probably does not start",
        rationale=f"{entry.file}:{entry.line}: '{engine}' is not an engine of MySQL {nearest_mysql(ctx)} (the nearest "
        f"release observed), which aborts at startup ('Unknown/unsupported storage engine: {engine}'); no "
        f"{ctx.version.describe()} was watched refusing it, so the line is kept: check it before you deploy.",
        variable=name,
        severity=Severity.WARNING,
    )


def _why_missing(ctx: AuditContext, engine: str) -> str:
    disabled = innodb_disabled_by(ctx)
    if engine.lower() == "innodb" and disabled is not None:
        return f"{disabled.file}:{disabled.line} ({written(disabled)}) disables it"
    return "no option file loads its plugin"


def _remedy(engine: str) -> str:
    if engine.lower() == "innodb":
        return "remove the line that disables InnoDB"
    return "load the engine's plugin with plugin_load_add where it is installed"
