"""The server's own verdict on an option line (`advisor.optioncheck`) as proposals that fix the file.

A line the server refuses, or one that makes it disable a plugin, must not reach a deployed file as
written: it is commented out with a note naming the finding, and where the intent is clear (a typo,
an abbreviation, a word where a number goes, a decimal size) the corrected line is written with the
user's own value. That correction keeps their value, so it defers to any rule that wants another one,
and it is not written at all when a later line (in the server's read order) sets the option: that line
is the user's setting in force, and the bad line is only commented out.

Name verdicts are trusted only where the option data is complete for the target: MariaDB 10.11 (read
off the real server), MariaDB 10.0 to 12.3 and MySQL 5.5 to 9.x (advisor/optioncheck/data/names.json: real
binaries of Debian/Ubuntu packages for MariaDB 10.0, 10.1, 10.3, 10.5, 10.6, 11.8 and MySQL 5.7, 8.0; the
servers' own mysqld--help test results for the others), for names those lists do not hide (plugin options,
where a test result and not a binary lies around the target).
Elsewhere (older versions, Percona Server's extra options) an unknown name may be a real option of that
version, and the older near-miss check speaks instead. Value verdicts (how a number, size or
boolean is read) hold for every version of the flavor.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from advisor.advisors.config_validity.lines import kept_instead, later_line, line_evidence, wins_after
from advisor.derived.engines import dropped_by, loaded_plugins
from advisor.effective_lines import prefixes_after
from advisor.findings import Evidence, Severity
from advisor.optioncheck import Outcome, Verdict, judge
from advisor.optioncheck.plugins import library_options_by_library
from advisor.redact import is_secret_option
from advisor.rules import Proposal

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.inputs.optionfiles import OptionEntry

# Verdicts about the name itself; the rest are about the value.
NAME_REASONS: Final = frozenset(
    {
        "unknown_name", "misspelling", "other_flavor", "plugin_not_loaded", "refused_prefix",
        "ambiguous_prefix", "unique_prefix", "not_in_version",
    }
)  # fmt: skip
_TYPO_REASONS: Final = frozenset({"misspelling", "refused_prefix", "ambiguous_prefix"})


def compat_ignored(ctx: AuditContext, entry: OptionEntry, found: Verdict) -> Iterator[Proposal]:
    """A MySQL option MariaDB takes for compatibility and ignores: the line does nothing, so it goes."""
    yield _comment_out(
        entry,
        f"{entry.raw_name} is ignored by {ctx.version.describe()}",
        f"{entry.file}:{entry.line}: {found.message} The line sets nothing: comment it out.",
        (line_evidence(entry), Evidence("server", ctx.version.describe(), found.basis)),
        entry.name,
        Severity.NOTICE,
    )


def is_compat_option(ctx: AuditContext, found: Verdict, catalog_ignored: bool = False) -> bool:
    """Is this an option the target MariaDB swallows with a warning (a MySQL option, or one MariaDB removed:
    probed on the real binaries)? Elsewhere than 10.11 the tuned catalog's own word on an ignored option
    (`catalog_ignored`, which names the version that dropped it) speaks instead."""
    return (
        found.reason == "compatibility_stub"
        and ctx.version.is_mariadb
        and (ctx.version.line == "10.11" or not catalog_ignored)
    )


def verdict(ctx: AuditContext, entry: OptionEntry, prefixes: bool = True) -> Verdict:
    """What the target server does at startup with this line, as written (`prefixes`: whether unique
    prefixes still match at this line)."""
    flavor = "mariadb" if ctx.version.is_mariadb else "mysql"
    os_name = (ctx.hardware.os if ctx.hardware is not None else None) or "linux"
    return judge(entry.raw_name, entry.given, flavor=flavor, version=ctx.version.as_tuple(), os=os_name,
                 prefix_matching=prefixes, plugins=loaded_plugins(ctx))  # fmt: skip


def prefix_matching_after(ctx: AuditContext, entry: OptionEntry, before: bool) -> bool:
    """Whether unique prefixes still match after this line (advisor.effective_lines.prefixes_after)."""
    return prefixes_after(ctx.version, entry, before)


def trusted(ctx: AuditContext, found: Verdict) -> bool:
    """Can we stand behind this verdict for the target version? Name verdicts only where judge() marks them
    certain: MariaDB 10.11 (the real server), or a version the test results cover and a name they do not
    mask. Percona Server adds options of its own."""
    if found.reason not in NAME_REASONS:
        return True
    return found.certain and not ctx.version.is_percona


def is_typo(found: Verdict) -> bool:
    """A name the server refuses that is close to (or abbreviates) a name it has."""
    return found.reason in _TYPO_REASONS or (found.reason == "unique_prefix" and found.suggestion is not None)


def _effect(ctx: AuditContext, found: Verdict) -> str:
    if found.outcome is Outcome.DISABLES_PLUGIN and not found.stops_server:
        return f"{ctx.version.describe()} starts without the {found.plugin} plugin"
    return f"{ctx.version.describe()} does not start"


def _comment_out(entry: OptionEntry, title: str, rationale: str, evidence: tuple[Evidence, ...],
                 variable: str, severity: Severity) -> Proposal:  # fmt: skip
    """Turn the line into a comment (the differ adds a note naming the finding)."""
    return Proposal(
        title=title,
        rationale=rationale,
        evidence=evidence,
        variable=variable,
        severity=severity,
        change="comment_out",
        option_file=entry.file,
        option_line=entry.line,
    )


def _rewrite(ctx: AuditContext, entry: OptionEntry, name: str, value: str, severity: Severity) -> Proposal:
    """The user's own setting, spelled so the server reads it: a correction, deferring to other rules."""
    return Proposal(
        title=f"Write {name} = {value} as the server reads it",
        rationale=f"{entry.file}:{entry.line} means {name} = {value}; written so, "
        f"{ctx.version.describe()} reads it.",
        evidence=(line_evidence(entry),),
        variable=name,
        recommended=value,
        severity=severity,
        correction=True,
    )


def _later(ctx: AuditContext, entry: OptionEntry, name: str) -> OptionEntry | None:
    """The line read after `entry` that the user meant to set `name` last: a valid line for it, else a later
    misspelling or abbreviation that is corrected to it (`max_conections = 5000` then `max_connectons = 200`
    means 200)."""
    found = later_line(ctx, entry, name)
    if found is not None or ctx.options is None:
        return found
    after = False
    for other in ctx.options.entries(ctx.groups_read):
        if other is entry:
            after = True
        elif after and other.prefix is None and ctx.catalog.lookup(other.name, ctx.version) is None:
            said = verdict(ctx, other)
            fixed = _correction(said) if trusted(ctx, said) and is_typo(said) else None
            if fixed is not None and fixed[0] == name:
                found = other
    return found


def fix(ctx: AuditContext, entry: OptionEntry, found: Verdict) -> Iterator[Proposal]:
    """Comment the line out, naming what the server does; write the corrected line when the intent is clear."""
    written = entry.raw_name if entry.given is None else f"{entry.raw_name} = {entry.given}"
    correction = _correction(found)
    later = _later(ctx, entry, correction[0]) if correction else None
    then = f" The recommended file writes `{found.suggestion}` instead." if correction else ""
    if correction is not None and later is not None:
        then, correction = kept_instead(later, correction[0]), None
    elif correction is not None and is_secret_option(correction[0]):  # never written by us
        then = (
            f" Rename it to {correction[0]} in your own file: its value is a secret, kept out of our files."
        )
    server = Evidence("server", ctx.version.describe(), found.basis or "target version")
    yield _comment_out(
        entry,
        f"{written}: {_effect(ctx, found)}{wins_after(later)}.",
        f"{entry.file}:{entry.line}: {found.message}{_dropped(ctx, entry, found)} Comment the line out.{then}",
        (line_evidence(entry), server),
        found.option or entry.name,
        Severity.CRITICAL,
    )
    if correction is not None:
        yield _rewrite(ctx, entry, *correction, Severity.CRITICAL)


def unsure(ctx: AuditContext, entry: OptionEntry, found: Verdict) -> Iterator[Proposal]:
    """A value another release of the line refuses (8.0.46 for an 8.4 target): a warning, the line kept."""
    written = entry.raw_name if entry.given is None else f"{entry.raw_name} = {entry.given}"
    yield Proposal(
        title=f"{written}: {ctx.version.describe()} probably does not start",
        rationale=f"{entry.file}:{entry.line}: {found.message.removesuffix(' The server refuses to start.')} No {ctx.version.describe()} was watched "
        "refusing it, so the line is kept: check it before you deploy the file.",
        evidence=(line_evidence(entry), Evidence("server", ctx.version.describe(), found.basis or "")),
        variable=found.option or entry.name,
        severity=Severity.WARNING,
    )


def _dropped(ctx: AuditContext, entry: OptionEntry, found: Verdict) -> str:
    """For an option of a plugin not loaded: the plugin_load / skip-plugin-load line that dropped the library
    an earlier plugin_load_add named (review case 18), else nothing."""
    if found.reason != "plugin_not_loaded":
        return ""
    name = found.option or entry.name
    libraries = frozenset(lib for lib, options in library_options_by_library().items() if name in options)
    dropper = dropped_by(ctx, libraries) if libraries else None
    if dropper is None:
        return ""
    said = dropper.raw_name if dropper.given is None else f"{dropper.raw_name} = {dropper.given}"
    return f" {dropper.file}:{dropper.line} ({said}) replaced the plugin list that loaded it."


def abbreviation(ctx: AuditContext, entry: OptionEntry, found: Verdict) -> Iterator[Proposal]:
    """An abbreviated name the target accepts today: write the full name before an upgrade refuses it."""
    correction = _correction(found)
    if correction is None:
        return
    yield from _rewritten(
        ctx,
        entry,
        correction,
        f"{entry.raw_name} abbreviates {correction[0]}",
        f"{found.message} MySQL 5.7 and later refuse abbreviated option names, so write the full name.",
        " The line is replaced by the full spelling with your value.",
        (line_evidence(entry),),
    )


def first_digit(ctx: AuditContext, entry: OptionEntry, found: Verdict) -> Iterator[Proposal]:
    """A boolean MariaDB reads by its first digit (`innodb_doublewrite = 0;` runs OFF): the plain digit instead."""
    correction = _correction(found)
    if correction is None:
        return
    yield from _rewritten(
        ctx,
        entry,
        correction,
        f"{entry.raw_name} = {entry.given} is read as {correction[1]}",
        f"{found.message.rstrip('.')}. Another release or a reader of the file may take it otherwise (MySQL "
        "8.0.46 refuses or ignores such a value), so write the plain value.",
        f" The line is replaced by `{found.suggestion}`.",
        (line_evidence(entry), Evidence("server", ctx.version.describe(), found.basis or "target version")),
    )


def _rewritten(
    ctx: AuditContext,
    entry: OptionEntry,
    correction: tuple[str, str],
    title: str,
    why: str,
    replaced: str,
    evidence: tuple[Evidence, ...],
) -> Iterator[Proposal]:
    """The line commented out and `name = value` written in its place — unless a later line sets the
    option and wins, which then stays as it is."""
    later = _later(ctx, entry, correction[0])
    then = kept_instead(later, correction[0]) if later is not None else replaced
    yield _comment_out(
        entry,
        f"{title}{wins_after(later)}",
        f"{entry.file}:{entry.line}: {why}{then}",
        evidence,
        correction[0],
        Severity.NOTICE,
    )
    if later is None:
        yield _rewrite(ctx, entry, *correction, Severity.NOTICE)


def _correction(found: Verdict) -> tuple[str, str] | None:
    """(name, value) out of the verdict's suggested line `name = value`; None without one."""
    if not found.suggestion or "=" not in found.suggestion:
        return None
    name, _, value = found.suggestion.partition("=")
    name, value = name.strip(), value.strip()
    return (name, value) if name and value else None
