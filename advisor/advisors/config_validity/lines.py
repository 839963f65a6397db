"""Proposals for an option line: the name it sets, its evidence, and one builder per kind of problem
(bad value, typo, duplicate, misplaced); refused and ignored lines are in `refusals`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from advisor.advisors.config_validity.names import CLIENT_SIDE_OPTIONS, group_role, near_miss
from advisor.advisors.config_validity.values import check_value, clamped_to
from advisor.catalog import normalize_name
from advisor.derived.cache import once_per_audit
from advisor.findings import Evidence, Severity
from advisor.rules import Proposal
from advisor.units import format_size

if TYPE_CHECKING:
    from advisor.catalog import VariableFacts
    from advisor.context import AuditContext
    from advisor.inputs.optionfiles import OptionEntry


_READERS: Final = {
    "other_version": "only a server of version {version} reads it",
    "mysqld_safe": "mysqld_safe ignores server options in its own group (and systemd starts no mysqld_safe)",
    "client": "only client programs read it",
    "unknown": "no MySQL or MariaDB program reads it",
}


def resolve(ctx: AuditContext, entry: OptionEntry) -> tuple[str, VariableFacts | None]:
    """The catalog name a line sets: `skip-innodb` is `innodb`, unless only `skip_innodb` is known."""
    facts = ctx.catalog.lookup(entry.name, ctx.version)
    if facts is None and entry.prefix in ("skip", "disable", "enable"):
        full = f"{entry.prefix}_{entry.name}"
        whole = ctx.catalog.lookup(full, ctx.version)
        if whole is not None:
            return full, whole
    return entry.name, facts


def line_evidence(entry: OptionEntry) -> Evidence:
    """The option line as written, with its file and line number."""
    text = entry.raw_name if entry.given is None else f"{entry.raw_name} = {entry.given}"
    return Evidence(f"option line in [{entry.group}]", text, f"{entry.file}:{entry.line}")


@once_per_audit
def _read_order(ctx: AuditContext) -> dict[tuple[str, int], int]:
    """(file, line) → position in the order the server reads the lines of its groups."""
    entries = ctx.options.entries(ctx.groups_read) if ctx.options is not None else ()
    return {(entry.file, entry.line): index for index, entry in enumerate(entries)}


def later_line(ctx: AuditContext, entry: OptionEntry, name: str) -> OptionEntry | None:
    """The line the server keeps for `name` when it comes after `entry` (files, then groups, in read order),
    else None. Such a line is the user's setting in force: a fix of `entry` must not carry `entry`'s value
    over it (a misspelt `max_conections = 5000` before `max_connections = 200` means 200)."""
    if ctx.options is None:
        return None
    effective = ctx.options.effective(ctx.groups_read)
    # the differ writes tx_isolation as transaction_isolation (its option name): either line counts
    spelled = normalize_name(ctx.catalog.option_file_name(name, ctx.version) or name)
    winner = effective.get(normalize_name(name)) or effective.get(spelled)
    if winner is None or winner.entry is entry:
        return None
    order = _read_order(ctx)
    found, here = order.get((winner.entry.file, winner.entry.line)), order.get((entry.file, entry.line))
    return winner.entry if found is not None and here is not None and found > here else None


def wins_after(later: OptionEntry | None) -> str:
    """Said in a comment-out's title (the note in the file) when a later line sets the option and wins."""
    return f"; {later.file}:{later.line}, read later, wins" if later is not None else ""


def kept_instead(later: OptionEntry, name: str) -> str:
    """The words for a fix that is not written because a later line sets the option."""
    return (
        f" {later.file}:{later.line} sets {name} again later ({later.given or 'ON'}) and the server keeps the "
        "last line, so that line stays as it is and this line's value is not carried over."
    )


def bad_value(ctx: AuditContext, entry: OptionEntry, name: str, facts: VariableFacts) -> Iterator[Proposal]:
    """A value the server cannot read as written (severity says whether it stops or carries on)."""
    problem = check_value(ctx.version, entry.value, name, facts)
    if problem is not None:
        severity, text = problem
        if entry.loose and entry.value is not None and severity is Severity.CRITICAL:
            # loose- turns an unreadable value into "ignoring option ... due to invalid value"
            severity = Severity.WARNING
            text += " With the loose- prefix the server only logs that and ignores the line instead."
        written = entry.given if entry.given is not None else "(no value)"
        runs = clamped_to(ctx.version, entry.value, facts) if severity is not Severity.CRITICAL else None
        yield Proposal(
            title=f"{entry.raw_name} = {written} is not read as written",
            rationale=f"{entry.file}:{entry.line}: {text}",
            evidence=(line_evidence(entry), Evidence("server", ctx.version.describe(), "target version")),
            variable=name,
            severity=severity,
            # the value the server runs, written as such: any other advisor's value for the line wins
            recommended=_written(runs, facts.unit) if runs is not None else None,
            correction=runs is not None,
        )


def _written(number: int, unit: str | None) -> str:
    """`2M` for a size (as a DBA writes it), else the plain number."""
    return format_size(number) if unit == "bytes" else str(number)


def _accepts_prefixes(ctx: AuditContext) -> bool:
    """MariaDB and MySQL before 5.7 take a unique prefix of an option name (`thread_cache`)."""
    return ctx.version.is_mariadb or ctx.version.before(5, 7)


def typo(ctx: AuditContext, entry: OptionEntry) -> Iterator[Proposal]:
    """A name unknown to InnoTune that is a letter or two away from one the version knows."""
    name = entry.name
    if len(name) < ctx.thresholds.config_validity.typo_min_name_length:
        return
    known = ctx.catalog.names_for(ctx.version)
    close = near_miss(name, known, _accepts_prefixes(ctx))
    if close is None:
        return
    effect = (
        "With the loose- prefix the server warns and skips it, so the setting never takes effect."
        if entry.loose
        else 'If it is a typo, the server stops at startup with "unknown variable".'
    )
    yield Proposal(
        title=f"{entry.raw_name}: did you mean {close}?",
        rationale=f"{entry.file}:{entry.line}: {name} is not an option InnoTune knows for "
        f"{ctx.version.describe()}, and it differs from {close} by a letter or two. {effect}",
        evidence=(line_evidence(entry),),
        severity=Severity.INFO if entry.loose else None,
    )


def duplicate(winner: OptionEntry, lost: list[OptionEntry]) -> Proposal:
    """An option set several times: name every line and the one that wins."""
    places = ", ".join(f"{e.file}:{e.line} ({e.given or 'ON'})" for e in lost)
    same = all(e.value == winner.value for e in lost)
    return Proposal(
        title=f"{winner.name} is set {len(lost) + 1} times; {winner.file}:{winner.line} wins",
        rationale=f"The server reads every line and keeps the last: {winner.file}:{winner.line} "
        f"({winner.given or 'ON'}) overrides {places}."
        + (" The values agree, so only the clutter is at stake." if same else " Anyone editing the earlier line "
           "changes nothing; keep one line."),
        evidence=tuple(line_evidence(e) for e in (*lost, winner)),
        variable=winner.name,
        severity=Severity.INFO if same else None,
    )  # fmt: skip


def misplaced(ctx: AuditContext, entry: OptionEntry, in_server: dict[str, OptionEntry]) -> Iterator[Proposal]:
    """A server option in a group the server does not read."""
    role = group_role(entry.group, ctx.groups_read, ctx.version.is_mariadb)
    if role is None or role == "server":
        return
    name, facts = resolve(ctx, entry)
    if facts is None or not facts.in_flavor or facts.kind == "mysqld_safe" or name in CLIENT_SIDE_OPTIONS:
        return
    readers = _READERS[role].format(version=entry.group.partition("-")[2])
    also = in_server.get(name)
    severity = Severity.WARNING if role in ("client", "mysqld_safe") and also is None else Severity.NOTICE
    there = f" The server takes {name} from {also.file}:{also.line} instead." if also else ""
    yield Proposal(
        title=f"{name} under [{entry.group}] never reaches the server",
        rationale=f"{entry.file}:{entry.line} sets the server option {name} in [{entry.group}], but {readers}; "
        f"{ctx.version.describe()} reads only [{'], ['.join(sorted(ctx.groups_read))}].{there} Move the line "
        "to [mysqld] if the server is meant to have it.",
        evidence=(line_evidence(entry),),
        variable=name,
        severity=severity,
    )
