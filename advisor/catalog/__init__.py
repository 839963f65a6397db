"""The version catalog: which server variables and options exist in which MySQL, MariaDB and Percona
Server release, with their defaults, ranges, units, scope, dynamism and option-file spelling.

Data lives in `variables.json` next to this module (one entry per name; every fact notes its manual
page). The file is read once per process, on first use (`get_catalog()`); per-name facts are compiled
lazily and per-version answers are memoised, so a lookup is a couple of dict hits.

Vocabulary (see `VariableFacts`):

* *exists*: the server version has the system variable (for option-only entries such as `skip_log_bin`:
  the option is accepted and does something).
* *option_file_ok*: `name = value` under `[mysqld]` (or `[mysqld_safe]` for `kind == "mysqld_safe"`) is
  accepted at startup. True also for removed options that the server still swallows with a warning
  ("stubs": MariaDB 10.6+ and `innodb_buffer_pool_instances`), in which case `ignored` is True too.
* *option_name*: how to set this in a my.cnf (underscores, as the server prints names); it differs from
  the name for e.g. `tx_isolation` (set through `transaction_isolation`) and unique-prefix aliases
  (`key_buffer` → `key_buffer_size`), and is None when the value cannot come from an option file.

Data file (`variables.json`, format 1). `variables` maps each lower-case name to an object with shared
fields plus one block per flavor that has the name: `mysql`, `mariadb`, `percona` (Percona Server reads
the `mysql` block overlaid by its own; `"percona": null` would hide a MySQL name). A name without a block
for a flavor does not exist there. Fields, shared or per block:

* `unit` (bytes, count, pages, percent, seconds, milliseconds, microseconds, bool, enum, set, string),
  `scope` (global, session, both), `kind` (variable — the default —, option, mysqld_safe);
* `default`, `auto` (default sized at startup), `min`, `max`, `values` (an enum's words in the server's
  numbering: `name = 1` sets the second), `dynamic`, `block_size` (the server rounds a value down to a
  multiple of it, in an option file and in SET GLOBAL alike; measured on MariaDB 10.11.19, MySQL 5.7.42 and
  8.0.46 with `--verbose --help`, a timeline starting at the measured line where earlier ones were not);
* lifecycle boundaries: `since`, `deprecated`, `ignored` (accepted without effect), `removed`,
  `option_since` (the option predates the variable); `present` (a true/false timeline for names removed
  and brought back); `stub` with `stub_since`/`stub_until` (still accepted in option files after removal);
* `option` (null: not settable from an option file; another name: the option that sets it),
  `successor`, `alias_of`, `prefix_of` (accepted only as a unique option prefix);
* `source` (manual page) and `note` (caveats, approximate versions).

Any value field may instead be a timeline `{"0": old, "5.6.8": new}`; versions are compared on full
`x.y.z`, and a key may list one change per maintained line (`"10.6.16,10.11.6"`), see `timeline.py`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from typing import Any, Final, Literal, cast

from msgspec import Struct
from msgspec.structs import replace

from advisor.catalog.timeline import MISSING, Boundary, Timeline, VersionKey, parse_version_key, value_at
from advisor.version import ServerVersion

__all__ = [
    "Catalog",
    "Kind",
    "Scope",
    "Value",
    "VariableFacts",
    "get_catalog",
    "load_catalog",
    "normalize_name",
    "option_file_name",
    "parse_version_key",
]

Value = int | float | str | bool | None
Scope = Literal["global", "session", "both"]
Kind = Literal["variable", "option", "mysqld_safe"]
CatalogFlavor = Literal["mysql", "mariadb", "percona"]

DATA_FILE: Final = "variables.json"
FORMAT: Final = 1
UNITS: Final = frozenset(
    {
        "bytes",
        "count",
        "pages",
        "percent",
        "seconds",
        "milliseconds",
        "microseconds",
        "bool",
        "enum",
        "set",
        "string",
    }
)
_KINDS: Final = frozenset({"variable", "option", "mysqld_safe"})
_SCOPES: Final = frozenset({"global", "session", "both"})
_TIMELINE_FIELDS: Final = frozenset(
    {"unit", "scope", "dynamic", "default", "auto", "min", "max", "values", "present", "block_size"}
)
_BOUNDARY_FIELDS: Final = frozenset(
    {"since", "deprecated", "ignored", "removed", "stub_since", "stub_until", "option_since"}
)
_TEXT_FIELDS: Final = frozenset({"kind", "successor", "alias_of", "prefix_of", "source", "note"})
_FLAG_FIELDS: Final = frozenset({"stub"})
_FLAVOR_KEYS: Final = ("mysql", "mariadb", "percona")
_KNOWN_FIELDS: Final = _TIMELINE_FIELDS | _BOUNDARY_FIELDS | _TEXT_FIELDS | _FLAG_FIELDS | {"option"}
_ABSENT: Final = object()


def normalize_name(name: str) -> str:
    """`--Innodb-Buffer-Pool-Size` → `innodb_buffer_pool_size` (the catalog's key form)."""
    return name.strip().lstrip("-").strip().lower().replace("-", "_")


class VariableFacts(Struct, frozen=True):
    """What the catalog knows about one name at one exact server version."""

    name: str
    version: ServerVersion
    #: The version has this system variable (option-only entries: the option is accepted and in force).
    exists: bool
    #: The flavor has ever had this name (False: e.g. `gtid_mode` asked about MariaDB).
    in_flavor: bool
    kind: Kind
    unit: str
    scope: Scope
    default: Value
    #: The server sizes the default at startup (from RAM, CPUs, other settings); `default` is typical.
    default_auto: bool
    min: int | float | None
    max: int | float | None
    values: tuple[str, ...] | None
    #: The server rounds a value down to a multiple of this (None: no rounding known).
    block_size: int | None
    #: SET GLOBAL works at runtime; None when the variable does not exist.
    dynamic: bool | None
    option_file_ok: bool
    option_name: str | None
    #: `[mysqld]` for server options, `[mysqld_safe]` for the wrapper script's options.
    option_group: str
    introduced_in: str | None
    deprecated: bool
    deprecated_in: str | None
    removed: bool
    removed_in: str | None
    #: Accepted but without effect at this version.
    ignored: bool
    successor: str | None
    alias_of: str | None
    #: Accepted only as a unique prefix of this option (servers that still allow option prefixes).
    prefix_of: str | None
    source: str | None
    note: str | None

    @property
    def settable_in_option_file(self) -> bool:
        return self.option_name is not None


class _Spec:
    """One name's compiled facts for one flavor (fields are constants, Timelines or Boundaries)."""

    __slots__ = ("fields", "name")

    def __init__(self, name: str, raw: Mapping[str, Any]) -> None:
        self.name = name
        fields: dict[str, Any] = {}
        for key, value in raw.items():
            if key in _BOUNDARY_FIELDS:
                fields[key] = Boundary.parse(value) if isinstance(value, str) else None
            elif isinstance(value, dict):
                fields[key] = Timeline.parse(value)
            elif isinstance(value, list):
                fields[key] = tuple(str(item) for item in value)
            else:
                fields[key] = value
        self.fields = fields

    def get(self, key: str, at: VersionKey, default: Any = None) -> Any:
        value = value_at(self.fields.get(key, default), at)
        if value is MISSING:
            return default
        if isinstance(value, list):
            return tuple(str(item) for item in value)
        return value

    def boundary(self, key: str) -> Boundary | None:
        found = self.fields.get(key)
        return found if isinstance(found, Boundary) else None


class Catalog:
    """Facts per (name, version). Build with `get_catalog()` (shared) or `load_catalog(path)`."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        if data.get("format") != FORMAT:
            raise ValueError(f"unsupported catalog format {data.get('format')!r} (expected {FORMAT})")
        variables = data.get("variables")
        if not isinstance(variables, dict):
            raise ValueError("catalog has no 'variables' table")
        self._raw: dict[str, dict[str, Any]] = variables
        lines = data.get("lines") or {}
        self._lines: dict[str, tuple[str, ...]] = {key: tuple(value) for key, value in lines.items()}
        self._specs: dict[tuple[str, str], _Spec | None] = {}
        self._facts: dict[tuple[str, str, VersionKey], VariableFacts | None] = {}
        self._answers: dict[tuple[str, str, str, bool], VariableFacts | None] = {}
        self._set_by: dict[tuple[str, VersionKey], dict[str, tuple[str, ...]]] = {}
        self._names_for: dict[tuple[str, VersionKey], frozenset[str]] = {}
        self._accepted_for: dict[tuple[str, VersionKey], frozenset[str]] = {}

    # ------------------------------------------------------------------ catalog-wide
    def names(self) -> frozenset[str]:
        """Every name the catalog describes, for any flavor and version."""
        return frozenset(self._raw)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and normalize_name(name) in self._raw

    def __len__(self) -> int:
        return len(self._raw)

    def lines(self, flavor: str) -> tuple[str, ...]:
        """The release lines the catalog covers for `mysql` (also Percona) or `mariadb`."""
        return self._lines.get("mysql" if flavor == "percona" else flavor, ())

    # ------------------------------------------------------------------ per version
    def lookup(self, name: str, version: ServerVersion) -> VariableFacts | None:
        """Facts as they hold at exactly `version`; None when the catalog has never heard of `name`."""
        fast_key = (name, version.raw, version.flavor, version.patch_known)
        if fast_key in self._answers:  # an audit asks the same few dozen names again and again
            return self._answers[fast_key]
        found = self._lookup(name, version)
        if len(self._answers) > 100_000:  # a long-lived worker sees many versions: stay bounded
            self._answers.clear()
        self._answers[fast_key] = found
        return found

    def _lookup(self, name: str, version: ServerVersion) -> VariableFacts | None:
        key_name = normalize_name(name)
        cache_key = (key_name, version.flavor, version.key)
        if cache_key in self._facts:
            facts = self._facts[cache_key]
            if facts is None or (facts.version.raw, facts.version.patch_known) == (
                version.raw,
                version.patch_known,
            ):
                return facts
            return _with_version(facts, version)
        facts = self._compute(key_name, version)
        self._facts[cache_key] = facts
        return facts

    def flavor_facts(self, name: str, version: ServerVersion) -> VariableFacts | None:
        """The facts of a variable this flavor has at some version (None: unknown, or another flavor's)."""
        facts = self.lookup(name, version)
        return facts if facts is not None and facts.in_flavor else None

    def knows(self, name: str, version: ServerVersion) -> bool:
        """Does this version have the variable (or, for option-only names, accept and honour the option)?"""
        facts = self.lookup(name, version)
        return facts is not None and facts.exists

    def accepts(self, name: str, version: ServerVersion) -> bool:
        """Would `name = value` in an option file be accepted at startup (possibly ignored, with a warning)?"""
        facts = self.lookup(name, version)
        return facts is not None and facts.option_file_ok

    def default(self, name: str, version: ServerVersion) -> Value:
        """The compiled-in default at this version (None: unknown name, absent variable or no default)."""
        facts = self.lookup(name, version)
        return facts.default if facts is not None and facts.exists else None

    def is_dynamic(self, name: str, version: ServerVersion) -> bool | None:
        """Can `SET GLOBAL` change it at runtime? None when the variable does not exist at this version."""
        facts = self.lookup(name, version)
        return facts.dynamic if facts is not None and facts.exists else None

    def option_file_name(self, name: str, version: ServerVersion) -> str | None:
        """The my.cnf spelling (underscores) that sets this variable, or None if no option file can."""
        facts = self.lookup(name, version)
        return facts.option_name if facts is not None else None

    def names_for(self, version: ServerVersion) -> frozenset[str]:
        """Names that exist at this version (variables and honoured options)."""
        cache_key = (version.flavor, version.key)
        found = self._names_for.get(cache_key)
        if found is None:
            found = frozenset(name for name in self._raw if self.knows(name, version))
            self._names_for[cache_key] = found
        return found

    def accepted_names_for(self, version: ServerVersion) -> frozenset[str]:
        """Names an option file may carry at this version (includes ignored compatibility stubs)."""
        cache_key = (version.flavor, version.key)
        found = self._accepted_for.get(cache_key)
        if found is None:
            found = frozenset(name for name in self._raw if self.accepts(name, version))
            self._accepted_for[cache_key] = found
        return found

    def variables_set_by(self, option: str, version: ServerVersion) -> tuple[str, ...]:
        """Variables an option of another name sets at this version (`transaction_isolation` sets
        `tx_isolation` before MySQL 5.7.20)."""
        cache_key = (version.flavor, version.key)
        index = self._set_by.get(cache_key)
        if index is None:
            found: dict[str, list[str]] = {}
            for name in self.names_for(version):
                facts = self.lookup(name, version)
                if facts is not None and facts.option_name and facts.option_name != name:
                    found.setdefault(facts.option_name, []).append(name)
            index = {key: tuple(sorted(names)) for key, names in found.items()}
            self._set_by[cache_key] = index
        return index.get(normalize_name(option), ())

    def suggest(self, name: str, version: ServerVersion, limit: int = 3) -> list[str]:
        """Return "did you mean" candidates for a name this version does not know: the successor of a renamed
        variable first, then close spellings among the names the version knows."""
        import difflib  # only "did you mean" needs it; keep it off the start-up path

        wanted = normalize_name(name)
        suggestions: list[str] = []
        facts = self.lookup(wanted, version)
        if facts is not None:
            for candidate in (facts.successor, facts.prefix_of, facts.alias_of):
                if candidate and candidate != wanted and self.knows(candidate, version):
                    suggestions.append(candidate)
        pool = sorted(self.names_for(version) - {wanted})
        for candidate in difflib.get_close_matches(wanted, pool, n=limit + len(suggestions), cutoff=0.75):
            if candidate not in suggestions:
                suggestions.append(candidate)
        return suggestions[:limit]

    # ------------------------------------------------------------------ compilation
    def _spec(self, name: str, flavor: CatalogFlavor) -> _Spec | None:
        cache_key = (name, flavor)
        if cache_key in self._specs:
            return self._specs[cache_key]
        entry = self._raw.get(name)
        spec: _Spec | None = None
        if entry is not None:
            merged = _merged_block(entry, flavor)
            spec = _Spec(name, merged) if merged is not None else None
        self._specs[cache_key] = spec
        return spec

    def _compute(self, name: str, version: ServerVersion) -> VariableFacts | None:
        entry = self._raw.get(name)
        if entry is None:
            return None
        at = version.key
        spec = self._spec(name, version.flavor)
        if spec is None:
            return self._foreign(name, version, entry)

        kind = cast(Kind, spec.get("kind", at, "variable"))
        since, removed_b = spec.boundary("since"), spec.boundary("removed")
        introduced = since.holds(at) if since is not None else True
        removed_in = str(removed_b) if removed_b is not None else None
        present = spec.fields.get("present")
        if isinstance(present, Timeline):  # removed and brought back, possibly more than once
            state = present.at(at)
            exists = introduced and (state is MISSING or bool(state))
            removed = introduced and not exists
            if removed:
                removed_in = str(present.changed_at(at))
            else:  # the next removal, if one is on record
                later = [str(b) for b, value in present.points if value is False and not b.holds(at)]
                removed_in = later[0] if later else removed_in
        else:
            removed = removed_b is not None and removed_b.holds(at)
            exists = introduced and not removed
        deprecated_b, ignored_b = spec.boundary("deprecated"), spec.boundary("ignored")
        deprecated = deprecated_b is not None and deprecated_b.holds(at)
        ignored = ignored_b is not None and ignored_b.holds(at)

        option_since = spec.boundary("option_since")
        option_introduced = option_since.holds(at) if option_since is not None else introduced
        in_stub = False
        stub_start = spec.boundary("stub_since") or removed_b
        if removed and stub_start is not None and spec.get("stub", at, False):
            until = spec.boundary("stub_until")
            in_stub = stub_start.holds(at) and not (until is not None and until.holds(at))
        ignored = ignored or in_stub

        option_field = spec.fields.get("option", _ABSENT)
        option_live = option_introduced and not removed
        if option_field is _ABSENT or option_field == name:
            option_file_ok = option_live or in_stub
            option_name: str | None = name if option_live else None
        elif option_field is None:
            option_file_ok = False
            option_name = None
        else:
            option_file_ok = False
            option_name = str(option_field) if option_introduced or removed else None
        prefix_of = _text(spec.get("prefix_of", at))
        if prefix_of is not None and option_name is not None:
            option_name = prefix_of

        live = exists or in_stub
        return VariableFacts(
            name=name,
            version=version,
            exists=exists,
            in_flavor=True,
            kind=kind,
            unit=str(spec.get("unit", at, "string")),
            scope=cast(Scope, spec.get("scope", at, "global")),
            default=cast(Value, spec.get("default", at)) if live else None,
            default_auto=bool(spec.get("auto", at, False)) if live else False,
            min=cast("int | float | None", spec.get("min", at)),
            max=cast("int | float | None", spec.get("max", at)),
            values=cast("tuple[str, ...] | None", spec.get("values", at)),
            block_size=_block_size(spec.get("block_size", at)),
            dynamic=bool(spec.get("dynamic", at)) if exists and spec.get("dynamic", at) is not None else None,
            option_file_ok=option_file_ok,
            option_name=option_name,
            option_group="mysqld_safe" if kind == "mysqld_safe" else "mysqld",
            introduced_in=str(since) if since is not None else None,
            deprecated=deprecated,
            deprecated_in=str(deprecated_b) if deprecated_b is not None else None,
            removed=removed,
            removed_in=removed_in,
            ignored=ignored,
            successor=_text(spec.get("successor", at)),
            alias_of=_text(spec.get("alias_of", at)),
            prefix_of=prefix_of,
            source=_text(spec.get("source", at)),
            note=_text(spec.get("note", at)),
        )

    def _foreign(self, name: str, version: ServerVersion, entry: Mapping[str, Any]) -> VariableFacts:
        """A name this flavor never had: report it as absent, with the other flavor's shape and page."""
        other: _Spec | None = None
        for flavor in ("mysql", "mariadb", "percona"):
            other = self._spec(name, flavor)
            if other is not None:
                break
        at = version.key
        kind = cast(Kind, other.get("kind", at, "variable") if other else entry.get("kind", "variable"))
        owners = [flavor for flavor in _FLAVOR_KEYS if entry.get(flavor)]
        return VariableFacts(
            name=name,
            version=version,
            exists=False,
            in_flavor=False,
            kind=kind,
            unit=str(other.get("unit", at, "string") if other else entry.get("unit", "string")),
            scope=cast(Scope, other.get("scope", at, "global") if other else entry.get("scope", "global")),
            default=None,
            default_auto=False,
            min=None,
            max=None,
            values=None,
            block_size=None,
            dynamic=None,
            option_file_ok=False,
            option_name=None,
            option_group="mysqld_safe" if kind == "mysqld_safe" else "mysqld",
            introduced_in=None,
            deprecated=False,
            deprecated_in=None,
            removed=False,
            removed_in=None,
            ignored=False,
            successor=None,
            alias_of=None,
            prefix_of=None,
            source=_text(other.get("source", at)) if other else None,
            note=f"not a {version.product} name (known to: {', '.join(owners)})",
        )

    # ------------------------------------------------------------------ checking the data file
    def validate(self) -> list[str]:
        """Problems in the data file (unknown fields, bad versions, units or scopes); empty when clean."""
        problems: list[str] = []
        for name, entry in self._raw.items():
            if name != normalize_name(name):
                problems.append(f"{name}: names are lower case with underscores")
            flavors = [flavor for flavor in _FLAVOR_KEYS if flavor in entry]
            if not flavors:
                problems.append(f"{name}: no flavor block")
            for key, value in entry.items():
                if key in _FLAVOR_KEYS:
                    if value is not None and not isinstance(value, dict):
                        problems.append(f"{name}.{key}: a flavor block must be an object or null")
                    continue
                problems.extend(_check_field(f"{name}", key, value))
            for flavor in flavors:
                block = entry[flavor]
                if block is None:
                    continue
                for key, value in block.items():
                    problems.extend(_check_field(f"{name}.{flavor}", key, value))
                merged = _merged_block(entry, flavor) or {}
                if not merged.get("source"):
                    problems.append(f"{name}.{flavor}: no source")
                for target_key in ("successor", "alias_of", "prefix_of"):
                    target = merged.get(target_key)
                    if isinstance(target, str) and target not in self._raw and target_key != "successor":
                        problems.append(f"{name}.{flavor}: {target_key} {target!r} is not in the catalog")
        return problems


def _check_field(where: str, key: str, value: object) -> list[str]:
    problems: list[str] = []
    if key not in _KNOWN_FIELDS:
        return [f"{where}: unknown field {key!r}"]
    if key in _BOUNDARY_FIELDS:
        if not isinstance(value, str):
            return [f"{where}.{key}: expected a version string"]
        try:
            Boundary.parse(value)
        except ValueError as error:
            problems.append(f"{where}.{key}: {error}")
        return problems
    points: Iterable[tuple[str | None, object]]
    if isinstance(value, dict):
        if key not in _TIMELINE_FIELDS:
            return [f"{where}.{key}: cannot vary by version"]
        points = list(value.items())
        for boundary in value:
            try:
                Boundary.parse(boundary)
            except ValueError as error:
                problems.append(f"{where}.{key}: {error}")
    else:
        points = [(None, value)]
    for _, item in points:
        if key == "unit" and item not in UNITS:
            problems.append(f"{where}.unit: unknown unit {item!r}")
        elif key == "scope" and item not in _SCOPES:
            problems.append(f"{where}.scope: unknown scope {item!r}")
        elif key == "kind" and item not in _KINDS:
            problems.append(f"{where}.kind: unknown kind {item!r}")
        elif key in ("dynamic", "auto", "stub", "present") and not isinstance(item, bool):
            problems.append(f"{where}.{key}: expected true/false")
        elif key in ("min", "max") and (isinstance(item, bool) or not isinstance(item, (int, float))):
            problems.append(f"{where}.{key}: expected a number")
        elif key == "block_size" and (isinstance(item, bool) or not isinstance(item, int) or item < 1):
            problems.append(f"{where}.block_size: expected a positive whole number")
        elif key == "values" and not (isinstance(item, list) and all(isinstance(v, str) for v in item)):
            problems.append(f"{where}.values: expected a list of strings")
        elif key == "option" and item is not None and not isinstance(item, str):
            problems.append(f"{where}.option: expected a name or null")
    return problems


def _merged_block(entry: Mapping[str, Any], flavor: CatalogFlavor) -> dict[str, Any] | None:
    """Shared fields, overlaid by the flavor's block (Percona: MySQL's block, then Percona's)."""
    shared = {key: value for key, value in entry.items() if key not in _FLAVOR_KEYS}
    if flavor == "percona":
        if "percona" in entry:
            percona = entry["percona"]
            if percona is None:
                return None
            return {**shared, **(entry.get("mysql") or {}), **percona}
        mysql = entry.get("mysql")
        return {**shared, **mysql} if mysql is not None else None
    block = entry.get(flavor)
    return {**shared, **block} if block is not None else None


def _block_size(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 1 else None


def _text(value: object) -> str | None:
    return str(value) if value is not None else None


def _with_version(facts: VariableFacts, version: ServerVersion) -> VariableFacts:
    """Cached facts carry the version they were computed for; keep the caller's (raw text may differ)."""
    return replace(facts, version=version)


def load_catalog(path: str | os.PathLike[str]) -> Catalog:
    """A catalog from a JSON file (tests, tools). Production code uses `get_catalog()`."""
    with open(path, encoding="utf-8") as handle:
        return Catalog(json.load(handle))


_CATALOG: Catalog | None = None


def get_catalog() -> Catalog:
    """The shared catalog, read from the package's data file on first use."""
    global _CATALOG
    if _CATALOG is None:
        _CATALOG = load_catalog(os.path.join(os.path.dirname(__file__), DATA_FILE))
    return _CATALOG


def option_file_name(name: str, version: ServerVersion) -> str | None:
    """The my.cnf spelling (underscores, as the server prints names) for setting `name` on `version`."""
    return get_catalog().option_file_name(name, version)
