"""MySQL's storage engines, character sets and collations: what the real 5.7.42 and 8.0.46 binaries have
(data/mysql-charsets.json, written by generate_mysql_charsets from their information_schema).

Observed at real starts of both binaries (private instances, option file lines): an engine, character set
or collation the server lacks aborts the start ("Unknown/unsupported storage engine: MyISAMx", "Unknown
collation: 'x'", for a character set only "Aborting"), `loose-` does not help, and an empty value aborts
too. Names are case-insensitive; `utf8` and `utf8mb3` name the same character set (`utf8_general_ci` and
`utf8mb3_general_ci` the same collation) on both; `heap`, `merge` and `innobase` name MEMORY, MRG_MYISAM
and InnoDB; FEDERATED is built in but off (SUPPORT NO) until a `federated` line turns it on.

Which binary speaks for a target: the one of its release line, with certainty up to its own patch release
(within 5.7 and 8.0 these names were only ever added: a name the binary lacks was not there before it).
A later patch release, 8.4 and 9.x (no binary here) and 5.6 or older get the nearest binary's facts,
uncertain: a name it lacks is most likely refused there too, but nobody watched that server refuse it.
"""

from __future__ import annotations

import json
import os
from functools import cache

from msgspec import Struct

_FILE = os.path.join(os.path.dirname(__file__), "data", "mysql-charsets.json")
ENGINE_ALIASES = {"heap": "memory", "merge": "mrg_myisam", "innobase": "innodb"}


class ServerNames(Struct, frozen=True):
    """What one binary has: engines it runs, engines built in but off, character sets, collations."""

    version: tuple[int, ...]
    binary: str
    engines: frozenset[str]
    engines_disabled: frozenset[str]
    charsets: frozenset[str]
    collations: dict[str, str]  # collation → its character set
    default_charset: str  # character_set_server when the files set none


@cache
def _servers() -> tuple[ServerNames, ...]:
    with open(_FILE, encoding="utf-8") as file:
        document = json.load(file)
    return tuple(
        ServerNames(
            tuple(int(part) for part in version.split(".")),
            entry["binary"],
            frozenset(entry["engines"]),
            frozenset(entry["engines_disabled"]),
            frozenset(entry["charsets"]),
            {name: charset.lower() for name, charset in entry["collations"].items()},
            entry["defaults"]["character_set_server"].lower(),
        )
        for version, entry in sorted(document["servers"].items())
    )


def speaking_for(version: tuple[int, ...]) -> tuple[ServerNames, bool]:
    """(the binary whose facts hold for `version`, whether they are certain there)."""
    servers = _servers()
    for server in servers:
        if server.version[:2] == version[:2]:
            return server, version <= server.version
    older = [server for server in servers if server.version <= version]
    return (older[-1] if older else servers[0]), False


def _utf8_spellings(name: str) -> tuple[str, ...]:
    """`utf8_general_ci` and `utf8mb3_general_ci` (and `utf8` / `utf8mb3`) are one name to both binaries."""
    for short, long in (("utf8mb3", "utf8"),):
        if name == short or name.startswith(short + "_"):
            return name, long + name[len(short) :]
        if name == long or name.startswith(long + "_"):
            return name, short + name[len(long) :]
    return (name,)


def has_charset(server: ServerNames, name: str) -> bool:
    return any(spelling in server.charsets for spelling in _utf8_spellings(name.strip().lower()))


def has_collation(server: ServerNames, name: str) -> bool:
    return any(spelling in server.collations for spelling in _utf8_spellings(name.strip().lower()))


def charset_of(server: ServerNames, collation: str) -> str | None:
    """The character set a collation belongs to (utf8 and utf8mb3 both read as `utf8mb3`); None: unknown."""
    for spelling in _utf8_spellings(collation.strip().lower()):
        if spelling in server.collations:
            return same_charset(server.collations[spelling])
    return None


def same_charset(name: str) -> str:
    """One spelling per character set: `utf8` → `utf8mb3`."""
    lowered = name.strip().lower()
    return "utf8mb3" if lowered == "utf8" else lowered


def has_engine(server: ServerNames, name: str, federated_on: bool = False) -> bool:
    """Does the server run `name` as a default engine? FEDERATED only with a `federated` line."""
    engine = name.strip().lower()
    engine = ENGINE_ALIASES.get(engine, engine)
    return engine in server.engines or (federated_on and engine in server.engines_disabled)
