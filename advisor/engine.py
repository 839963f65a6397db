"""The engine: parse the inputs, build the context, run every rule, settle conflicts, diff.

Settling conflicts: when several advisors propose a value for one variable, the advisor
earlier in the registry wins and the finding says who else proposed what; the memory budget
then caps the buffer pool so the recommended configuration fits in usable memory.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable
from time import perf_counter
from typing import TYPE_CHECKING

from msgspec import Struct
from msgspec.structs import replace

from advisor.advisors import all_rules, precedence
from advisor.after_restart import with_the_file_at_restart
from advisor.catalog import Catalog, get_catalog
from advisor.context import AuditContext, Setting, read_log
from advisor.derived.engines import innodb_stays_off
from advisor.derived.inputs import missing_input_findings, missing_needs
from advisor.differ import render_recommendation
from advisor.dropin import render_dropin
from advisor.effective import build_effective_config
from advisor.errors import InputWarning, VersionUnknown
from advisor.figures import audit_figures
from advisor.findings import Finding
from advisor.inputs.optionfiles import OptionFileSet, groups_read
from advisor.inputs.statusvars import StatusView, VariablesDump, build_status_view
from advisor.live_sql import order_live_sql
from advisor.maximum_prefix import respect_set_caps
from advisor.model import AuditInputs, AuditResult, Drift, VersionSource
from advisor.persisted import with_persisted_values
from advisor.prepared import PreparedDumps, parse_dumps
from advisor.rules import Proposal, Rule
from advisor.secret_findings import keep_secrets_out
from advisor.sql import apply_sql, numeric_value, refused_at_runtime, same_spelling, same_value
from advisor.stored_value import stored_form
from advisor.version import ServerVersion, parse_version

if TYPE_CHECKING:
    from advisor.inputs.hardware import HardwareSpec
    from advisor.inputs.innodb_status import InnodbStatus
    from advisor.inputs.schema import SchemaFacts


class ParsedInputs(Struct, frozen=True):
    """Every input parsed, with the version settled and the warnings gathered."""

    version: ServerVersion
    version_source: VersionSource
    options: OptionFileSet | None
    variables: VariablesDump | None
    status: StatusView | None
    innodb: InnodbStatus | None
    schema: SchemaFacts | None
    hardware: HardwareSpec | None
    warnings: tuple[InputWarning, ...]
    #: the dumps as parsed, for a prepared form (advisor.prepared)
    dumps: PreparedDumps
    #: mysqld-auto.cnf's values (MySQL 8.0+), name → value; None when not given, empty when none
    persisted: dict[str, str] | None = None


def _version(
    inputs: AuditInputs, variables: VariablesDump | None, fallback: str | None
) -> tuple[ServerVersion, VersionSource]:
    """The version rule: given explicitly, else the dump's `version`, else the fallback."""
    if inputs.server_version:
        return parse_version(inputs.server_version), "given"
    if variables is not None and variables.get("version"):
        return parse_version(variables.get("version") or "", variables.get("version_comment")), "variables"
    if fallback:
        return parse_version(fallback), "fallback"
    raise VersionUnknown(
        "the server version is unknown: give --server-version or a SHOW GLOBAL VARIABLES dump with `version`"
    )


def _hardware(inputs: AuditInputs) -> HardwareSpec | None:
    """Hardware from JSON, each field a flag gives replaced by the flag's value; pydantic is imported
    only when there is hardware to read."""
    flagged = inputs.memory or inputs.cpus or inputs.storage or inputs.memory_limit
    if not (inputs.hardware or flagged):
        return None
    from advisor.inputs.hardware import hardware_from_flags, load_hardware, with_flags

    spec = load_hardware(inputs.hardware, inputs.hardware_name) if inputs.hardware else None
    if not flagged:
        return spec
    flags = hardware_from_flags(
        memory=inputs.memory, cpus=inputs.cpus, storage=inputs.storage, memory_limit=inputs.memory_limit
    )
    return with_flags(spec, flags)


def parse_inputs(
    inputs: AuditInputs, *, fallback_version: str | None = None, prepared: PreparedDumps | None = None
) -> ParsedInputs:
    """Parse everything (the dumps come `prepared` when a re-audit has them parsed already); the first
    bad input raises InputError naming its file and line."""
    dumps = prepared if prepared is not None else parse_dumps(inputs)
    variables = dumps.variables
    version, version_source = _version(inputs, variables, fallback_version)
    warnings: list[InputWarning] = list(variables.warnings) if variables is not None else []
    options = OptionFileSet.from_texts(dict(inputs.mycnf)) if inputs.mycnf else None
    if options is not None:
        warnings.extend(options.warnings)
    status = build_status_view(dumps.status) if dumps.status else None
    if status is not None:
        warnings.extend(status.warnings)
    for parsed in (dumps.innodb, dumps.schema):
        if parsed is not None:
            warnings.extend(parsed.warnings)
    persisted = _persisted(inputs, version, warnings)
    return ParsedInputs(
        version,
        version_source,
        options,
        variables,
        status,
        dumps.innodb,
        dumps.schema,
        _hardware(inputs),
        tuple(warnings),
        dumps,
        persisted,
    )


def _persisted(
    inputs: AuditInputs, version: ServerVersion, warnings: list[InputWarning]
) -> dict[str, str] | None:
    """The persisted values, parsed (InputError naming the file and line); only MySQL 8.0+ reads them."""
    if inputs.persisted is None:
        return None
    from advisor.inputs.persisted import parse_persisted

    parsed = parse_persisted(inputs.persisted, inputs.persisted_name)
    warnings.extend(parsed.warnings)
    if parsed.values and (version.is_mariadb or not version.at_least(8, 0)):
        warnings.append(
            InputWarning(
                f"ignored: {version.flavor} {version.raw} has no SET PERSIST, so nothing it reads is persisted",
                file=inputs.persisted_name,
            )
        )
        return {}
    return parsed.values


def build_context(parsed: ParsedInputs, inputs: AuditInputs, catalog: Catalog | None = None) -> AuditContext:
    """Merge defaults, the option files and live variables into one immutable context."""
    catalog = catalog or get_catalog()
    groups = groups_read(parsed.version)
    config = build_effective_config(
        catalog, parsed.version, parsed.options, groups, parsed.variables, parsed.status, parsed.persisted
    )
    return AuditContext(
        version=parsed.version,
        role=inputs.role,
        profile=inputs.profile,
        config=config,
        catalog=catalog,
        hardware=parsed.hardware,
        status=parsed.status,
        innodb=parsed.innodb,
        schema=parsed.schema,
        options=parsed.options,
        groups_read=groups,
    )


def _innodb_setting(variable: str | None) -> bool:
    return variable is not None and variable.startswith("innodb_")


def _complete(ctx: AuditContext, rule: Rule, proposal: Proposal) -> Finding | None:
    """Fill in current value, restart and live-apply facts; drop changes the version cannot take."""
    variable, recommended = proposal.variable, proposal.recommended
    if recommended is not None and _innodb_setting(variable) and innodb_stays_off(ctx):
        return None  # a server run without InnoDB on purpose (it starts so): InnoDB advice has no object
    current = ctx.config.text(variable) if variable else None
    restart: bool | None = None
    sql: str | None = None
    if variable and recommended is not None and proposal.change != "comment_out":
        if not ctx.knows(variable) and not proposal.correction:
            return None  # never recommend a variable the target version lacks (corrections were judged)
        unchanged = current is not None and same_value(
            ctx.catalog, ctx.version, variable, current, recommended
        )
        if unchanged and not proposal.correction:  # a correction rewrites a line commented out
            return None  # never recommend the value already in effect
        dynamic = ctx.knows(variable) and ctx.catalog.is_dynamic(variable, ctx.version)
        if dynamic and current is not None:  # 8.0.30+ innodb_doublewrite OFF ↔ ON: ERROR 1210 while running
            dynamic = not refused_at_runtime(ctx.catalog, ctx.version, variable, current, recommended)
        restart = not dynamic or proposal.at_start
        sql = apply_sql(ctx.catalog, ctx.version, variable, recommended) if not restart else None
    elif proposal.change == "comment_out":
        restart = True
    known = bool(variable) and ctx.knows(variable or "")
    current_value = numeric_value(ctx.catalog, ctx.version, variable, current) if known and variable else None
    recommended_value = (
        numeric_value(ctx.catalog, ctx.version, variable, recommended) if known and variable else None
    )
    if variable and current is not None and recommended is not None and known:
        current = same_spelling(ctx.catalog, ctx.version, variable, current, recommended)
    return Finding(
        advisor=rule.advisor,
        rule=rule.id,
        severity=proposal.severity or rule.severity,
        title=proposal.title,
        rationale=proposal.rationale,
        evidence=proposal.evidence,
        variable=variable,
        current=current,
        recommended=recommended,
        restart_required=restart,
        apply_sql=sql,
        references=references_for(ctx, rule.references),
        applies_to=rule.versions.describe(),
        change=proposal.change or ("set" if variable and recommended is not None else None),
        option_file=proposal.option_file,
        option_line=proposal.option_line,
        correction=proposal.correction,
        current_value=current_value,
        recommended_value=recommended_value,
    )


_SYSVAR_ANCHOR = re.compile(r"#(?:sysvar|option_mysqld)_([a-z0-9_-]+)$")


def references_for(ctx: AuditContext, references: tuple[str, ...]) -> tuple[str, ...]:
    """The rule's references for this target: on MariaDB its knowledge base first, and never a MySQL
    manual anchor for a variable this server lacks (`#sysvar_innodb_redo_log_capacity` on MariaDB)."""
    if not ctx.version.is_mariadb:
        return references
    kept = [url for url, variable in _anchored(references) if variable is None or ctx.knows(variable)]
    return tuple(sorted(kept, key=lambda url: "mariadb.com" not in url))


_ANCHORED: dict[tuple[str, ...], tuple[tuple[str, str | None], ...]] = {}


def _anchored(references: tuple[str, ...]) -> tuple[tuple[str, str | None], ...]:
    """Each reference with the variable its MySQL manual anchor names (None: no such anchor); a rule's
    references are fixed, so this is worked out once per rule and process."""
    found = _ANCHORED.get(references)
    if found is None:
        pairs = []
        for url in references:
            anchor = _SYSVAR_ANCHOR.search(url)
            variable = anchor.group(1).replace("-", "_") if anchor and "dev.mysql.com" in url else None
            pairs.append((url, variable))
        found = _ANCHORED[references] = tuple(pairs)
    return found


_RULES_FOR: dict[tuple[bool, tuple[int, int, int]], tuple[Rule, ...]] = {}


def rules_for(version: ServerVersion) -> tuple[Rule, ...]:
    """The registered rules that apply to `version`, in registry order (worked out once per flavor
    and version: a rule's versions depend on nothing else)."""
    key = (version.is_mariadb, version.key)
    found = _RULES_FOR.get(key)
    if found is None:
        if len(_RULES_FOR) > 1000:  # a long-lived worker sees many versions: stay bounded
            _RULES_FOR.clear()
        found = _RULES_FOR[key] = tuple(item for item in all_rules() if item.versions.includes(version))
    return found


def run_rules(
    ctx: AuditContext, rules: Iterable[Rule] | None = None, reads: dict[str, set[str] | None] | None = None
) -> list[Finding]:
    """Run each rule that applies to the version; collect completed findings. A rule that found
    nothing while an input it needs is missing is reported as not run (advisor.derived.inputs).
    `reads`, when given, gains the watched setting names each rule looked up (see ReadLog)."""
    findings: list[Finding] = []
    skipped: dict[str, list[str]] = {}
    log = read_log(ctx) if reads is not None else None
    applicable = (
        rules_for(ctx.version)
        if rules is None
        else [item for item in rules if item.versions.includes(ctx.version)]
    )
    for item in applicable:
        found = False
        outer = log.begin() if log is not None else None
        for proposal in item.check(ctx):
            found = True
            finding = _complete(ctx, item, proposal)
            if finding is not None:
                findings.append(finding)
        if log is not None and reads is not None:
            reads[item.id] = log.end(outer)
        if item.needs and not found:
            for need in missing_needs(ctx, item.needs):
                skipped.setdefault(need, []).append(item.id)
    return findings + missing_input_findings(skipped)


def settle_conflicts(findings: list[Finding]) -> list[Finding]:
    """One proposed value per variable: the earlier advisor in the registry wins, the rest defer; a
    correction of the user's own line (which keeps their value) defers to every other proposal.

    The winner is remembered as the very finding chosen, whatever order the losers come in: a loser
    listed before its winner must not make the winner look like a copy of itself."""
    winners: dict[str, Finding] = {}
    order = sorted(findings, key=lambda f: (f.correction, precedence(f.advisor), f.severity.rank))
    for finding in order:
        if finding.change == "set" and finding.variable and finding.variable not in winners:
            winners[finding.variable] = finding
    overruled: dict[str, list[str]] = {}
    settled: list[Finding] = []
    for finding in findings:
        winner = winners.get(finding.variable or "") if finding.change == "set" else None
        if winner is None or winner is finding:
            settled.append(finding)
        elif winner.recommended == finding.recommended:
            # The same change twice: keep this finding's evidence, let the winner carry the edit.
            note = f"The same change is proposed by {winner.rule}."
            settled.append(replace(finding, change=None, apply_sql=None, notes=(note,)))
        else:
            note = f"{finding.rule} proposed {finding.recommended}; {winner.rule} takes precedence."
            settled.append(replace(finding, change=None, recommended=None, apply_sql=None, notes=(note,)))
            overruled.setdefault(finding.variable or "", []).append(
                f"{finding.rule} proposed {finding.recommended}"
            )
    return [_with_settlement(finding, winners, overruled) for finding in settled]


def _with_settlement(
    finding: Finding, winners: dict[str, Finding], overruled: dict[str, list[str]]
) -> Finding:
    """The winner's rationale says once which other proposals it overruled."""
    variable = finding.variable or ""
    if winners.get(variable) is not finding or variable not in overruled:
        return finding
    others = "; ".join(overruled[variable])
    return replace(
        finding, rationale=f"{finding.rationale} (Settled: {others}; this recommendation takes precedence.)"
    )


def _secrets_warning(kept_out: tuple[str, ...]) -> tuple[InputWarning, ...]:
    """Say plainly that secret lines stay in the user's own files and out of what we hand back."""
    if not kept_out:
        return ()
    where = ", ".join(kept_out)
    return (
        InputWarning(
            f"your secrets stay where they are: the lines holding them ({where}) are never in the diff, "
            "and the recommended copies hold a comment in their place saying what to do with your line (keep "
            "it, or comment it out). Apply the diff to your own files, or copy those lines back as the "
            "comments say before you install a recommended copy."
        ),
    )


def _redacted(warning: InputWarning) -> InputWarning:
    """A warning may quote a line of an input: the value after a secret name never reaches the output."""
    from advisor.redact_inputs import redact_message

    message = redact_message(warning.message)
    return warning if message == warning.message else replace(warning, message=message)


def _against(ctx: AuditContext, finding: Finding, stored: Hashable) -> bool:
    """The finding advises against the file's value: comments its line out, or sets another value. One
    that changes nothing (buffer_pool.undersized held by memory, an overruled proposal) does not: review 7
    found the live SQL of a file's larger pool withheld, and "restart" claimed, for such a finding."""
    if finding.change == "comment_out":
        return True
    if finding.change is None or finding.recommended is None:
        return False
    return stored_form(ctx.catalog, ctx.version, finding.variable or "", finding.recommended) != stored


def _drift(ctx: AuditContext, setting: Setting, findings: list[Finding]) -> Drift:
    """The file's value not yet live, with the SQL that applies it when the variable is dynamic —
    none when a finding on that variable does not recommend the file's value: the value is refused
    or advised against (a file's `innodb_flush_log_at_trx_commit = 0`), and the finding has its own SQL;
    none either, with the reason, when the server could not run the file's value (a table_open_cache
    lowered to fit open_files_limit). The SQL sets the value the server stores (block sizes)."""
    name, value = setting.name, setting.restart_value  # the persisted value over the file's
    reason = ctx.config.drift_reasons.get(name)
    if reason is not None:
        return Drift(setting, reason=reason.text, restart=reason.restart)
    if value is None:
        return Drift(setting)
    dynamic = ctx.catalog.is_dynamic(name, ctx.version) if ctx.knows(name) else None
    if dynamic is None:  # a name outside the catalog: whether SET GLOBAL takes it is not on record
        return Drift(setting, restart=None)
    if not dynamic or (
        setting.live_value is not None
        and refused_at_runtime(ctx.catalog, ctx.version, name, setting.live_value, value)
    ):
        return Drift(setting)
    stored = stored_form(ctx.catalog, ctx.version, name, value)
    if stored is None or any(
        _against(ctx, finding, stored) for finding in findings if finding.variable == name
    ):
        return Drift(setting)  # None: no value of this variable, which SET GLOBAL refuses too
    try:
        return Drift(setting, apply_sql(ctx.catalog, ctx.version, name, value))
    except ValueError:
        return Drift(setting)


def audit(
    inputs: AuditInputs, timings: dict[str, float] | None = None, prepared: PreparedDumps | None = None
) -> AuditResult:
    """The whole offline audit; `timings` (when given) adds up seconds spent in "parse" and "rules";
    `prepared` dumps (advisor.prepared) stand in for the dump texts of `inputs`."""
    began = perf_counter()
    parsed = parse_inputs(inputs, prepared=prepared)
    parsed_at = perf_counter()
    ctx = build_context(parsed, inputs)
    reads: dict[str, set[str] | None] = {}
    found = run_rules(ctx, reads=reads if ctx.config.drift else None)
    found = with_the_file_at_restart(ctx, found, reads, run_rules)
    findings = respect_set_caps(ctx, settle_conflicts(found))
    findings = keep_secrets_out(ctx.options, with_persisted_values(ctx, order_live_sql(ctx, findings)))
    findings.sort(key=lambda f: (f.severity.rank, f.advisor, f.rule, f.variable or ""))
    recommendation = render_recommendation(ctx, findings)
    result = AuditResult(
        flavor=parsed.version.flavor,
        version=parsed.version.raw,
        findings=tuple(findings),
        diff=recommendation.diff,
        mycnf=recommendation.main_text,
        files=recommendation.files,
        dropin=render_dropin(ctx, findings),
        secrets_kept_out=recommendation.secrets_kept_out,
        warnings=(*map(_redacted, parsed.warnings), *_secrets_warning(recommendation.secrets_kept_out)),
        drift=tuple(_drift(ctx, setting, findings) for setting in ctx.config.drift),
        figures=audit_figures(ctx, findings).to_dict(),
    )
    if timings is not None:  # a measurement for the fleet bench, never an input to the audit
        timings["parse"] = timings.get("parse", 0.0) + parsed_at - began
        timings["rules"] = timings.get("rules", 0.0) + perf_counter() - parsed_at
    return result
