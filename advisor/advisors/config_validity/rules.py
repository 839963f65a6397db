"""The config_validity rules: each reports its share of the classified option lines."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from advisor.advisors.config_validity import lines
from advisor.advisors.config_validity.classify import classified_lines
from advisor.findings import Evidence, Severity
from advisor.references import MYSQL_MYSQLD_SAFE
from advisor.rules import Proposal, rule

if TYPE_CHECKING:
    from advisor.context import AuditContext


OPTION_FILES = "https://dev.mysql.com/doc/refman/8.0/en/option-files.html"
MODIFIERS = "https://dev.mysql.com/doc/refman/8.0/en/option-modifiers.html"
CHANGES_80 = "https://dev.mysql.com/doc/refman/8.0/en/added-deprecated-removed.html"
CHANGES_57 = "https://dev.mysql.com/doc/refman/5.7/en/added-deprecated-removed.html"
PROGRAM_VARIABLES = "https://dev.mysql.com/doc/refman/8.0/en/program-variables.html"
PROGRAM_OPTIONS_57 = "https://dev.mysql.com/doc/refman/5.7/en/program-options.html"
MARIADB_OPTION_FILES = "https://mariadb.com/kb/en/configuring-mariadb-with-option-files/"


def _release(ctx: AuditContext, boundary: str | None) -> str:
    """`10.11.7` out of a per-line boundary such as `10.6.17,10.11.7,11.0.5`."""
    parts = (boundary or "?").split(",")
    line = f"{ctx.version.line}."
    return next((part for part in parts if part.startswith(line)), parts[0])


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
    yield from classified_lines(ctx).refused


@rule("config_validity.ignored_option", Severity.NOTICE, [CHANGES_80, MARIADB_OPTION_FILES])
def ignored_option(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: option lines the target version still accepts but ignores, such as
    `innodb_buffer_pool_instances`, `innodb_log_files_in_group` or `innodb_file_format` on MariaDB 10.6+.

    Why it matters: the line reads like a setting in force but does nothing, and the server logs a
    warning at every start; the next release may refuse it outright.

    What we recommend: comment the line out (and set the successor when one takes the same value).

    Caveats: none: the server itself says the option does nothing.
    """
    yield from classified_lines(ctx).ignored


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
    deprecated = classified_lines(ctx).deprecated
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
    yield from classified_lines(ctx).typos


@rule(
    "config_validity.invalid_value", Severity.CRITICAL, [PROGRAM_VARIABLES, MODIFIERS, MARIADB_OPTION_FILES]
)
def invalid_value(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: values the server cannot read as written — a number with an unknown suffix or a
    decimal point (`1.5G`), T/P/E suffixes before MySQL 8.0.14, a bare numeric option, an enum value the
    version does not have, a boolean word other than ON/OFF/1/0/TRUE/FALSE, a number out of range, and a
    boolean MariaDB reads by its first digit (`innodb_doublewrite = 0;` runs OFF on mariadbd 10.11.19).

    Why it matters: unreadable numbers and enum values stop the server at startup; out-of-range numbers
    are clamped and unknown boolean words ignored or read as OFF, so the server runs with something other
    than what the file says; a value read by its first digit works by accident and reads otherwise
    elsewhere (MySQL 8.0.46 does not take it).

    What we recommend: write the value the way the server reads it (`1536M`, `ON`, `0`, a value in range);
    a number out of range is rewritten with the minimum or maximum the server runs instead.

    Caveats: critical when the server stops, warning when it carries on with another value — a notice for a
    number clamped to within twice or half what was written (`innodb_log_buffer_size = 1M` runs 2M); ranges
    and values come from the catalog, block-size rounding is not checked.
    """
    yield from classified_lines(ctx).values


@rule("config_validity.duplicate_option", Severity.NOTICE, [OPTION_FILES, MARIADB_OPTION_FILES])
def duplicate_option(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: options set more than once across the groups and files the server reads.

    Why it matters: the last line wins silently; whoever edits an earlier one changes nothing, which is
    how tuning changes get "applied" without effect.

    What we recommend: keep one line per option; both (all) places are named.

    Caveats: options that accumulate (`plugin-load-add`, `replicate-*`, `optimizer_switch` flags) are
    not duplicates; identical values are information only.
    """
    yield from classified_lines(ctx).duplicates


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
    yield from classified_lines(ctx).misplaced


@rule("config_validity.unread_file", Severity.NOTICE, [OPTION_FILES, MARIADB_OPTION_FILES])
def unread_file(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: uploaded files inside a directory an `!includedir` line names that the server does
    not read there: a name not ending in `.cnf` (`50-server.cnf.dpkg-old`, `my.cnf.bak`, `x.conf`, `x.CNF`;
    `.ini` counts on Windows only) or a file in a subdirectory (`conf.d/old/x.cnf`).

    Why it matters: the file looks like part of the configuration but none of its lines is in force;
    auditing it as read would call its lines the winning ones and edit a file the server never opens.

    What we recommend: nothing is changed in the file; rename it to end in `.cnf` (or move it up into the
    directory) if it is meant to be read, remove it otherwise.

    Caveats: the real mariadbd 10.11 `--print-defaults` reads only the `.cnf` files directly in the
    directory (the suffix is case-sensitive); a file also named by its own `!include` line is read.
    """
    if ctx.options is None:
        return
    for path in ctx.options.unread:
        yield Proposal(
            title=f"{path} is not read by the server",
            rationale=f"{path} is in a directory that an `!includedir` line names, but the server reads only "
            "the files directly in it whose names end in .cnf (.ini too on Windows): none of this file's "
            "settings is in force, and the recommended files leave it as it is. Rename it to end in .cnf "
            "if it is meant to be read; remove it otherwise.",
            evidence=(
                Evidence("uploaded option file", path, "not a .cnf file directly in the included directory"),
            ),
            severity=Severity.NOTICE,
        )
