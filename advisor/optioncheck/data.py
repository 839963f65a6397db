"""Loading the checked-in catalogs: lazily, once per process, only when a verdict is asked for.
Importing the package costs nothing; the first `judge()` reads the JSON files (about 100 kB)."""

from __future__ import annotations

import json
import os
from functools import cache, cached_property
from typing import Any

from msgspec import Struct, field
from msgspec.structs import replace

from advisor.optioncheck.model import OptionFacts
from advisor.optioncheck.mysql_numbers import mysql_only_facts
from advisor.optioncheck.versions import history

DATA_DIR = os.path.join(os.path.dirname(__file__), "data")  # not pathlib: ~2 ms of start-up
MARIADB_FILE = "mariadb-10.11.json"
NUMBER_TYPES = frozenset({"int", "uint", "longlong", "ulonglong", "double"})
QUIRKS_FILE = "mariadb-10.11-quirks.json"


def canonical(name: str) -> str:
    """Option names compare case-insensitively with '-' and '_' equal (as my_getopt does)."""
    return name.strip().lower().replace("-", "_")


class FlavorData(Struct, frozen=True, dict=True):
    """The names one flavor/version accepts, and what we know of each."""

    flavor: str
    version: str
    options: dict[str, OptionFacts]
    source: str
    names: dict[str, frozenset[str]] = field(default_factory=dict)  # charsets, collations, locales, variables
    quirks: dict[str, Any] = field(default_factory=dict)

    def core(self) -> dict[str, OptionFacts]:
        return self._lists[""]

    def early(self) -> dict[str, OptionFacts]:
        """The options the server parses before all others (max_connections, performance_schema*)."""
        return self._early

    def of_plugin(self, plugin: str) -> dict[str, OptionFacts]:
        return self._lists.get(plugin, {}) if plugin else {}

    def plugins(self) -> list[str]:
        return self._plugins

    def sorted_names(self, options: dict[str, OptionFacts]) -> tuple[str, ...]:
        """The names of one of this catalog's lists (core, early, a plugin's), sorted for prefix search."""
        names = self._sorted.get(id(options))
        if names is None:  # a list built elsewhere: sort it now
            return tuple(sorted(options))
        return names

    # Every option line asks for these lists; build them once per catalog, not once per line.
    @cached_property
    def _lists(self) -> dict[str, dict[str, OptionFacts]]:
        lists: dict[str, dict[str, OptionFacts]] = {"": {}}
        for name, facts in self.options.items():
            lists.setdefault(facts.plugin or "", {})[name] = facts
        return lists

    @cached_property
    def _early(self) -> dict[str, OptionFacts]:
        return {name: facts for name, facts in self.core().items() if facts.early}

    @cached_property
    def _sorted(self) -> dict[int, tuple[str, ...]]:
        lists = [self.options, self._early, *self._lists.values()]
        return {id(options): tuple(sorted(options)) for options in lists}

    @cached_property
    def _plugins(self) -> list[str]:
        return sorted(plugin for plugin in self._lists if plugin)


class Foreign(Struct, frozen=True):
    """Names that belong elsewhere: the other flavor, plugins not loaded, Windows-only values; and the words
    of set options per version (MySQL's lists, MariaDB's words newer than some of its versions)."""

    mysql_only: frozenset[str]
    mariadb_only: frozenset[str]
    plugin_prefixes: dict[str, str]
    windows_only_values: dict[str, dict[str, Any]]
    set_values: dict[str, Any]


def _read(name: str) -> Any:
    with open(os.path.join(DATA_DIR, name), encoding="utf-8") as file:
        return json.load(file)


def _facts(name: str, entry: dict[str, Any]) -> OptionFacts:
    return OptionFacts(
        name=name,
        type=entry["type"],
        arg=entry["arg"],
        plugin=entry.get("plugin"),
        variable=bool(entry.get("variable")),
        early=bool(entry.get("early")),
        maximum_ok=bool(entry.get("maximum_ok")),
        loose_bad_fatal=bool(entry.get("loose_bad_fatal")),
        min=entry.get("min"),
        max=entry.get("max"),
        block=entry.get("block"),
        values=tuple(entry.get("values", ())),
        source=entry.get("src", ""),
    )


@cache
def mariadb() -> FlavorData:
    document = _read(MARIADB_FILE)
    options = {name: _facts(name, entry) for name, entry in document["options"].items()}
    names = {kind: frozenset(n.lower() for n in listed) for kind, listed in document["names"].items()}
    names["locales"] = frozenset(document["names"]["locales"])
    names["compatibility_stubs"] = frozenset(document.get("mysql_compatibility_stubs", ()))
    names["variables"] = frozenset(
        [*document["variables_only"], *(n for n, f in options.items() if f.variable)]
    )
    quirks = _read(QUIRKS_FILE)
    return FlavorData("mariadb", document["version"], options, document["sources"]["help"], names, quirks)


@cache
def mariadb_wide() -> FlavorData:
    """10.11's options plus the names other MariaDB versions' test results list (types unknown there)."""
    real = mariadb()
    names = history("mariadb")
    extra = sorted(names.names() - set(real.options)) if names is not None else []
    # a name of other versions joins its family's plugin list in 10.11 (innodb_* InnoDB's): abbreviations
    # resolve per list, and old innodb_* names in the core list would make every innodb_ prefix ambiguous
    family: dict[str, list[str | None]] = {}
    for name, facts in real.options.items():
        family.setdefault(name.split("_")[0], []).append(facts.plugin)
    # the plugin owning most of the family (innodb_*: InnoDB, beside one-option information-schema plugins)
    plugin = {head: max(set(owners), key=owners.count) for head, owners in family.items()}
    options = dict(real.options)
    for n in extra:
        options[n] = OptionFacts(
            n, "string", "OPTIONAL", plugin=plugin.get(n.split("_")[0]), source="mariadb name only"
        )
    return replace(real, options=options, source=f"{real.source}; other versions: data/names.json")


@cache
def mariadb_near(names: frozenset[str]) -> FlavorData:
    """The MariaDB options of one version's neighbouring complete lists: what a name resolves against there."""
    wide = mariadb_wide()
    return replace(wide, options={name: facts for name, facts in wide.options.items() if name in names})


@cache
def mysql() -> FlavorData:
    """Every name some MySQL snapshot lists (types unknown there): where MariaDB has the same name we borrow
    its parse. Whether a name is an option of the target version is the version history's call (judge)."""
    names = history("mysql")
    assert names is not None, "data/names.json has no MySQL snapshots"
    maria = mariadb().options
    options: dict[str, OptionFacts] = {}
    for name in sorted(names.names()):
        known = maria.get(name)
        if known is not None and known.plugin is None:
            options[name] = replace(known, early=False, source="mariadb-10.11 parse, MySQL name")
        elif known is not None and known.plugin == "InnoDB" and known.type in NUMBER_TYPES:
            # number parsing is my_getopt's, shared; ranges differ per flavor: only the type is borrowed
            options[name] = OptionFacts(name, known.type, known.arg, source="mariadb-10.11 type, MySQL name")
        else:  # `--mysqlx-port[=#]`: a number to MySQL's own binaries, else any text
            options[name] = mysql_only_facts(name)
    versions = ", ".join(".".join(map(str, snap.version)) for snap in names.snapshots)
    return FlavorData("mysql", versions, options, "mysqld--help test results, data/names.json")


@cache
def mysql_near(names: frozenset[str]) -> FlavorData:
    """The MySQL options of one version's neighbouring lists: what a written name resolves against there
    (an abbreviation is unique or ambiguous among these, not among every version's names)."""
    every = mysql()
    return replace(every, options={name: facts for name, facts in every.options.items() if name in names})


@cache
def foreign() -> Foreign:
    document = _read("foreign.json")
    maria_names = set(mariadb().options)
    mysql_names = set(mysql().options)
    return Foreign(
        mysql_only=frozenset(mysql_names - maria_names),
        # MySQL's list has no plugin names, so InnoDB names cannot be called MariaDB-only
        mariadb_only=frozenset(name for name in maria_names if not name.startswith("innodb")) - mysql_names,
        plugin_prefixes=document["plugin_prefixes"],
        windows_only_values=document["windows_only_values"],
        set_values={flavor: document[f"{flavor}_set_values"] for flavor in ("mysql", "mariadb")},
    )
