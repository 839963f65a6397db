"""Which option line sets a variable once the file we hand back is installed.

A line the server refuses for its value, or one that makes it disable a plugin (`innodb_buffer_pool_size
= -1`, a bare `innodb_buffer_pool_size`, `innodb_flush_log_at_trx_commit = on` on MariaDB), is commented
out by config_validity, and where the intent is clear the corrected line is written with the user's value.
So what the advisors must judge is not the bad text but what the server runs after that fix: the
corrected value (`on` → `1`; a boolean MariaDB reads by its first digit, `innodb_doublewrite = 0;`, as
that digit: OFF, as mariadbd 10.11.19 runs it), else the line read before it (the one the comment-out brings back into
force), else the compiled-in default. Advising on the bad text instead left the buffer-pool advisor
silent about a 24G box running the default pool, and let a spelling fix (`1`) override the ci profile's `2`.

A name the server takes as a unique prefix (`sort_buffer = 64M` is sort_buffer_size on MariaDB, which matches
prefixes: mariadbd 10.11.19 runs sort_buffer_size 64M, max_connections 5000 for `max_conn = 5000`) sets
the option it reaches: `spelled_out` renames such lines before the last line per name is chosen, so
the advisors judge the value that runs (config_validity still writes the full name in the file). MySQL
5.7 and later refuse prefixes (judge() says so): there the line stays unknown and sets nothing.

Judging a line costs ~12 µs, so only values that are not plainly fine (a plain number or size)
are asked about, and verdicts are kept per (flavor, version, line) for a fleet that repeats them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from msgspec.structs import replace

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from advisor.inputs.optionfiles import EffectiveOption, OptionEntry
    from advisor.optioncheck import Verdict
    from advisor.version import ServerVersion

# A plain number or size (no sign, no fraction): read as written by any numeric option (`on` is not, for one).
_PLAIN_RE: Final = re.compile(r"\d{1,19}[kmgtpe]?", re.I)
_GONE: Final = "\x00"  # cached: the line is commented out without a correction
_VERDICTS: dict[tuple[object, ...], str | None] = {}  # line → None (fine), corrected value, or _GONE
_VERDICTS_LIMIT: Final = 20_000
# Verdicts of a boolean read by its first digit (with the name written in full, or abbreviated).
_READ_AS_DIGIT: Final = frozenset({"number_bool", "unique_prefix"})
# Verdicts that name the option a line reaches (its name resolved, whatever its value's fate).
_REACHED: Final = frozenset(
    {
        "unique_prefix",
        "bad_value",
        "loose_bad_value",
        "bad_bool",
        "out_of_range",
        "block_rounding",
        "number_bool",
    }
)


def _fixed_value(version: ServerVersion, entry: OptionEntry, listed: bool) -> str | None:
    """None when the server reads the line as written; else the corrected value, or _GONE."""
    if entry.prefix is not None or (entry.given is not None and _PLAIN_RE.fullmatch(entry.given.strip())):
        return None  # skip-/enable- give their own value; maximum- is another module's business
    if listed and not (version.is_mariadb and version.line == "10.11"):
        return (
            None  # the words a list takes change between releases; ours are 10.11's (MariaDB 10.5 has `none`)
        )
    key = (version.is_mariadb, version.as_tuple(), entry.raw_name, entry.given, listed)
    if key in _VERDICTS:
        return _VERDICTS[key]
    from advisor.optioncheck import judge

    flavor = "mariadb" if version.is_mariadb else "mysql"
    said = judge(entry.raw_name, entry.given, flavor=flavor, version=version.as_tuple())
    fixed: str | None = None
    reached = (said.option or "").replace("-", "_") == entry.name
    if said.is_critical and reached:
        name, _, value = (said.suggestion or "").partition("=")
        same = name.strip().replace("-", "_").lower() == entry.name
        fixed = value.strip() if same and value.strip() else _GONE
    elif reached and said.reason in _READ_AS_DIGIT and said.value in ("ON", "OFF"):
        fixed = said.value  # `innodb_doublewrite = 0;` runs OFF; config_validity writes `= 0`
    if len(_VERDICTS) >= _VERDICTS_LIMIT:
        _VERDICTS.clear()
    _VERDICTS[key] = fixed
    return fixed


def entry_in_force(
    version: ServerVersion, found: EffectiveOption, listed: bool = False
) -> OptionEntry | None:
    """The line that sets the variable once refused lines are commented out (with the corrected value
    where config_validity writes one); None when none does and the default is in force. `listed`: the
    variable takes one of a list of words (an enum or set)."""
    for entry in (found.entry, *reversed(found.shadowed)):
        fixed = _fixed_value(version, entry, listed)
        if fixed is None:
            return entry
        if fixed != _GONE:
            return replace(entry, value=fixed, given=fixed)
    return None


def prefixes_after(version: ServerVersion, entry: OptionEntry, before: bool) -> bool:
    """MariaDB's getopt-prefix-matching (default ON) takes effect from the next option on, in the order the
    server reads them: mariadbd 10.11.19 refuses `max_connection=500` after `skip-getopt-prefix-matching`
    (exit 7, "unknown variable") and accepts it before."""
    if not version.is_mariadb or entry.name != "getopt_prefix_matching":
        return before
    return (entry.value or "ON").upper() not in ("0", "OFF", "FALSE")


def _verdict(version: ServerVersion, entry: OptionEntry, plugins: frozenset[str]) -> Verdict:
    from advisor.optioncheck import judge

    flavor = "mariadb" if version.is_mariadb else "mysql"
    return judge(entry.raw_name, entry.given, flavor=flavor, version=version.as_tuple(), plugins=plugins)


def spelled_out(
    version: ServerVersion,
    entries: Iterable[OptionEntry],
    unknown: Callable[[str], bool],
    plugins: frozenset[str] = frozenset(),
) -> list[OptionEntry]:
    """`entries` (read order) with each name the server takes as a unique prefix renamed to the option it
    reaches (`raw_name` keeps the text written). Only names `unknown` to the catalog are asked about, and
    only where config_validity trusts the verdict (certain; not Percona Server, which adds options)."""
    found: list[OptionEntry] = []
    prefixes = True
    for entry in entries:
        if (
            prefixes
            and entry.prefix not in ("maximum", "autoset")
            and unknown(entry.name)
            and not version.is_percona
        ):
            said = _verdict(version, entry, plugins)
            full = (said.option or "").replace("-", "_")
            if said.reason in _REACHED and said.certain and full and full != entry.name:
                entry = replace(entry, name=full)
        prefixes = prefixes_after(version, entry, prefixes)
        found.append(entry)
    return found
