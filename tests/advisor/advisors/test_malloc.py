"""malloc on the real MariaDB 10.11 sysbench variables and status."""

from __future__ import annotations

from advisor.advisors import malloc
from advisor.audit import AuditInputs
from tests.advisor.advisors._audit import context
from tests.corpus import corpus_file

SYSBENCH = "mariadb-10.11-sysbench/s02_load_rw_default"


def _inputs(cpus: int) -> AuditInputs:
    return AuditInputs(
        variables=corpus_file(f"{SYSBENCH}.global_variables.tsv").read_text(),
        status=(
            corpus_file(f"{SYSBENCH}.global_status.t20s.tsv").read_text(),
            corpus_file(f"{SYSBENCH}.global_status.tsv").read_text(),
        ),
        cpus=cpus,
        memory="24G",
    )


def test_two_cores_are_too_few_to_matter() -> None:
    """The real 2-core server runs glibc malloc (version_malloc_library = system): quiet."""
    ctx = context(_inputs(cpus=2))
    assert ctx.config.text("version_malloc_library") == "system"
    assert list(malloc.allocator.check(ctx)) == []


def test_busy_many_core_server_on_glibc() -> None:
    """The same dumps on 32 CPUs with the concurrency threshold lowered to the real 11 running threads."""
    from msgspec.structs import replace

    from advisor.thresholds import THRESHOLDS

    ctx = context(_inputs(cpus=32))
    busy = replace(THRESHOLDS, malloc=replace(THRESHOLDS.malloc, min_threads_running=11))
    (proposal,) = malloc.allocator.check(replace(ctx, thresholds=busy))
    assert proposal.severity is None  # the rule's own severity: notice
    assert [e.value for e in proposal.evidence] == ["32", "11", "system"]
    assert proposal.variable is None  # nothing is written to the option file
