"""Proposals for option lines the server refuses or ignores, and for SET_VARIABLE lines."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from advisor.advisors.config_validity.lines import kept_instead, later_line, line_evidence, wins_after
from advisor.findings import Evidence, Severity
from advisor.patterns import lazy
from advisor.rules import Proposal
from advisor.units import format_size, parse_size

if TYPE_CHECKING:
    from advisor.catalog import VariableFacts
    from advisor.context import AuditContext
    from advisor.inputs.optionfiles import OptionEntry


# Removed or renamed names whose successor takes the value exactly as written.
_SAME_VALUE_SUCCESSOR: Final = frozenset(
    {
        "tx_isolation", "tx_read_only", "table_cache", "storage_engine", "default_character_set",
        "myisam_recover", "innodb_undo_logs", "skip_locking", "key_buffer", "log_slave_updates",
        "slave_net_timeout", "slave_parallel_type", "slave_parallel_workers", "slave_preserve_commit_order",
        "sync_master_info", "skip_slave_start",
    }
)  # fmt: skip
_SECONDS_PER_DAY: Final = 86_400
_LOG_FILE_SIZE: Final = "innodb_log_file_size"
_FILES_IN_GROUP: Final = "innodb_log_files_in_group"
_REDO_CAPACITY: Final = "innodb_redo_log_capacity"
_MYSQL_FILES_IN_GROUP: Final = 2
_DECIMAL: Final = lazy(r"[0-9]{1,6}(?:\.[0-9]{1,6})?")


def _why_refused(ctx: AuditContext, name: str, facts: VariableFacts) -> str:
    product = ctx.version.product
    if facts.kind == "mysqld_safe":
        return f"{name} is an option of mysqld_safe (the start-up script), not of the server; it belongs under [mysqld_safe]."
    if not facts.in_flavor:
        return f"{product} has no option {name}: it belongs to another server flavor."
    if facts.removed:
        return f"{name} was removed in {product} {facts.removed_in}."
    if not facts.exists and facts.introduced_in:
        return f"{name} first appeared in {product} {facts.introduced_in}."
    if facts.option_name and facts.option_name != name:
        return f"{name} cannot be set in an option file: the option that sets it is {facts.option_name}."
    return f"{name} cannot be set in an option file (the server sets it itself)."


def _replacement(
    ctx: AuditContext, entry: OptionEntry, name: str, facts: VariableFacts
) -> tuple[str, str] | None:
    """The variable to set instead, and its value, when the successor takes the value as written."""
    if facts.successor and ctx.knows(facts.successor):
        target = facts.successor
    elif facts.option_name and facts.option_name != name and ctx.knows(name):
        target = name  # tx_isolation before 8.0: the differ writes its option name, transaction_isolation
    elif facts.prefix_of and ctx.knows(facts.prefix_of):
        target = facts.prefix_of
    else:
        return None
    value = "ON" if entry.value is None and facts.unit == "bool" else entry.value
    if value is None:
        return None
    if name == "expire_logs_days":
        days = float(value) if _DECIMAL().fullmatch(value) else None
        return (target, str(round(days * _SECONDS_PER_DAY))) if days is not None else None
    if name == _LOG_FILE_SIZE and target == _REDO_CAPACITY:
        return _redo_capacity(ctx, value)
    return (target, value) if name in _SAME_VALUE_SUCCESSOR else None


def _redo_capacity(ctx: AuditContext, value: str) -> tuple[str, str] | None:
    """The redo the removed innodb_log_file_size asked for: the size times innodb_log_files_in_group (the
    file's, else MySQL's default 2), within innodb_redo_log_capacity's range — what MySQL 8.0.30+ itself
    derives from the two when the capacity is not set (the manual, innodb_redo_log_capacity)."""
    size = parse_size(value)
    groups = ctx.options.effective(ctx.groups_read).get(_FILES_IN_GROUP) if ctx.options is not None else None
    given = groups.entry.value if groups is not None else None
    files = int(given) if given is not None and given.isdigit() else _MYSQL_FILES_IN_GROUP
    facts = ctx.catalog.lookup(_REDO_CAPACITY, ctx.version)
    if size is None or facts is None or facts.min is None or facts.max is None:
        return None
    return _REDO_CAPACITY, format_size(int(min(max(size * files, facts.min), facts.max)))


def _line_fix(
    ctx: AuditContext, entry: OptionEntry, name: str, facts: VariableFacts, title: str, reason: str
) -> Iterator[Proposal]:
    """Comment the line out, and set the successor with the same value when there is one."""
    evidence = (line_evidence(entry), Evidence("server", ctx.version.describe(), "target version"))
    swap = _replacement(ctx, entry, name, facts)
    later = later_line(ctx, entry, swap[0]) if swap else None
    then = f" The recommended file sets {swap[0]} = {swap[1]} in its place." if swap else ""
    if swap is not None and later is not None:
        then, swap = kept_instead(later, swap[0]), None
    elif swap is None and facts.successor:
        then = f" Its successor is {facts.successor}: set that to the value you intend."
    yield Proposal(
        title=title + wins_after(later),
        rationale=f"{reason} Comment the line out.{then}",
        evidence=evidence,
        variable=name,
        change="comment_out",
        option_file=entry.file,
        option_line=entry.line,
    )
    if swap is not None:
        yield Proposal(
            title=f"Set {swap[0]} instead of {name}",
            rationale=f"{entry.file}:{entry.line} means {name} = {entry.given or 'ON'}; on "
            f"{ctx.version.describe()} that setting is made with {swap[0]}.",
            evidence=evidence,
            variable=swap[0],
            recommended=swap[1],
        )


def refused(ctx: AuditContext, entry: OptionEntry, name: str, facts: VariableFacts) -> Iterator[Proposal]:
    """A line the server refuses: comment it out (and set the successor); information only for `loose-`."""
    where = f"{entry.file}:{entry.line}"
    reason = _why_refused(ctx, name, facts)
    if entry.loose:
        yield Proposal(
            title=f"{entry.raw_name} has no effect on {ctx.version.describe()}",
            rationale=f"{where}: {reason} With the loose- prefix the server only warns and skips the line, "
            "which is how an option file shared by several versions is meant to be written.",
            evidence=(line_evidence(entry),),
            variable=name,
            severity=Severity.INFO,
        )
        return
    title = f"{entry.raw_name} stops {ctx.version.describe()} from starting"
    stops = f'{where}: {reason} The server refuses unknown options and exits at startup ("unknown variable").'
    yield from _line_fix(ctx, entry, name, facts, title, stops)


def set_variable(ctx: AuditContext, entry: OptionEntry) -> Iterator[Proposal]:
    """The MySQL 4-era `set-variable = name=value` syntax, removed in MySQL 5.5.3 (never in MariaDB 10)."""
    if not ctx.version.is_mariadb and ctx.version.before(5, 5, 3):
        return
    setting = (entry.given or "").replace(" ", "")
    name, _, value = setting.partition("=")
    instead = f": write `{name} = {value}` instead" if name and value else ""
    reason = f"{entry.file}:{entry.line}: the set-variable = name=value syntax was removed in MySQL 5.5.3{instead}."
    if entry.loose:
        yield Proposal(
            title=f"{entry.raw_name} has no effect on {ctx.version.describe()}",
            rationale=f"{reason} With the loose- prefix the server only warns and skips the line.",
            evidence=(line_evidence(entry),),
            severity=Severity.INFO,
        )
        return
    target = _set_variable_target(ctx, name) if value else None
    later = later_line(ctx, entry, target) if target else None
    then = f" The recommended file sets {target} = {value} in its place." if target else ""
    if target and later is not None:
        then, target = kept_instead(later, target), None
    yield Proposal(
        title=f"set-variable stops {ctx.version.describe()} from starting{wins_after(later)}",
        rationale=f'{reason} The server refuses the line and exits at startup ("unknown variable"). Comment it '
        f"out and set the variable by its own name.{then}",
        evidence=(line_evidence(entry), Evidence("server", ctx.version.describe(), "target version")),
        change="comment_out",
        option_file=entry.file,
        option_line=entry.line,
    )
    if target:
        yield Proposal(
            title=f"Set {target} instead of set-variable",
            rationale=f"{entry.file}:{entry.line} means {name} = {value}; the server takes it as {target} = {value}.",
            evidence=(line_evidence(entry),),
            variable=target,
            recommended=value,
        )


def _set_variable_target(ctx: AuditContext, inner: str) -> str | None:
    """The variable a `set-variable = inner=...` line sets on this version (old short names included)."""
    facts = ctx.catalog.lookup(inner, ctx.version)
    if facts is None:
        return None
    for full in (facts.prefix_of, facts.alias_of):  # `key_buffer` is short for key_buffer_size
        if full and ctx.knows(full):
            return full
    if facts.exists and facts.option_file_ok and not facts.deprecated:
        return facts.name
    return facts.successor if facts.successor and ctx.knows(facts.successor) else None


def ignored(ctx: AuditContext, entry: OptionEntry, name: str, facts: VariableFacts) -> Iterator[Proposal]:
    """A line the server accepts only to ignore it: comment it out."""
    since = facts.removed_in or facts.deprecated_in
    reason = (
        f"{entry.file}:{entry.line}: {ctx.version.product} accepts {name} only so that old option files still "
        f"start, and ignores it{f' since {since}' if since else ''} with a warning at every start: the line "
        "suggests a setting that is not in force."
    )
    yield from _line_fix(ctx, entry, name, facts, f"{name} is ignored by {ctx.version.describe()}", reason)
