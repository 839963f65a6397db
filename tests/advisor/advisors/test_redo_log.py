"""redo_log: redo and pool advice agree across every case; the manual resize procedure by version."""

from __future__ import annotations

import pytest

from advisor.advisors.redo_log.common import needs_manual_resize
from advisor.after_restart import file_context
from advisor.audit import AuditInputs, run_audit
from advisor.derived.budget import effective_pool_bytes
from advisor.derived.io_sizing import percentage
from advisor.thresholds import THRESHOLDS
from tests.advisor.advisors._audit import context
from tests.advisor.case_files import Case, load_cases

CASES = [case for case in load_cases() if not case.id.startswith("config_validity/")]


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_recommended_redo_never_outgrows_the_recommended_pool(case: Case) -> None:
    """Engine-level agreement: the redo recommended fits in twice what the pool that will run (recommended
    or in effect at the next restart) may hold dirty — or is the minimum, or the BLOB limit's need."""
    inputs = case.inputs
    result = run_audit(inputs)
    redo = result.figures.get("recommended_redo_capacity_bytes")
    if not redo or any(f.rule == "redo_log.blob_too_large" for f in result.findings):
        return
    ctx = context(inputs)
    # the pool that will run: the recommended one, else the one in effect after the restart (the file's
    # value where the file departs from the running server: the file we hand back is what runs next)
    pool = result.figures.get("recommended_buffer_pool_bytes") or effective_pool_bytes(
        file_context(ctx) or ctx
    )
    assert pool is not None
    dirty_pct = percentage(ctx.config.text("innodb_max_dirty_pages_pct")) or 90.0
    limits = THRESHOLDS.redo_log
    bound = max(int(pool * dirty_pct / 100 * limits.redo_per_dirty_byte), limits.min_capacity_bytes)
    assert redo <= -(-bound // limits.size_step_bytes) * limits.size_step_bytes


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_redo_rules_never_pull_against_each_other(case: Case) -> None:
    """Growing and shrinking rules never both fire, and every redo finding proposes the same size."""
    result = run_audit(case.inputs)
    redo = [f for f in result.findings if f.rule.startswith("redo_log.") and f.recommended]
    sizes = {f.recommended for f in redo if f.rule != "redo_log.log_waits"}
    assert len(sizes) <= 1, sizes
    rules = {f.rule for f in redo}
    assert not (
        "redo_log.oversized" in rules and rules & {"redo_log.undersized", "redo_log.checkpoint_age_high"}
    )


@pytest.mark.parametrize(
    ("version", "manual"),
    [
        ("5.5.62", True),
        ("5.6.7", True),
        ("5.6.8", False),
        ("8.0.36", False),
        ("5.5.68-MariaDB", True),
        ("10.0.38-MariaDB", False),
        ("10.11.6-MariaDB", False),
    ],
)
def test_manual_resize_before_mysql_568_and_mariadb_100(version: str, manual: bool) -> None:
    """MySQL before 5.6.8 and MariaDB before 10.0 do not resize ib_logfile* at startup (MariaDB commit
    2cc360bdf2: "Ever since MariaDB 10.0 (and MySQL 5.6.8) ... resized on server startup")."""
    assert needs_manual_resize(context(AuditInputs(server_version=version))) is manual
