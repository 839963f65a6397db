"""The file as the server will read it at its next restart, where the live server departs from it.

Rules judge the effective configuration, in which the live value wins: that is what runs now. But a
DBA installs the file we hand back and restarts, and then every line of the file is in effect again.
A setting changed live since the last start (`SET GLOBAL innodb_flush_log_at_trx_commit = 1` while
the file still says 0) hides the file's value from the rules, and the file would come back with the
bad line kept. So, when the file departs from the live server (drift), the rules run a second time
over the file's values for those settings, and what they find on those settings only there is
reported too: said plainly to be about the file at the next restart, its change made to the file's
line, and never with live SQL (the running server is fine by that rule).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from msgspec.structs import replace

from advisor.advisors import all_rules
from advisor.context import AuditContext, Setting
from advisor.derived.restart import restart_context
from advisor.findings import Finding
from advisor.rules import Rule

RunRules = Callable[[AuditContext, list[Rule]], list[Finding]]


def file_context(ctx: AuditContext) -> AuditContext | None:
    """The context with every drifted setting at its file value; None when none drifted (the one
    advisor.derived.restart keeps for the audit, so derived facts of both runs see the same one)."""
    return restart_context(ctx)


def rules_to_rerun(ctx: AuditContext, reads: Mapping[str, set[str] | None]) -> list[Rule]:
    """The rules that read a drifted setting in the first run: rules are pure functions of the
    context, so a rule that never looked a drifted name up finds the same again (a drifted pid_file
    reruns nothing). A rule that went over every setting (None) is rerun."""
    drifted = {setting.name for setting in ctx.config.drift}
    return [
        rule
        for rule in all_rules()
        if rule.id in reads and (reads[rule.id] is None or not drifted.isdisjoint(reads[rule.id] or ()))
    ]


def with_the_file_at_restart(
    ctx: AuditContext, found: list[Finding], reads: Mapping[str, set[str] | None], run_rules: RunRules
) -> list[Finding]:
    """`found`, with what only the file's values show added (the status and every other input are the
    same in both runs, so the drifted settings are what makes them differ), each saying so; where both
    runs find the same thing about a variable and the live run changes it, a different verdict of the
    file's run wins — another value, or no change at all: the file we hand back is what the server runs
    after a restart (a pool sized for the live max_connections of 100 is wrong for the 3000 the file
    brings back)."""
    rules = rules_to_rerun(ctx, reads) if ctx.config.drift else []
    restarted = file_context(ctx) if rules else None
    if restarted is None:
        return found
    at = {(finding.rule, finding.variable): index for index, finding in enumerate(found)}
    merged = list(found)
    for finding in run_rules(restarted, rules):
        index = at.get((finding.rule, finding.variable))
        if index is None:
            merged.append(_about_the_file(ctx, finding, live_is_fine=True))
        elif _changes_differently(found[index], finding):
            merged[index] = _about_the_file(ctx, finding, live_is_fine=False)
    return merged


def _changes_differently(live: Finding, restarted: Finding) -> bool:
    """Both runs found it, and the file's run changes the variable otherwise: to another value, or not
    at all (the pool the live run would raise, which the file's other lines leave no memory for)."""
    if live.change != "set" or restarted.change not in ("set", None):
        return False
    return restarted.change is None or live.recommended != restarted.recommended


def _about_the_file(ctx: AuditContext, finding: Finding, *, live_is_fine: bool) -> Finding:
    drifted = _behind(ctx.config.drift, finding)
    departures = "; ".join(
        f"{setting.restart_origin()} sets {setting.name} = {setting.restart_value} (live now: {setting.live_value})"
        for setting in drifted
    )
    sentence = (
        f"At the next restart, not now: {departures}. The running server departs from the file (set live "
        "since it started, or the file changed after), and a restart reads the file's values — so this is "
        "about the file."
    )
    if any(setting.persisted_value is not None for setting in drifted):
        sentence = (
            f"At the next restart, not now: {departures}. The running server departs from what a restart "
            "reads (set live since it started), and a restart reads the option files and mysqld-auto.cnf's "
            "persisted values over them — so this is about those."
        )
    rationale = f"{sentence} {finding.rationale}"
    if not live_is_fine:  # both runs want a change: the file's value, applied live too
        return replace(finding, rationale=rationale)
    # The live server is fine by this rule (the first run found nothing), so no SQL: only the file
    # changes, and that needs no restart now. SQL here could move the running server the wrong way
    # (a live 12G pool "raised" to 11G because the file says 128M).
    return replace(finding, rationale=rationale, apply_sql=None, restart_required=False)


def _behind(drift: tuple[Setting, ...], finding: Finding) -> list[Setting]:
    """The drifted settings the finding rests on: its variable and those in its evidence, else all."""
    named = {finding.variable, *(item.label for item in finding.evidence)}
    return [setting for setting in drift if setting.name in named] or list(drift)
