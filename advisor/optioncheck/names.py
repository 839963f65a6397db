"""Which option a written name reaches, per flavor — and, when none, what the name probably was.

MariaDB 10.11 (observed): names are case-insensitive, '-' equals '_'. A name is looked up first
among the options parsed early (max_connections, performance_schema*), then among the server's
own options, then in each plugin's options; in each list an exact name wins and otherwise a prefix
that matches one option is taken (plugins log "Using unique option prefix ... is error-prone").
So `max_conn` reaches max_connections even though max_connect_errors shares the prefix. A prefix
matching several options is refused by the core ("ambiguous option", exit 3) and disables the
plugin whose list it is ambiguous in. MySQL 5.5/5.6 take a unique prefix with a deprecation
warning; MySQL 5.7 and later refuse every prefix (WL#6978).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable

from msgspec import Struct

from advisor.optioncheck.data import FlavorData, Foreign
from advisor.optioncheck.model import OptionFacts

SPECIAL_PREFIXES = ("loose", "skip", "disable", "enable", "maximum")


class Resolution(Struct, frozen=True):
    """`facts` when one option is reached; `ambiguous` lists the candidates when several match."""

    facts: OptionFacts | None = None
    by_prefix: bool = False
    ambiguous: tuple[str, ...] = ()
    plugin: str | None = None  # the list (plugin) that found the name ambiguous


def _match(
    name: str, options: dict[str, OptionFacts], data: FlavorData
) -> tuple[OptionFacts | None, bool, tuple[str, ...]]:
    exact = options.get(name)
    if exact is not None:
        return exact, False, ()
    keys = data.sorted_names(options)  # the names starting with `name` sit side by side
    first = bisect_left(keys, name)
    last = first
    while last < len(keys) and keys[last].startswith(name):
        last += 1
    candidates = keys[first:last]
    if len(candidates) == 1:
        return options[candidates[0]], True, ()
    return None, False, candidates


def _plugins_reached(name: str, data: FlavorData) -> list[str]:
    """The plugins (in list order) with an option that is `name` or starts with it: one search of the
    whole sorted catalog instead of one per plugin list (some 44), as every other list finds nothing."""
    keys = data.sorted_names(data.options)
    reached = set()
    index = bisect_left(keys, name)
    while index < len(keys) and keys[index].startswith(name):
        reached.add(data.options[keys[index]].plugin)
        index += 1
    return [plugin for plugin in data.plugins() if plugin in reached]


def resolve_mariadb(name: str, data: FlavorData) -> Resolution:
    core = data.core()
    for options in (data.early(), core):
        facts, by_prefix, candidates = _match(name, options, data)
        if facts is not None:
            return Resolution(facts, by_prefix)
        if candidates and options is core:
            return Resolution(ambiguous=candidates)
    found: Resolution | None = None
    ambiguous: list[Resolution] = []
    for plugin in _plugins_reached(name, data):  # every plugin parses the whole line against its own list
        facts, by_prefix, candidates = _match(name, data.of_plugin(plugin), data)
        if len(candidates) > 1:
            ambiguous.append(Resolution(ambiguous=candidates, plugin=plugin))
        if facts is not None and (found is None or found.by_prefix):
            found = Resolution(facts, by_prefix)
    if ambiguous:  # name the plugin that matters most: the one with the longest list (InnoDB)
        return max(ambiguous, key=lambda item: len(data.of_plugin(item.plugin or "")))
    return found or Resolution()


def resolve_mysql(name: str, data: FlavorData) -> Resolution:
    """One list for MySQL; whether a prefix may be used at all is the version's call (judge)."""
    facts, by_prefix, candidates = _match(name, data.options, data)
    if facts is not None:
        return Resolution(facts, by_prefix)
    return Resolution(ambiguous=candidates) if len(candidates) > 1 else Resolution()


def strip_special(name: str) -> tuple[str, str] | None:
    """('skip', 'x') for 'skip_x': the prefixes my_getopt tries when a name matches nothing."""
    for prefix in SPECIAL_PREFIXES:
        if name.startswith(prefix + "_") and len(name) > len(prefix) + 1:
            return prefix, name[len(prefix) + 1 :]
    return None


def closest(name: str, known: Iterable[str]) -> list[str]:
    """Known names one or two edits from `name`, nearest first (only the nearest distance).

    Edits are Damerau-Levenshtein's with adjacent swaps counted once (optimal string alignment);
    rapidfuzz computes them in C with a cut-off, so 700 names cost microseconds, not milliseconds.
    """
    from rapidfuzz import process  # only when a name is unknown
    from rapidfuzz.distance import OSA

    near = process.extract(name, list(known), scorer=OSA.distance, score_cutoff=2, limit=None)
    if not near:
        return []
    best = min(score for _, score, _ in near)
    return sorted(candidate for candidate, score, _ in near if score == best)


def classify_unknown(
    name: str, flavor: str, data: FlavorData, foreign: Foreign, known: Iterable[str] | None = None
) -> tuple[str, str, str | None]:
    """(reason, plain words, intended name or None) for a name the server does not know; `known`, when
    given, the names the target version has (a typo is corrected only to an option that exists there)."""
    other = foreign.mysql_only if flavor == "mariadb" else foreign.mariadb_only
    other_name = "MySQL" if flavor == "mariadb" else "MariaDB"
    if name in other:
        return "other_flavor", f"'{name}' is a {other_name} option; {flavor} does not know it", None
    near = closest(name, data.options if known is None else known)
    if len(near) == 1:
        return "misspelling", f"'{name}' is not an option; it looks like a misspelling of {near[0]}", near[0]
    for prefix, plugin in foreign.plugin_prefixes.items():
        if name == prefix or name.startswith(prefix + "_"):
            return "plugin_not_loaded", f"'{name}' belongs to {plugin}, which is not loaded", None
    if near:
        return "misspelling", f"'{name}' is not an option; did you mean one of {', '.join(near)}?", None
    return "unknown_name", f"'{name}' is not an option of this server", None


def special_value(specials: list[str], value: str | None) -> str | None:
    """skip-/disable- turn the option off (given '0': on), enable- on (given '0': off)."""
    for special in specials:
        if special in ("skip", "disable"):
            return "1" if value == "0" else "0"
        if special == "enable":
            return "0" if value == "0" else "1"
    return value
