"""The immutable audit context every rule reads: version, hardware, effective configuration, evidence.

Effective configuration = catalog defaults for the version, then the my.cnf's effective values
(in the groups the server reads), then live SHOW VARIABLES — live wins. A live value that
differs from the file is recorded: a change not applied yet, or a file the server does not read.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from msgspec import Struct, field

from advisor.model import Profile, Role
from advisor.thresholds import THRESHOLDS, Thresholds
from advisor.units import parse_bool, parse_size
from advisor.version import ServerVersion

if TYPE_CHECKING:
    from advisor.catalog import Catalog
    from advisor.inputs.hardware import HardwareSpec
    from advisor.inputs.innodb_status import InnodbStatus
    from advisor.inputs.optionfiles import OptionFileSet
    from advisor.inputs.schema import SchemaFacts
    from advisor.inputs.statusvars import StatusView, VariablesDump
    from advisor.not_running import NotRunning

Source = Literal["live", "cnf", "persisted", "default"]
T = TypeVar("T")
#: where MySQL 8.0+ keeps SET PERSIST values (in the data directory), as findings name it
PERSISTED_FILE = "mysqld-auto.cnf (SET PERSIST)"


class Setting(Struct, frozen=True):
    """One variable's effective value and where it came from."""

    name: str
    value: str
    source: Source
    file: str | None = None
    line: int | None = None
    group: str | None = None
    file_value: str | None = None
    live_value: str | None = None
    #: where a live value was read: SHOW GLOBAL VARIABLES, or a status counter that shows it.
    live_source: str = "SHOW GLOBAL VARIABLES"
    #: the value MySQL 8.0+ keeps in mysqld-auto.cnf (SET PERSIST), read after the option files at a restart
    persisted_value: str | None = None

    @property
    def restart_value(self) -> str | None:
        """What a restart brings back: the persisted value over the option file's."""
        return self.persisted_value if self.persisted_value is not None else self.file_value

    def restart_origin(self) -> str:
        """Where the restart value comes from: mysqld-auto.cnf, `my.cnf:12`, or the option file."""
        if self.persisted_value is not None:
            return PERSISTED_FILE
        return f"{self.file}:{self.line}" if self.file else "the option file"

    def where(self) -> str:
        """`my.cnf:12`, `SHOW GLOBAL VARIABLES` (or the status it was read from), or `default for this version`."""
        if self.source == "live":
            return self.live_source
        if self.source == "cnf":
            return f"{self.file}:{self.line}"
        if self.source == "persisted":
            return PERSISTED_FILE
        return "default for this version"


class LiveExistence(Struct, frozen=True):
    """The names of a complete SHOW GLOBAL VARIABLES dump: the truth of what exists on that server.

    Complete is judged by the parser (VariablesDump.complete: the listing holds the names every full
    listing has, advisor.inputs.listing_kind), never by its length: `SHOW GLOBAL VARIABLES LIKE
    'innodb%'` is 142 names on MariaDB 10.11, and taken as everything it hid max_connections and
    sync_binlog from the rules.

    The catalog says what a version *may* have; the server's own listing says what this build has (the
    MySQL 5.1 built-in InnoDB lacks the plugin's innodb_old_blocks_time, a plugin not loaded has no
    variables). Only names the catalog calls global system variables settable as options are judged:
    session-only variables are never listed by SHOW GLOBAL VARIABLES, and `mysqld --help` lists options
    only. A name whose alias is listed exists.
    """

    #: the dump's names (its mapping's key view: a set without a copy of ~650 names per audit)
    names: AbstractSet[str]

    def lacks(self, catalog: Catalog, version: ServerVersion, name: str) -> bool:
        """True when the server's listing proves it has no such variable."""
        if name in self.names:
            return False
        facts = catalog.lookup(name, version)
        if facts is None or facts.kind != "variable" or facts.scope == "session" or facts.option_name is None:
            return False
        return not (facts.alias_of and facts.alias_of in self.names)

    @classmethod
    def from_dump(cls, dump: VariablesDump) -> LiveExistence | None:
        """The oracle for a dump, or None when it is an excerpt (what it lacks may exist)."""
        return cls(dump.values.keys()) if dump.complete else None


class EffectiveConfig(Struct, frozen=True):
    """Name → Setting, names normalised (lower case, underscores)."""

    settings: Mapping[str, Setting]
    drift: tuple[Setting, ...] = ()
    #: what the live server has, when a complete SHOW GLOBAL VARIABLES dump was given.
    live: LiveExistence | None = None
    #: drift the server cannot leave: why it runs another value than the file's (name → reason).
    drift_reasons: Mapping[str, NotRunning] = field(default_factory=dict)
    #: MySQL 8.0+'s persisted values (mysqld-auto.cnf) when they were given (empty: none); None: not known
    persisted: Mapping[str, str] | None = None

    def get(self, name: str) -> Setting | None:
        return self.settings.get(name)

    def text(self, name: str) -> str | None:
        setting = self.settings.get(name)
        return None if setting is None else setting.value

    def number(self, name: str) -> int | None:
        """Integer value, sizes with K/M/G suffixes understood; None when unset or not a number."""
        value = self.text(name)
        if value is None:
            return None
        return parse_size(value)

    def flag(self, name: str) -> bool | None:
        value = self.text(name)
        return None if value is None else parse_bool(value)

    def is_set_in_file(self, name: str) -> bool:
        setting = self.settings.get(name)
        return setting is not None and setting.file_value is not None


class ReadLog:
    """The watched setting names looked up while something ran (None: it went over every setting).

    The effective settings write to it; the engine opens a fresh log per rule, and a derived fact
    keeps the names it read, so a rule that takes the fact from the cache is charged with them too.
    What a rule read is all its findings can depend on (advisor.after_restart reruns only the rules
    that read a setting the option file sets differently). Only those names matter, so only the
    `watched` ones (the drifted settings) are kept: a read of any other name is no news."""

    __slots__ = ("names", "watched")

    def __init__(self, watched: Collection[str] = ()) -> None:
        self.names: set[str] | None = set()
        self.watched = frozenset(watched)

    def begin(self) -> set[str] | None:
        """Start a fresh log; returns the outer one for `end`."""
        outer, self.names = self.names, set()
        return outer

    def end(self, outer: set[str] | None) -> set[str] | None:
        """What was read since `begin`; the outer log gains it."""
        inner = self.names
        self.names = outer
        if inner is None or inner:
            self.include(inner)
        return inner

    def include(self, names: set[str] | None) -> None:
        if self.names is None:
            return
        if names is None:
            self.names = None
        else:
            self.names |= names


def read_log(ctx: AuditContext) -> ReadLog | None:
    """The log of the context's effective settings, when they keep one."""
    log = getattr(ctx.config.settings, "log", None)
    return log if isinstance(log, ReadLog) else None


_MISSING = object()
_NOTHING: frozenset[str] = frozenset()


class DerivedFacts:
    """The one per-audit cache of derived facts (advisor.derived): each computed on first use.

    Keyed by the function that computes the fact; a context gets a fresh, empty cache (also
    through `msgspec.structs.replace`), so a fact never outlives the context it was computed from.
    """

    __slots__ = ("_log", "_reads", "_values")

    def __init__(self, log: ReadLog | None = None) -> None:
        self._log = log
        self._values: dict[Callable[..., object], Any] = {}
        #: the watched names each fact read, kept only when it read any (None: every setting)
        self._reads: dict[Callable[..., object], set[str] | None] = {}

    def get(self, compute: Callable[[AuditContext], T], ctx: AuditContext) -> T:
        """`compute(ctx)`, computed once for this context (the settings it read logged each time)."""
        value = self._values.get(compute, _MISSING)
        if value is not _MISSING:
            if self._reads and compute in self._reads and self._log is not None:
                self._log.include(self._reads[compute])
            return value  # type: ignore[no-any-return]
        log = self._log
        if log is None:
            fresh = self._values[compute] = compute(ctx)
            return fresh
        outer = log.begin()
        try:
            fresh = self._values[compute] = compute(ctx)
        finally:
            reads = log.end(outer)
            if reads is None or reads:
                self._reads[compute] = reads
        return fresh

    def carried_over(self, changed: Collection[str]) -> DerivedFacts:
        """A cache for a context whose settings differ only in `changed` (watched names): the facts that
        read none of them (facts are pure functions of the context, so they come out the same there)."""
        kept = DerivedFacts()
        if self._log is None:
            return kept  # what the facts read is unknown
        for compute, value in self._values.items():
            reads = self._reads.get(compute, _NOTHING)
            if reads is not None and reads.isdisjoint(changed):
                kept._values[compute] = value
        return kept


class AuditContext(Struct, frozen=True, dict=True):
    """Everything a rule may read. Rules never mutate it, read files or look at the environment."""

    version: ServerVersion
    role: Role
    profile: Profile
    config: EffectiveConfig
    catalog: Catalog
    hardware: HardwareSpec | None = None
    status: StatusView | None = None
    innodb: InnodbStatus | None = None
    schema: SchemaFacts | None = None
    options: OptionFileSet | None = None
    groups_read: frozenset[str] = field(default_factory=frozenset)
    thresholds: Thresholds = THRESHOLDS

    @property
    def derived(self) -> DerivedFacts:
        """Derived facts computed once per audit (see advisor.derived.cache).

        Kept in the instance's `__dict__`, outside the fields: not part of equality, hash or repr,
        and a copy made with `msgspec.structs.replace` starts with an empty cache.
        """
        facts: DerivedFacts | None = self.__dict__.get("derived")
        if facts is None:
            facts = self.__dict__["derived"] = DerivedFacts(read_log(self))
        return facts

    @property
    def usable_memory(self) -> int | None:
        """The lower of memory and memory_limit, when hardware is known (worked out once)."""
        try:
            return self.__dict__["usable_memory"]  # type: ignore[no-any-return]
        except KeyError:
            usable = self.__dict__["usable_memory"] = (
                None if self.hardware is None else self.hardware.usable_memory
            )
            return usable

    def share_settled_answers(self, other: AuditContext) -> None:
        """Let `other`, a context of the same server, version, hardware and live listing (only settings
        differ), share what this one has worked out about those: `knows` and usable memory."""
        other.__dict__["usable_memory"] = self.usable_memory
        known = self.__dict__.get("known")
        if known is None:
            known = self.__dict__["known"] = {}
        other.__dict__["known"] = known

    def knows(self, name: str) -> bool:
        """Does the target server have this variable? The catalog for the version, and the live
        SHOW GLOBAL VARIABLES when a complete dump was given (see LiveExistence). Answered once per
        name and context (rules ask about the same few dozen names)."""
        known: dict[str, bool] | None = self.__dict__.get("known")
        if known is None:
            known = self.__dict__["known"] = {}
        else:
            answer = known.get(name)
            if answer is not None:
                return answer
        live = self.config.live
        answer = known[name] = self.catalog.knows(name, self.version) and (
            live is None or not live.lacks(self.catalog, self.version, name)
        )
        return answer
