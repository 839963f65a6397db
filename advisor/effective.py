"""The effective configuration: catalog defaults, then the my.cnf, then live SHOW VARIABLES.

Live wins over the file, the file over the compiled-in default. A complete live dump is also the
truth of what exists: a variable it lacks has no default in effect (advisor.context.LiveExistence). Settings are built on first
access (an audit reads a few dozen of the ~500 variables a dump holds), so building the context
costs next to nothing. A variable whose live value differs from the file's is drift: a change
not applied yet, or a file that is not the one the server reads.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from typing import TYPE_CHECKING

from advisor.context import EffectiveConfig, LiveExistence, Setting
from advisor.sql import same_value
from advisor.units import parse_bool

if TYPE_CHECKING:
    from advisor.catalog import Catalog
    from advisor.inputs.optionfiles import OptionEntry, OptionFileSet
    from advisor.inputs.statusvars import VariablesDump
    from advisor.version import ServerVersion

# Prefixes whose entries do not set the variable itself (`maximum-x` caps SET SESSION x).
_NOT_A_VALUE = frozenset({"maximum", "autoset"})


def _default_text(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "ON" if value else "OFF"
    return str(value)


class LayeredSettings(Mapping[str, Setting]):
    """Name → Setting over three layers, each Setting made (and cached) when first asked for."""

    def __init__(
        self,
        catalog: Catalog,
        version: ServerVersion,
        file_entries: Mapping[str, OptionEntry],
        live: Mapping[str, str],
        existence: LiveExistence | None = None,
    ) -> None:
        self._catalog = catalog
        self._version = version
        self._file = file_entries
        self._live = live
        self._existence = existence
        self._cache: dict[str, Setting | None] = {}

    def __getitem__(self, name: str) -> Setting:
        if name not in self._cache:
            self._cache[name] = self._build(name)
        found = self._cache[name]
        if found is None:
            raise KeyError(name)
        return found

    def __iter__(self) -> Iterator[str]:
        names = set(self._live) | set(self._file) | set(self._catalog.names_for(self._version))
        return iter(sorted(name for name in names if name in self))

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        try:
            self[name]
        except KeyError:
            return False
        return True

    def _build(self, name: str) -> Setting | None:
        entry = self._file.get(name)
        file_value = _entry_value(entry) if entry is not None else None
        live_value = self._live.get(name)
        file, line, group = (entry.file, entry.line, entry.group) if entry is not None else (None, None, None)
        if live_value is not None:
            return Setting(name, live_value, "live", file, line, group, file_value, live_value)
        if file_value is not None:
            return Setting(name, file_value, "cnf", file, line, group, file_value)
        if self._existence is not None and self._existence.lacks(self._catalog, self._version, name):
            return None  # the live server has no such variable, so no default is in effect either
        default = _default_text(self._catalog.default(name, self._version))
        return Setting(name, default, "default") if default is not None else None


def _entry_value(entry: OptionEntry) -> str:
    """A bare flag means ON; `skip-`/`disable-`/`enable-` already gave their value."""
    return "ON" if entry.value is None else entry.value


def _file_entries(
    catalog: Catalog, version: ServerVersion, options: OptionFileSet | None, groups: Collection[str]
) -> dict[str, OptionEntry]:
    """The file's effective options, less those that set nothing at this version: `maximum-`
    caps, and names the catalog knows the server refuses or ignores (a `tx_isolation` line on
    MySQL 8.0 is no isolation level, however it reads)."""
    if options is None:
        return {}
    entries: dict[str, OptionEntry] = {}
    for name, item in options.effective(groups).items():
        if item.entry.prefix in _NOT_A_VALUE:
            continue
        facts = catalog.lookup(name, version)
        if facts is not None and (not facts.option_file_ok or facts.ignored):
            continue
        entries[name] = item.entry
        for variable in catalog.variables_set_by(name, version):
            entries.setdefault(variable, item.entry)  # the option sets a variable of another name
    return entries


def _differs(catalog: Catalog, version: ServerVersion, name: str, file_value: str, live_value: str) -> bool:
    """Only values of the same kind compare: `log-bin = mysql-bin` in a file is not drift from ON."""
    if (parse_bool(live_value) is None) != (parse_bool(file_value) is None):
        return False
    return not same_value(catalog, version, name, file_value, live_value)


def build_effective_config(
    catalog: Catalog,
    version: ServerVersion,
    options: OptionFileSet | None,
    groups: Collection[str],
    variables: VariablesDump | None,
) -> EffectiveConfig:
    """Merge the three layers; record the variables whose live value departs from the file."""
    file_entries = _file_entries(catalog, version, options, groups)
    live = dict(variables.values) if variables is not None else {}
    existence = LiveExistence.from_dump(live) if variables is not None else None
    settings = LayeredSettings(catalog, version, file_entries, live, existence)
    drift = tuple(
        settings[name]
        for name, entry in file_entries.items()
        if name in live and _differs(catalog, version, name, _entry_value(entry), live[name])
    )
    return EffectiveConfig(settings=settings, drift=drift, live=existence)
