"""The effective configuration: catalog defaults, then the my.cnf, then MySQL 8.0+'s persisted values
(mysqld-auto.cnf, read after the option files at every start), then live SHOW VARIABLES.

Live wins over the persisted value, that over the file, the file over the compiled-in default. A complete live dump is also the
truth of what exists: a variable it lacks has no default in effect (advisor.context.LiveExistence); an
excerpt gives its values and proves nothing about the rest. Settings are built on first
access (an audit reads a few dozen of the ~500 variables a dump holds), so building the context
costs next to nothing. A variable whose live value differs from the file's, compared as the server
stores them (advisor.stored_value), is drift: a change not applied yet, a file that is not the one the
server reads, or a value the server could not run (with the reason). A persisted variable is judged against
its persisted value instead: that is what a restart brings back (checked on MySQL 8.0.46: `max_connections
= 200` in the file and 300 persisted runs 300 after a restart), so a live value equal to it is no drift.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from typing import TYPE_CHECKING, TypeVar, overload

from advisor.context import EffectiveConfig, LiveExistence, ReadLog, Setting
from advisor.derived.engines import plugins_loaded_by, plugins_shown_by
from advisor.effective_lines import entry_in_force, spelled_out
from advisor.inputs.optionfiles import last_lines
from advisor.maximum_prefix import last_setting, maximum_sets_value
from advisor.redact import holds_secret_pair, is_secret_option
from advisor.sql import default_text
from advisor.stored_value import DriftCheck, compare
from advisor.units import parse_size

if TYPE_CHECKING:
    from advisor.catalog import Catalog
    from advisor.inputs.optionfiles import OptionEntry, OptionFileSet
    from advisor.inputs.statusvars import StatusView, VariablesDump
    from advisor.version import ServerVersion

T = TypeVar("T")

# Prefixes whose entries do not set the variable itself (`maximum-x` caps SET SESSION x).
_NOT_A_VALUE = frozenset({"maximum", "autoset"})
POOL = "innodb_buffer_pool_size"
#: a file's pool this close above the pool counted in SHOW GLOBAL STATUS is the one running.
POOL_MATCH_FRACTION = 0.95
# Variables shown as ON/OFF whose option takes a base name that turns them on (`log-bin = mysql-bin`).
_BASE_NAME_TURNS_ON = frozenset({"log_bin"})


_UNBUILT = object()


class LayeredSettings(Mapping[str, Setting]):
    """Name → Setting over three layers, each Setting made (and cached) when first asked for."""

    def __init__(
        self,
        catalog: Catalog,
        version: ServerVersion,
        file_entries: Mapping[str, OptionEntry],
        live: Mapping[str, str],
        existence: LiveExistence | None = None,
        fixed: Mapping[str, OptionEntry | None] | None = None,
        persisted: Mapping[str, str] | None = None,
    ) -> None:
        self._catalog = catalog
        self._version = version
        self._file = file_entries
        self._live = live
        self._existence = existence
        self._fixed = fixed or {}  # lines the server refuses → the line in force once they are commented out
        self._persisted = persisted or {}
        self._cache: dict[str, Setting | None] = {}
        #: the names looked up (see ReadLog), fresh once the settings are built.
        self.log = ReadLog()

    def __getitem__(self, name: str) -> Setting:
        found = self.get(name)
        if found is None:
            raise KeyError(name)
        return found

    @overload
    def get(self, name: str, /) -> Setting | None: ...
    @overload
    def get(self, name: str, /, default: Setting | T) -> Setting | T: ...
    def get(self, name: str, /, default: object = None) -> object:
        """The setting, or `default` when no layer has it — without the KeyError that Mapping.get
        catches (rules ask for ~150 settings an audit, several absent). A watched name is logged."""
        log = self.log
        if name in log.watched and log.names is not None:
            log.names.add(name)
        found = self._cache.get(name, _UNBUILT)
        if found is _UNBUILT:
            found = self._cache[name] = self._build(name)
        return default if found is None else found

    def __iter__(self) -> Iterator[str]:
        self.log.names = None
        names = set(self._live) | set(self._file) | set(self._persisted)
        names |= set(self._catalog.names_for(self._version))
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

    def observe(self, setting: Setting) -> None:
        """A live value seen elsewhere than SHOW GLOBAL VARIABLES (a status counter) wins over the file."""
        self._cache[setting.name] = setting

    def _build(self, name: str) -> Setting | None:
        entry = self._file.get(name)
        file_value = _entry_value(entry) if entry is not None else None
        live_value = self._live.get(name)
        persisted = self._persisted.get(name)
        file, line, group = (entry.file, entry.line, entry.group) if entry is not None else (None, None, None)
        if live_value is not None:
            return Setting(
                name, live_value, "live", file, line, group, file_value, live_value, persisted_value=persisted
            )
        if persisted is not None:  # no live value: the last start read it after the files
            return Setting(
                name, persisted, "persisted", file, line, group, file_value, persisted_value=persisted
            )
        if name in self._fixed:
            entry = self._fixed[name]
            file_value = _entry_value(entry) if entry is not None else None
            file, line, group = (
                (entry.file, entry.line, entry.group) if entry is not None else (None, None, None)
            )
        if file_value is not None and entry is not None:
            return Setting(name, _runs_as(entry), "cnf", file, line, group, file_value)
        if self._existence is not None and self._existence.lacks(self._catalog, self._version, name):
            return None  # the live server has no such variable, so no default is in effect either
        default = default_text(self._catalog.default(name, self._version))
        return Setting(name, default, "default") if default is not None else None


def _entry_value(entry: OptionEntry) -> str:
    """A bare flag means ON; `skip-`/`disable-`/`enable-` already gave their value."""
    return "ON" if entry.value is None else entry.value


def _runs_as(entry: OptionEntry) -> str:
    """The value the server runs with from this line: a `log_bin` line names the binary log's files, so
    any value turns it on — `log_bin = OFF` writes OFF.000001 (mariadbd 10.11.19, MySQL 8.0.46; 5.7.42
    then asks for a server_id) — while `skip-log-bin` / `disable-log-bin` turn it off."""
    if entry.name in _BASE_NAME_TURNS_ON and entry.prefix is None:
        return "ON"
    return _entry_value(entry)


def _file_entries(
    catalog: Catalog,
    version: ServerVersion,
    options: OptionFileSet | None,
    groups: Collection[str],
    installed: frozenset[str] = frozenset(),
) -> tuple[dict[str, OptionEntry], dict[str, OptionEntry | None]]:
    """The file's effective options, less those that set nothing at this version: `maximum-`
    caps, and names the catalog knows the server refuses or ignores (a `tx_isolation` line on
    MySQL 8.0 is no isolation level, however it reads). A name the server takes as a unique prefix sets the
    option it reaches (`sort_buffer = 64M` on MariaDB: advisor.effective_lines.spelled_out; `installed`: the
    plugins a live dump shows, whose options count too). Also, apart, the entries whose value the server
    refuses, mapped to the line config_validity leaves in force instead (advisor.effective_lines; None:
    the default): the value advisors judge when no live value is known. Drift compares the file as written."""
    if options is None:
        return {}, {}
    entries: dict[str, OptionEntry] = {}
    fixed: dict[str, OptionEntry | None] = {}
    assigned: list[str] = []  # plugin options with a `maximum-` line: it may be the setting in force
    lines = options.entries(groups)
    plugins = plugins_loaded_by(lines) | installed
    spelled = spelled_out(version, lines, lambda name: catalog.lookup(name, version) is None, plugins)
    for name, item in last_lines(spelled).items():
        if item.entry.prefix in _NOT_A_VALUE:
            if item.entry.prefix == "maximum" and maximum_sets_value(version, item.entry.name):
                assigned.append(item.entry.name)
            continue
        facts = catalog.lookup(name, version)
        if facts is not None and (not facts.option_file_ok or facts.ignored):
            continue
        entries[name] = item.entry
        in_force = (
            entry_in_force(version, item, facts.values is not None) if facts is not None else item.entry
        )
        if in_force is not item.entry:
            fixed[name] = in_force  # None: its only lines are commented out, the default is in force
        for variable in catalog.variables_set_by(name, version):
            entries.setdefault(variable, item.entry)  # the option sets a variable of another name
            if in_force is not item.entry:
                fixed.setdefault(variable, in_force)
    for name in assigned:
        _plugin_maximum(options, groups, name, entries)
        fixed.pop(name, None)
    return entries, fixed


def _plugin_maximum(
    options: OptionFileSet, groups: Collection[str], name: str, entries: dict[str, OptionEntry]
) -> None:
    """`maximum-innodb_buffer_pool_size = 1G` starts a 1G pool on MariaDB when no plain line comes after it
    (advisor.maximum_prefix): that line is the setting in force."""
    last = last_setting(options, groups, name)
    if last is not None and last.prefix == "maximum":
        entries[name] = last


def _drift_check(
    catalog: Catalog, version: ServerVersion, name: str, file_value: str, live: Mapping[str, str]
) -> DriftCheck:
    """The file's value (as it runs: `_runs_as`) against the live one as the server stores them
    (advisor.stored_value): `log-bin = mysql-bin` in a file is not drift from ON, though it is from OFF."""
    return compare(catalog, version, name, file_value, live[name], live.get)


def _pool_seen_in_status(
    file_entries: Mapping[str, OptionEntry], status: StatusView | None
) -> Setting | None:
    """Without a variables dump, SHOW GLOBAL STATUS still shows the pool the server runs
    (Innodb_buffer_pool_pages_total × Innodb_page_size). When the file's size is not that pool, the
    file is not in effect yet: the running pool is the live value (a re-audit of a file installed but
    not applied must not read as fixed). MariaDB counts a few pages fewer than the size (block
    descriptors take ~1%), so a file within POOL_MATCH_FRACTION of the counted pool matches."""
    entry = file_entries.get(POOL)
    if status is None or entry is None:
        return None
    pages, page_size = status.value("innodb_buffer_pool_pages_total"), status.value("innodb_page_size")
    file_bytes = parse_size(_entry_value(entry))
    if not pages or not page_size or not file_bytes:
        return None
    running = pages * page_size
    if running <= file_bytes and running >= file_bytes * POOL_MATCH_FRACTION:
        return None
    return Setting(
        POOL,
        str(running),
        "live",
        entry.file,
        entry.line,
        entry.group,
        _entry_value(entry),
        str(running),
        live_source="SHOW GLOBAL STATUS (Innodb_buffer_pool_pages_total × Innodb_page_size)",
    )


def build_effective_config(
    catalog: Catalog,
    version: ServerVersion,
    options: OptionFileSet | None,
    groups: Collection[str],
    variables: VariablesDump | None,
    status: StatusView | None = None,
    persisted: Mapping[str, str] | None = None,
) -> EffectiveConfig:
    """Merge the layers; record the variables whose live value departs from what a restart brings back:
    the persisted value where there is one (`persisted`: MySQL 8.0+ only), else the file's."""
    # The dump's own mapping, not a copy (nothing here writes to it): ~650 names copied twice an audit
    # (a dict and a frozenset) were ~2% of the bench audit's instructions.
    live: Mapping[str, str] = variables.values if variables is not None else {}
    existence = LiveExistence.from_dump(variables) if variables is not None else None
    installed = plugins_shown_by(existence.names) if existence is not None else frozenset()
    file_entries, fixed = _file_entries(catalog, version, options, groups, installed)
    persisted_given, persisted = persisted, persisted or {}
    settings = LayeredSettings(catalog, version, file_entries, live, existence, fixed, persisted)
    at_restart = {name: _runs_as(entry) for name, entry in file_entries.items()}
    at_restart.update(persisted)
    checks = {
        name: _drift_check(catalog, version, name, value, live)
        for name, value in at_restart.items()
        if name in live
        and not is_secret_option(name)  # never echoed, and the server masks some (`********`)
        and not holds_secret_pair(value)  # wsrep_provider_options' socket.ssl_password=…
        and not holds_secret_pair(live[name])
    }
    drift = tuple(settings[name] for name, check in checks.items() if check.differs)
    reasons = {name: check.reason for name, check in checks.items() if check.reason is not None}
    seen = _pool_seen_in_status(file_entries, status) if variables is None else None
    if seen is not None:
        settings.observe(seen)
        drift = (*drift, seen)
    settings.log = ReadLog(watched=[setting.name for setting in drift])
    return EffectiveConfig(
        settings=settings, drift=drift, live=existence, drift_reasons=reasons, persisted=persisted_given
    )
