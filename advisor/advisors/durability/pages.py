"""Pages that survive a torn write or silent corruption: the doublewrite buffer and page checksums."""

from __future__ import annotations

from collections.abc import Iterator

from advisor.advisors.durability.common import relaxed_for_role
from advisor.context import AuditContext
from advisor.derived.settings import setting_evidence
from advisor.findings import Severity
from advisor.model import Profile
from advisor.references import MARIADB_INNODB_VARIABLES, MYSQL_INNODB_PARAMETERS
from advisor.rules import Proposal, rule
from advisor.units import parse_bool

_NO_CHECKSUM = frozenset({"none", "strict_none"})


@rule(
    "durability.doublewrite_off",
    Severity.WARNING,
    [
        "https://dev.mysql.com/doc/refman/8.0/en/innodb-doublewrite-buffer.html",
        f"{MARIADB_INNODB_VARIABLES}#innodb_doublewrite",
    ],
)
def doublewrite_off(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: production servers with innodb_doublewrite=OFF (or DETECT_ONLY, MySQL 8.0.30+).

    Why it matters: a crash in the middle of a 16 KiB page write leaves a torn page that the redo log
    cannot repair; InnoDB then refuses to start or the table must be restored from backup.

    What we recommend: ON.

    Caveats: storage with atomic 16 KiB writes (ZFS, some NVMe/FusionIO devices) makes it redundant;
    we cannot see the file system. On a replica a torn page means a rebuild (notice). Before MySQL
    8.0.30 and on MariaDB the variable is not dynamic: the change waits for a restart.
    """
    setting = ctx.config.get("innodb_doublewrite")
    if ctx.profile == Profile.CI or setting is None:
        return
    value = setting.value.strip().upper()
    if parse_bool(value) is not False and value != "DETECT_ONLY":
        return
    yield Proposal(
        title="The doublewrite buffer is off: a torn page cannot be repaired",
        rationale="If the server or machine dies while writing a page, half of it is old and half new; "
        "without the doublewrite copy InnoDB cannot rebuild it and stops with a corruption error. "
        "The table must then be restored from backup (a replica rebuilt).",
        evidence=(setting_evidence(setting),),
        variable="innodb_doublewrite",
        recommended="ON",
        severity=relaxed_for_role(ctx),
    )


def _checksum_target(ctx: AuditContext) -> str:
    """The algorithm to recommend instead of none: the version's own default family."""
    if ctx.version.is_mariadb and ctx.version.at_least(10, 5):
        return "full_crc32"
    return "crc32"


def _algorithm_off(ctx: AuditContext) -> Proposal | None:
    """innodb_checksum_algorithm none/strict_none, where this version accepts the value at all."""
    setting = ctx.config.get("innodb_checksum_algorithm") if ctx.knows("innodb_checksum_algorithm") else None
    facts = ctx.catalog.lookup("innodb_checksum_algorithm", ctx.version)
    value = setting.value.strip().lower() if setting is not None else ""
    if setting is None or value not in _NO_CHECKSUM or facts is None or value not in (facts.values or ()):
        return None
    return Proposal(
        title="InnoDB page checksums are disabled",
        rationale="Pages are written without a checksum, so a corrupted page is read as valid "
        "and its damage spreads silently into results, replicas and backups.",
        evidence=(setting_evidence(setting),),
        variable="innodb_checksum_algorithm",
        recommended=_checksum_target(ctx),
    )


@rule(
    "durability.checksums_off",
    Severity.WARNING,
    [
        f"{MYSQL_INNODB_PARAMETERS}#sysvar_innodb_checksum_algorithm",
        "https://dev.mysql.com/doc/refman/5.7/en/innodb-parameters.html#sysvar_innodb_checksums",
        f"{MARIADB_INNODB_VARIABLES}#innodb_checksum_algorithm",
    ],
)
def checksums_off(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: page checksums switched off (innodb_checksum_algorithm none/strict_none where the
    version accepts it, innodb_checksums=OFF before MySQL 8.0 / MariaDB 10.3) or redo log checksums off
    (innodb_log_checksums=OFF, MySQL 5.7.9+, MariaDB 10.2–10.4).

    Why it matters: without checksums a page damaged by the disk, the controller or a torn write is
    read as if it were good: wrong results and corruption spread silently, including into backups.

    What we recommend: crc32 (full_crc32 on MariaDB 10.5+), innodb_checksums=ON, innodb_log_checksums=ON.

    Caveats: the change applies as pages are rewritten. A value the version rejects (none on MariaDB
    10.6+) is config_validity's finding. Quiet in the ci profile.
    """
    if ctx.profile == Profile.CI:
        return
    algorithm = _algorithm_off(ctx)
    if algorithm is not None:
        yield algorithm
    for name, what in (("innodb_checksums", "page"), ("innodb_log_checksums", "redo log")):
        setting = ctx.config.get(name) if ctx.knows(name) else None
        facts = ctx.catalog.lookup(name, ctx.version)
        if setting is None or (facts is not None and facts.ignored) or parse_bool(setting.value) is not False:
            continue
        yield Proposal(
            title=f"InnoDB {what} checksums are disabled",
            rationale=f"With {name}=OFF a damaged {what} block is not detected: recovery or reads use "
            "corrupt data without an error.",
            evidence=(setting_evidence(setting),),
            variable=name,
            recommended="ON",
        )
