"""The types the option checker hands out: what the server does with one option-file line."""

from __future__ import annotations

from enum import StrEnum

from msgspec import Struct

# Plugins whose loss stops a default server: InnoDB is the default (and default temporary) storage
# engine, so "Unknown/unsupported storage engine: InnoDB" aborts startup unless both defaults name
# another engine; Aria holds MariaDB's system tables and is loaded with FORCE, so "Failed to
# initialize plugins" aborts startup. Both seen on mariadbd 10.11.19 with a real data directory.
PLUGIN_CONSEQUENCES: dict[str, str] = {
    "InnoDB": (
        "InnoDB tables become unavailable; a server whose default_storage_engine is InnoDB (the "
        "default) then aborts at startup with 'Unknown/unsupported storage engine: InnoDB'"
    ),
    "Aria": (
        "Aria is loaded with FORCE and holds the system tables, so the server aborts at startup "
        "('Failed to initialize plugins')"
    ),
}
STOPPING_PLUGINS = frozenset(PLUGIN_CONSEQUENCES)


class Outcome(StrEnum):
    """What the server does with the line, from harmless to fatal."""

    ACCEPTS = "accepts"
    CLAMPS = "clamps"
    IGNORES_WITH_WARNING = "ignores_with_warning"
    DISABLES_PLUGIN = "disables_plugin"
    REFUSES_TO_START = "refuses_to_start"


class OptionFacts(Struct, frozen=True):
    """One option as the server's option parser (my_getopt) sees it."""

    name: str
    type: str  # bool int uint longlong ulonglong double enum set flagset string noarg
    arg: str  # REQUIRED OPTIONAL NONE
    plugin: str | None = None
    variable: bool = False
    early: bool = False
    maximum_ok: bool = False  # the server keeps a maximum for it, so `maximum-<name>` is accepted
    loose_bad_fatal: bool = False  # `loose-` with a bad value leaves 0, which kills the server
    min: int | float | None = None
    max: int | float | None = None
    block: int | None = None
    values: tuple[str, ...] = ()
    source: str = ""

    @property
    def unsigned(self) -> bool:
        return self.type in ("uint", "ulonglong")


class Verdict(Struct, frozen=True):
    """The server's reaction to `name = value`, in words a DBA can act on.

    `reason` is a stable machine tag (e.g. ``unknown_name``, ``bad_number``, ``unique_prefix``);
    `suggestion` is the corrected line with the user's own value where the intent is clear;
    `certain` is False when the data behind the verdict is partial (another version or flavor);
    `value_seen` False when the value's refusal rests on another release's facts (8.0.46's character sets
    for an 8.4 target): a warning then, not a line commented out.
    """

    outcome: Outcome
    message: str
    reason: str
    name: str
    option: str | None = None
    plugin: str | None = None
    value: str | None = None
    suggestion: str | None = None
    basis: str = ""
    certain: bool = True
    value_seen: bool = True

    @property
    def stops_server(self) -> bool:
        """True when a server with otherwise default settings would not come up."""
        if self.outcome is Outcome.REFUSES_TO_START:
            return True
        return self.outcome is Outcome.DISABLES_PLUGIN and self.plugin in STOPPING_PLUGINS

    @property
    def is_critical(self) -> bool:
        """Refused, or a plugin lost: the line must not reach a deployed file as written."""
        return self.outcome in (Outcome.REFUSES_TO_START, Outcome.DISABLES_PLUGIN)
