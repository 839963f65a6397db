"""One pass over the option files classifies every line the config_validity rules report (once per audit)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from msgspec import Struct, field
from msgspec.structs import replace

from advisor.advisors.config_validity import lines, refusals, verdicts
from advisor.derived.cache import once_per_audit
from advisor.derived.engines import loaded_plugins
from advisor.findings import Severity
from advisor.optioncheck import Outcome, Verdict
from advisor.rules import Proposal

if TYPE_CHECKING:
    from advisor.catalog import VariableFacts
    from advisor.context import AuditContext
    from advisor.inputs.optionfiles import OptionEntry


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


class ClassifiedLines(Struct):
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


@once_per_audit
def classified_lines(ctx: AuditContext) -> ClassifiedLines:
    """Classify the option lines once per audit (the seven rules share the pass)."""
    found = ClassifiedLines()
    if ctx.options is None:
        return found
    winners: dict[str, OptionEntry] = {}
    shadowed: dict[str, list[OptionEntry]] = {}
    elsewhere: list[OptionEntry] = []
    prefixes = True  # MariaDB: unique prefixes match until a line turns getopt-prefix-matching off
    judged_under = _judged_under(ctx)
    for entry in ctx.options.entries():
        if entry.group not in ctx.groups_read:
            elsewhere.append(entry)
        elif entry.prefix not in ("maximum", "autoset"):  # those cap or size a variable, not set it
            _check_server_line(ctx, entry, found, prefixes, judged_under)
            prefixes = verdicts.prefix_matching_after(ctx, entry, prefixes)
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
#: what a line's verdict depends on beside the line itself, each distinct one numbered once
_CIRCUMSTANCES: dict[tuple[object, ...], int] = {}


def _judged_under(ctx: AuditContext) -> int:
    """The number of this audit's circumstances (catalog, version, thresholds, the plugins loaded: a
    plugin's option is fine only where the files load the plugin), for the keys of `_FINE`."""
    circumstances = (
        ctx.catalog,
        ctx.version.flavor,
        ctx.version.key,
        ctx.thresholds.config_validity,
        loaded_plugins(ctx),
    )
    number = _CIRCUMSTANCES.get(circumstances)
    if number is None:
        if len(_CIRCUMSTANCES) >= _FINE_LIMIT:  # numbering starts again: the lines judged go too
            _FINE.clear()
            _CIRCUMSTANCES.clear()
        number = _CIRCUMSTANCES[circumstances] = len(_CIRCUMSTANCES)
    return number


def _check_server_line(
    ctx: AuditContext, entry: OptionEntry, found: ClassifiedLines, prefixes: bool, judged_under: int
) -> None:
    key = (prefixes, judged_under, entry.name, entry.prefix, entry.loose, entry.value)
    if key in _FINE:
        return
    before = found.size()
    _judge_server_line(ctx, entry, found, prefixes)
    if found.size() == before:
        if len(_FINE) >= _FINE_LIMIT:
            _FINE.clear()
        _FINE.add(key)


def _judge_server_line(ctx: AuditContext, entry: OptionEntry, found: ClassifiedLines, prefixes: bool) -> None:
    name, facts = lines.resolve(ctx, entry)
    said = verdicts.verdict(ctx, entry, prefixes)
    if verdicts.is_compat_option(ctx, said, facts is not None and facts.ignored):
        found.ignored.extend(verdicts.compat_ignored(ctx, entry, said))
    elif facts is None and name == "set_variable":
        found.refused.extend(refusals.set_variable(ctx, entry))
    elif facts is None or (not prefixes and said.reason == "refused_prefix"):
        _judge_unknown_name(ctx, entry, said, found)
    elif facts.kind == "mysqld_safe" or not facts.option_file_ok:
        found.refused.extend(refusals.refused(ctx, entry, name, facts))
    elif facts.ignored:
        found.ignored.extend(refusals.ignored(ctx, entry, name, facts))
    else:
        if facts.deprecated:
            found.deprecated.append((entry, facts))
        if entry.prefix is None:  # skip-/disable-/enable- give the value themselves
            _judge_value(ctx, entry, name, facts, said, found)


def _judge_unknown_name(ctx: AuditContext, entry: OptionEntry, said: Verdict, found: ClassifiedLines) -> None:
    """A name the tuned catalog lacks: the server's full option list says what happens to it."""
    if said.is_critical and verdicts.trusted(ctx, said):
        target = found.typos if verdicts.is_typo(said) else found.refused
        target.extend(verdicts.fix(ctx, entry, said))
    elif said.reason == "unique_prefix" and verdicts.trusted(ctx, said):
        found.typos.extend(verdicts.abbreviation(ctx, entry, said))
    elif not said.certain or said.outcome is not Outcome.ACCEPTS:
        found.typos.extend(lines.typo(ctx, entry))


def _judge_value(
    ctx: AuditContext,
    entry: OptionEntry,
    name: str,
    facts: VariableFacts,
    said: Verdict,
    found: ClassifiedLines,
) -> None:
    """A known name's value: fixed in the file when the server would refuse it, else reported."""
    if said.reason == "number_bool":  # read by its first digit, silently: written plainly instead
        found.values.extend(verdicts.first_digit(ctx, entry, said))
        return
    if said.is_critical and said.reason not in verdicts.NAME_REASONS:
        fixed = verdicts.fix(ctx, entry, said) if said.value_seen else verdicts.unsure(ctx, entry, said)
        found.values.extend(fixed)
        return
    for proposal in lines.bad_value(ctx, entry, name, facts):
        if proposal.severity is Severity.CRITICAL:  # the catalog says the server stops: never leave it
            proposal = replace(proposal, change="comment_out", option_file=entry.file, option_line=entry.line)
        found.values.append(proposal)
