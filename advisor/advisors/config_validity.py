"""Config validity: option lines the target server refuses, ignores, reads differently or never sees.

One pass over the option files classifies every line; each rule reports its share. The catalog does
not list every server option, so a name it has never heard of is "unknown to us", not "unknown to the
server": such a name is only reported when it is a near miss of a name the version knows.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from advisor.advisors.configcheck import lines
from advisor.findings import Severity
from advisor.references import MYSQL_MYSQLD_SAFE
from advisor.rules import Proposal, rule

if TYPE_CHECKING:
    from advisor.catalog import VariableFacts
    from advisor.context import AuditContext
    from advisor.inputs.optionfiles import OptionEntry

OPTION_FILES = "https://dev.mysql.com/doc/refman/8.0/en/option-files.html"
MODIFIERS = "https://dev.mysql.com/doc/refman/8.0/en/option-modifiers.html"
CHANGES_80 = "https://dev.mysql.com/doc/refman/8.0/en/added-deprecated-removed.html"
CHANGES_57 = "https://dev.mysql.com/doc/refman/5.7/en/added-deprecated-removed.html"
PROGRAM_VARIABLES = "https://dev.mysql.com/doc/refman/8.0/en/program-variables.html"
PROGRAM_OPTIONS_57 = "https://dev.mysql.com/doc/refman/5.7/en/program-options.html"
MARIADB_OPTION_FILES = "https://mariadb.com/kb/en/configuring-mariadb-with-option-files/"

# Options given several times on purpose: each line adds to a list, none shadows another.
_REPEATABLE: Final = frozenset(
    {
        "plugin_load_add", "performance_schema_instrument", "optimizer_switch", "binlog_do_db",
        "binlog_ignore_db", "replicate_do_db", "replicate_ignore_db", "replicate_do_table",
        "replicate_ignore_table", "replicate_wild_do_table", "replicate_wild_ignore_table",
        "replicate_rewrite_db", "ignore_db_dirs", "set_variable",
        # Undocumented either way: stay quiet rather than call a working file broken.
        "innodb_monitor_enable", "innodb_monitor_disable", "innodb_monitor_reset", "innodb_monitor_reset_all",
    }
)  # fmt: skip


@dataclass
class _Lines:
    """Every option line that needs a word, by kind."""

    refused: list[Proposal] = field(default_factory=list)
    ignored: list[Proposal] = field(default_factory=list)
    deprecated: list[tuple[OptionEntry, VariableFacts]] = field(default_factory=list)
    typos: list[Proposal] = field(default_factory=list)
    values: list[Proposal] = field(default_factory=list)
    duplicates: list[Proposal] = field(default_factory=list)
    misplaced: list[Proposal] = field(default_factory=list)

    def size(self) -> int:
        """How many lines were flagged so far, of any kind."""
        lists = (self.refused, self.ignored, self.deprecated, self.typos, self.values, self.duplicates)
        return sum(len(items) for items in lists) + len(self.misplaced)


# The last audit's classification. One read of the tuple, so concurrent audits never mix theirs up.
_last: tuple[AuditContext, _Lines] | None = None


def _lines(ctx: AuditContext) -> _Lines:
    """Classify the option lines once per audit (the seven rules share the pass)."""
    global _last
    cached = _last
    if cached is not None and cached[0] is ctx:
        return cached[1]
    found = _classify(ctx)
    _last = (ctx, found)
    return found


def _classify(ctx: AuditContext) -> _Lines:
    found = _Lines()
    if ctx.options is None:
        return found
    winners: dict[str, OptionEntry] = {}
    shadowed: dict[str, list[OptionEntry]] = {}
    elsewhere: list[OptionEntry] = []
    for entry in ctx.options.entries():
        if entry.group not in ctx.groups_read:
            elsewhere.append(entry)
        elif entry.prefix not in ("maximum", "autoset"):  # those cap or size a variable, not set it
            _check_server_line(ctx, entry, found)
            if entry.name in winners and entry.name not in _REPEATABLE:
                shadowed.setdefault(entry.name, []).append(winners[entry.name])
            winners[entry.name] = entry
    refused = {proposal.variable for proposal in (*found.refused, *found.ignored)}
    found.duplicates = [
        lines.duplicate(winners[name], lost) for name, lost in shadowed.items() if name not in refused
    ]
    for entry in elsewhere:
        found.misplaced.extend(lines.misplaced(ctx, entry, winners))
    return found


# Lines found fine before, by catalog, version, threshold and what the line says: a fleet repeats the same
# lines, and most lines are fine, so most of the pass is one set lookup per line.
_FINE: set[tuple[object, ...]] = set()
_FINE_LIMIT: Final = 50_000


def _check_server_line(ctx: AuditContext, entry: OptionEntry, found: _Lines) -> None:
    key = (
        ctx.catalog,
        ctx.version.flavor,
        ctx.version.key,
        ctx.thresholds.config_validity,
        entry.name,
        entry.prefix,
        entry.loose,
        entry.value,
    )
    if key in _FINE:
        return
    before = found.size()
    _judge_server_line(ctx, entry, found)
    if found.size() == before:
        if len(_FINE) >= _FINE_LIMIT:
            _FINE.clear()
        _FINE.add(key)


def _judge_server_line(ctx: AuditContext, entry: OptionEntry, found: _Lines) -> None:
    name, facts = lines.resolve(ctx, entry)
    if facts is None and name == "set_variable":
        found.refused.extend(lines.set_variable(ctx, entry))
    elif facts is None:
        found.typos.extend(lines.typo(ctx, entry))
    elif facts.kind == "mysqld_safe" or not facts.option_file_ok:
        found.refused.extend(lines.refused(ctx, entry, name, facts))
    elif facts.ignored:
        found.ignored.extend(lines.ignored(ctx, entry, name, facts))
    else:
        if facts.deprecated:
            found.deprecated.append((entry, facts))
        if entry.prefix is None:  # skip-/disable-/enable- give the value themselves
            found.values.extend(lines.bad_value(ctx, entry, name, facts))


def _release(ctx: AuditContext, boundary: str | None) -> str:
    """`10.11.7` out of a per-line boundary such as `10.6.17,10.11.7,11.0.5`."""
    parts = (boundary or "?").split(",")
    line = f"{ctx.version.line}."
    return next((part for part in parts if part.startswith(line)), parts[0])


# ---------------------------------------------------------------------- rules
@rule(
    "config_validity.refused_option",
    Severity.CRITICAL,
    [OPTION_FILES, CHANGES_80, CHANGES_57, MODIFIERS, MARIADB_OPTION_FILES],
)
def refused_option(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: option lines in the groups the server reads whose name the target version does not
    accept — removed (`query_cache_size` on MySQL 8.0, `innodb_support_xa`), not there yet, of the other
    flavor (`gtid_mode` on MariaDB), only settable through another name (`tx_isolation`), or a
    mysqld_safe option (`malloc-lib`) under [mysqld].

    Why it matters: the server refuses unknown options: it exits at startup with "unknown variable", so
    an upgrade with such a line in the file ends in an outage.

    What we recommend: comment the line out; when the option was renamed and the successor takes the
    same value (`tx_isolation` → `transaction_isolation`, `expire_logs_days` → `binlog_expire_logs_seconds`
    in seconds), set the successor in its place.

    Caveats: only names the catalog knows are judged; a `loose-` line is skipped by the server with a
    warning and is reported for information only.
    """
    yield from _lines(ctx).refused


@rule("config_validity.ignored_option", Severity.NOTICE, [CHANGES_80, MARIADB_OPTION_FILES])
def ignored_option(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: option lines the target version still accepts but ignores, such as
    `innodb_buffer_pool_instances`, `innodb_log_files_in_group` or `innodb_file_format` on MariaDB 10.6+.

    Why it matters: the line reads like a setting in force but does nothing, and the server logs a
    warning at every start; the next release may refuse it outright.

    What we recommend: comment the line out (and set the successor when one takes the same value).

    Caveats: none: the server itself says the option does nothing.
    """
    yield from _lines(ctx).ignored


@rule("config_validity.deprecated_option", Severity.NOTICE, [CHANGES_80, CHANGES_57, MARIADB_OPTION_FILES])
def deprecated_option(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: option lines the target version accepts and honours but has deprecated
    (`log_slave_updates` on MySQL 8.0.26+, `expire_logs_days` on 8.0).

    Why it matters: a deprecated option is removed in a later release, and the server then refuses to
    start with the old file; renaming now makes the upgrade a non-event.

    What we recommend: rename each to its successor when it has one; the lines are listed, the file is
    not changed (other advisors may want a different value for the successor).

    Caveats: notice when a successor exists, information otherwise.
    """
    deprecated = _lines(ctx).deprecated
    if not deprecated:
        return
    parts = [
        f"{entry.raw_name} ({entry.file}:{entry.line}, deprecated in {_release(ctx, facts.deprecated_in)}"
        + (f"; use {facts.successor})" if facts.successor else ")")
        for entry, facts in deprecated
    ]
    yield Proposal(
        title=f"{len(deprecated)} deprecated option(s) in the file",
        rationale=f"{ctx.version.describe()} still reads them but a later release will refuse them: "
        f"{'; '.join(parts)}.",
        evidence=tuple(lines.line_evidence(entry) for entry, _ in deprecated),
        severity=None if any(facts.successor for _, facts in deprecated) else Severity.INFO,
    )


@rule("config_validity.possible_typo", Severity.WARNING, [OPTION_FILES, PROGRAM_OPTIONS_57, MODIFIERS])
def possible_typo(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: option names in the server's groups that InnoTune does not know and that are a
    letter or two away from a name the version has (`innodb_bufer_pool_size`), names of 8+ letters.

    Why it matters: a misspelt option stops the server at startup; with `loose-` it is skipped silently
    and the intended setting never applies.

    What we recommend: fix the spelling ("did you mean ...").

    Caveats: the catalog does not list every server and plugin option, so unknown names that are not
    near misses are left alone; on servers that accept unique prefixes (MariaDB, MySQL before 5.7) an
    abbreviation of a known name is not called a typo.
    """
    yield from _lines(ctx).typos


@rule(
    "config_validity.invalid_value", Severity.CRITICAL, [PROGRAM_VARIABLES, MODIFIERS, MARIADB_OPTION_FILES]
)
def invalid_value(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: values the server cannot read as written — a number with an unknown suffix or a
    decimal point (`1.5G`), T/P/E suffixes before MySQL 8.0.14, a bare numeric option, an enum value the
    version does not have, a boolean word other than ON/OFF/1/0/TRUE/FALSE, a number out of range.

    Why it matters: unreadable numbers and enum values stop the server at startup; out-of-range numbers
    are clamped and unknown boolean words ignored or read as OFF, so the server runs with something other
    than what the file says.

    What we recommend: write the value the way the server reads it (`1536M`, `ON`, a value in range).

    Caveats: critical when the server stops, warning when it carries on with another value; ranges and
    values come from the catalog, block-size rounding is not checked.
    """
    yield from _lines(ctx).values


@rule("config_validity.duplicate_option", Severity.NOTICE, [OPTION_FILES, MARIADB_OPTION_FILES])
def duplicate_option(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: options set more than once across the groups and files the server reads.

    Why it matters: the last line wins silently; whoever edits an earlier one changes nothing, which is
    how tuning changes get "applied" without effect.

    What we recommend: keep one line per option; both (all) places are named.

    Caveats: options that accumulate (`plugin-load-add`, `replicate-*`, `optimizer_switch` flags) are
    not duplicates; identical values are information only.
    """
    yield from _lines(ctx).duplicates


@rule(
    "config_validity.misplaced_option",
    Severity.WARNING,
    [OPTION_FILES, MYSQL_MYSQLD_SAFE, MARIADB_OPTION_FILES],
)
def misplaced_option(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: server options in groups the server does not read — `innodb_buffer_pool_size`
    under [client] or [mysql], server settings under [mysqld_safe], [mysqld-5.7] on an 8.0 server.

    Why it matters: the setting looks configured but the server never sees it.

    What we recommend: move the line to [mysqld] if the server is meant to have it.

    Caveats: warning for client and mysqld_safe groups, notice for other versions' groups, unknown groups
    and when the server sets the option elsewhere anyway; options client programs share with the server
    (`port`, `socket`, `max_allowed_packet`) and backup-tool groups are left alone.
    """
    yield from _lines(ctx).misplaced


RULES = (
    refused_option,
    ignored_option,
    deprecated_option,
    possible_typo,
    invalid_value,
    duplicate_option,
    misplaced_option,
)
