"""Options of the plugins an option file loads (`plugin_load_add = file_key_management`).

A loaded plugin's options are options of the server: `file_key_management_filename` is refused as an
unknown variable without the plugin and needed with it. ``data/mariadb-10.11-plugins.json`` holds, per
library of MariaDB 10.11.19's plugin directory, the options the binary lists once the library is loaded
(``python -m advisor.optioncheck.generate_plugins``). A loaded library we have no list for (ha_rocksdb,
ha_spider: not installed here) leaves the names under its prefix unjudged: taken, uncertain.
"""

from __future__ import annotations

import json
import os
from functools import cache

from msgspec.structs import replace

from advisor.optioncheck.data import DATA_DIR, FlavorData, _facts
from advisor.optioncheck.model import OptionFacts

PLUGINS_FILE = "mariadb-10.11-plugins.json"


@cache
def _libraries() -> dict[str, dict[str, OptionFacts]]:
    with open(os.path.join(DATA_DIR, PLUGINS_FILE), encoding="utf-8") as file:
        document = json.load(file)
    return {
        library: {name: _facts(name, entry) for name, entry in options.items()}
        for library, options in document["libraries"].items()
    }


def library_options_by_library() -> dict[str, dict[str, OptionFacts]]:
    """Library stem → the options it adds, for every library we have a list for."""
    return _libraries()


def library_options(loaded: frozenset[str]) -> dict[str, OptionFacts]:
    """Every option the loaded libraries (stems: `file_key_management`, `ha_archive`) add, as we know them."""
    known = _libraries()
    return {name: facts for library in sorted(loaded) for name, facts in known.get(library, {}).items()}


def unlisted_prefixes(loaded: frozenset[str]) -> tuple[str, ...]:
    """Name prefixes of loaded libraries we have no option list for: `ha_rocksdb` → rocksdb_*."""
    known = _libraries()
    prefixes: set[str] = set()
    for library in loaded - set(known):
        prefixes.update({library, library.removeprefix("ha_")})
    return tuple(sorted(prefixes))


def owned_by_unlisted(name: str, loaded: frozenset[str]) -> str | None:
    """The loaded library without an option list whose options `name` looks like, else None."""
    for prefix in unlisted_prefixes(loaded):
        if name == prefix or name.startswith(prefix + "_"):
            return prefix
    return None


_WITH: dict[tuple[int, frozenset[str]], FlavorData] = {}


def with_plugins(data: FlavorData, loaded: frozenset[str]) -> FlavorData:
    """`data` with the options of the loaded libraries added (cached per catalog and set of libraries)."""
    extra = library_options(loaded)
    if not extra:
        return data
    key = (id(data), loaded)
    found = _WITH.get(key)
    if found is None:
        options = {**data.options, **{n: f for n, f in extra.items() if n not in data.options}}
        found = _WITH[key] = replace(
            data, options=options, source=f"{data.source}; loaded plugins: {PLUGINS_FILE}"
        )
    return found
