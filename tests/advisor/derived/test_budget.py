"""The memory budget and the buffer pool geometry, on the real MariaDB 10.11 sysbench snapshots."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.audit import AuditInputs
from advisor.context import AuditContext
from advisor.derived.budget import SERVER_OWN, memory_budget
from advisor.derived.pool_sizing import alignment_unit, pool_instances, pool_target, round_pool_bytes
from advisor.engine import build_context, parse_inputs
from advisor.units import MIB, describe_bytes
from tests.corpus import corpus_file

SYSBENCH = "mariadb-10.11-sysbench/s02_load_rw_default"


def _context(
    memory: str = "24G",
    server_version: str | None = None,
    mycnf: str | None = None,
    memory_limit: str | None = None,
    with_status: bool = True,
    cpus: int | None = None,
) -> AuditContext:
    statuses = (
        corpus_file(f"{SYSBENCH}.global_status.t20s.tsv").read_text(),
        corpus_file(f"{SYSBENCH}.global_status.tsv").read_text(),
    )
    inputs = AuditInputs(
        mycnf={"my.cnf": mycnf} if mycnf else {},
        variables=corpus_file(f"{SYSBENCH}.global_variables.tsv").read_text(),
        status=statuses if with_status else (),
        memory=memory,
        memory_limit=memory_limit,
        server_version=server_version,
        cpus=cpus,
    )
    return build_context(parse_inputs(inputs), inputs)


def test_budget_counts_the_real_servers_buffers() -> None:
    """Global and per-connection buffers are the dump's values; no binlog cache with log_bin OFF; one
    in-memory temporary table counted once among the global buffers, not per connection."""
    budget = memory_budget(_context())
    assert budget is not None
    assert {item.name: item.size_bytes for item in budget.global_items} == {
        "innodb_buffer_pool_size": 134217728,
        "innodb_log_buffer_size": 16777216,
        "key_buffer_size": 134217728,
        "query_cache_size": 1048576,
        "aria_pagecache_buffer_size": 134217728,
        "in-memory temporary table": 16777216,
    }
    per_connection = {item.name: item.size_bytes for item in budget.per_connection_items}
    assert per_connection == {
        "sort_buffer_size": 2097152,
        "join_buffer_size": 262144,
        "read_buffer_size": 131072,
        "read_rnd_buffer_size": 262144,
        "thread_stack": 299008,
    }
    assert budget.max_connections == 151
    assert budget.max_used_connections == 17
    assert budget.worst_case_bytes == 437256192 + 151 * 3051520
    assert budget.observed_peak_bytes == 437256192 + 17 * 3051520
    # 114 s of uptime: a high-water mark that has seen two minutes is weak evidence: 32 connections are
    # assumed busy (the CPUs unknown), the other 119 allowed ones open and idle at 384 KiB each
    assert (budget.sizing_connections, budget.idle_connections) == (32, 119)
    assert budget.realistic_peak_bytes == 437256192 + 32 * 3051520 + 119 * 384 * 1024


def test_container_limit_counts_the_server_and_keeps_five_percent() -> None:
    """In a 2 GiB container: no OS reserve, 95% of the limit, the server's own 128 MiB counted as a
    global item (on the 24 GiB host the OS reserve holds it and it is not an item)."""
    budget = memory_budget(_context("24G", memory_limit="2G"))
    assert budget is not None
    assert budget.limit_bytes == int(2048 * MIB * 0.95)
    assert "container limit" in budget.reserve_source
    assert {item.name: item.size_bytes for item in budget.global_items}[SERVER_OWN] == 128 * MIB
    host = memory_budget(_context("24G"))
    assert host is not None and SERVER_OWN not in {item.name for item in host.global_items}


def test_a_limit_above_the_host_memory_is_no_container() -> None:
    """A memory_limit above RAM does not bind: the host's reserve applies."""
    budget = memory_budget(_context("2G", memory_limit="8G"))
    assert budget is not None
    assert budget.limit_bytes == 2048 * MIB - 512 * MIB
    assert "for the OS" in budget.reserve_source


def test_connections_counted_follow_the_evidence() -> None:
    """Without status (or on a weak window) the busy connections are assumed from the CPUs — 8 per CPU,
    at least 16, 32 when unknown — and every other allowed one is counted idle; with a long uptime
    Max_used_connections × 1.5 count busy and none idle, unless FLUSH STATUS reset the high-water mark
    under an hour ago (weak evidence: the assumption again)."""
    blind = memory_budget(_context("24G", memory_limit="2G", with_status=False))
    assert blind is not None and (blind.sizing_connections, blind.idle_connections) == (32, 119)
    assert "without SHOW GLOBAL STATUS" in blind.sizing_connections_source
    assert "CPUs unknown" in blind.sizing_connections_source
    two = memory_budget(_context("24G", memory_limit="2G", with_status=False, cpus=2))
    assert two is not None and (two.sizing_connections, two.idle_connections) == (16, 135)
    many = memory_budget(_context("24G", with_status=False, cpus=64))
    assert many is not None and (many.sizing_connections, many.idle_connections) == (151, 0)  # capped
    day = "Variable_name\tValue\nUptime\t100000\nMax_used_connections\t17\n"
    inputs = AuditInputs(
        variables=corpus_file(f"{SYSBENCH}.global_variables.tsv").read_text(), status=(day,), memory="24G"
    )
    budget = memory_budget(build_context(parse_inputs(inputs), inputs))
    assert budget is not None and (budget.sizing_connections, budget.idle_connections) == (
        26,
        0,
    )  # ceil(17 × 1.5)
    flushed = f"{day}Uptime_since_flush_status\t600\n"  # the mark covers 10 minutes only
    inputs = AuditInputs(
        variables=corpus_file(f"{SYSBENCH}.global_variables.tsv").read_text(), status=(flushed,), memory="24G"
    )
    budget = memory_budget(build_context(parse_inputs(inputs), inputs))
    assert budget is not None and budget.sizing_connections == 32
    assert "since FLUSH STATUS 10.0 min ago — weak evidence" in budget.sizing_connections_source
    hours = f"{day}Uptime_since_flush_status\t7200\n"  # two hours since FLUSH STATUS: fair, the margin
    inputs = AuditInputs(
        variables=corpus_file(f"{SYSBENCH}.global_variables.tsv").read_text(), status=(hours,), memory="24G"
    )
    budget = memory_budget(build_context(parse_inputs(inputs), inputs))
    assert budget is not None and budget.sizing_connections == 26
    assert budget.sizing_connections_source == "Max_used_connections 17 × 1.5"


def test_workload_c_pool_matches_the_expert_and_fits() -> None:
    """bench workload c's inputs (2 GiB container, 2 CPUs, Max_used_connections 17 after 114 s of
    uptime): the memory cap is configuration plus hardware, so the pool is the expert's 1408M whether the
    peak is weak, a day old or missing — 17 (or 16 assumed) connections busy, the rest idle, within the
    limit. Measured (bench/server_memory.py --peak): 1,505 MiB resident at 16 busy + 135 idle, 1,728 MiB
    at 151 busy, in a 2 GiB cgroup. The worst case (every connection busy) stays beyond the limit, for
    memory.overcommitted only."""
    ctx = _context("24G", memory_limit="2G", cpus=2)
    target, budget = pool_target(ctx), memory_budget(ctx)
    assert target is not None and budget is not None
    assert target.size_bytes == 1408 * MIB
    assert target.size_bytes + budget.realistic_peak_bytes - budget.pool_bytes <= budget.limit_bytes
    assert target.size_bytes + budget.worst_case_bytes - budget.pool_bytes > budget.limit_bytes
    day = "Variable_name\tValue\nUptime\t100000\nMax_used_connections\t17\n"
    inputs = AuditInputs(
        variables=corpus_file(f"{SYSBENCH}.global_variables.tsv").read_text(),
        status=(day,),
        memory="24G",
        memory_limit="2G",
        cpus=2,
    )
    seen = pool_target(build_context(parse_inputs(inputs), inputs))
    assert seen is not None and seen.size_bytes == 1408 * MIB
    blind = pool_target(_context("24G", memory_limit="2G", with_status=False, cpus=2))
    assert blind is not None and blind.size_bytes == 1408 * MIB


@settings(max_examples=150, deadline=None)
@given(
    limit_mib=st.integers(min_value=1024, max_value=64 * 1024),
    max_used=st.integers(min_value=1, max_value=2000),
    sort_mib=st.integers(min_value=1, max_value=64),
    uptime=st.sampled_from([60, 7200, 200_000]),
)
def test_recommended_pool_never_pushes_the_realistic_peak_past_the_limit(
    limit_mib: int, max_used: int, sort_mib: int, uptime: int
) -> None:
    """Whatever the container limit, concurrency and buffers: the pool we recommend plus everything else
    at the connections counted stays within the limit — unless the other buffers alone leave the pool
    less than half its share, which the reasons then say (memory.overcommitted asks to bring them down)."""
    status = f"Variable_name\tValue\nUptime\t{uptime}\nMax_used_connections\t{max_used}\n"
    inputs = AuditInputs(
        mycnf={"my.cnf": f"[mariadb]\nmax_connections = 3000\nsort_buffer_size = {sort_mib}M\n"},
        server_version="10.11.19-MariaDB",
        status=(status,),
        memory="256G",
        memory_limit=f"{limit_mib}M",
    )
    ctx = build_context(parse_inputs(inputs), inputs)
    target, budget = pool_target(ctx), memory_budget(ctx)
    assert target is not None and budget is not None
    peak = target.size_bytes + budget.realistic_peak_bytes - budget.pool_bytes
    assert peak <= budget.limit_bytes or "too much to leave the pool a sensible share" in target.reasons


def test_limit_keeps_back_five_percent_or_a_gib() -> None:
    """24 GiB: the 95% share (22.8 GiB) is below memory less 1 GiB; 2 GiB: a quarter is kept back."""
    large, small = memory_budget(_context("24G")), memory_budget(_context("2G"))
    assert large is not None and small is not None
    assert large.limit_bytes == int(24 * 1024 * MIB * 0.95)
    assert small.limit_bytes == 2 * 1024 * MIB - 512 * MIB


def test_budget_needs_memory() -> None:
    """No hardware, no budget (and no memory-based sizing)."""
    inputs = AuditInputs(variables=corpus_file(f"{SYSBENCH}.global_variables.tsv").read_text())
    assert memory_budget(build_context(parse_inputs(inputs), inputs)) is None


def test_pool_target_for_the_sysbench_machine() -> None:
    """70% of 24 GiB is 16.8 GiB; in whole GiB from 8 GiB on: 16 GiB, the cap does not bite."""
    target = pool_target(_context())
    assert target is not None
    assert target.size_bytes == 16 * 1024 * MIB
    assert "memory caps" not in target.reasons


def test_mariadb_10_11_19_has_no_chunks_and_one_instance() -> None:
    """The dump shows innodb_buffer_pool_chunk_size 0 and 10.11.19 ignores it: nothing to align to."""
    ctx = _context()
    assert pool_instances(ctx, 16 * 1024 * MIB) == 1
    assert alignment_unit(ctx, 16 * 1024 * MIB) is None


BENCH_CNF = "realworld/mycnf/docularxu_sysbench-mysql-tests-scripts__mysqld.cnf"


def _bench_context() -> AuditContext:
    """A real MySQL 8.0 benchmark my.cnf: 150G pool in 16 instances, max_connections 2000."""
    inputs = AuditInputs(
        mycnf={"my.cnf": corpus_file(BENCH_CNF).read_text()}, server_version="8.0.36", memory="256G", cpus=64
    )
    return build_context(parse_inputs(inputs), inputs)


def test_sixteen_instances_align_to_two_gib() -> None:
    """16 instances × 128M chunks: 150G is a multiple of 2 GiB; pools under 1 GiB run one instance."""
    ctx = _bench_context()
    assert pool_instances(ctx, 150 * 1024 * MIB) == 16
    assert alignment_unit(ctx, 150 * 1024 * MIB) == 2048 * MIB
    assert pool_instances(ctx, 512 * MIB) == 1


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=128 * MIB, max_value=512 * 1024 * MIB))
def test_rounded_pool_sizes_are_aligned_and_never_above_target(target_bytes: int) -> None:
    """Every recommended size is a multiple of chunk × instances and exceeds the target only when the
    target is below one unit."""
    ctx = _bench_context()
    size = round_pool_bytes(ctx, target_bytes)
    unit = alignment_unit(ctx, size)
    assert unit is not None and size % unit == 0
    assert size <= target_bytes or size == unit


def test_describe_bytes() -> None:
    """Evidence reads like a person wrote it."""
    assert describe_bytes(24 * 1024 * MIB) == "24 GiB"
    assert describe_bytes(int(16.8 * 1024 * MIB)) == "16.8 GiB"
    assert describe_bytes(96 * MIB) == "96 MiB"
    assert describe_bytes(512) == "512 bytes"


def test_budget_is_computed_once_per_context() -> None:
    """Several rules ask for the budget: the same context gets the same object, a new one a new budget."""
    first = _context()
    assert memory_budget(first) is memory_budget(first)
    second = _context("2G")
    assert memory_budget(second) is not memory_budget(first)


@pytest.mark.parametrize(
    ("version", "connections", "mib"),
    [("10.11.19-MariaDB", 151, 93), ("10.11.19-MariaDB", 302, 93), ("10.11.19-MariaDB", 303, 135),
     ("5.7.42", 151, 131), ("8.0.46", 151, 218), ("8.4.3", 4000, 218)],
)  # fmt: skip
def test_the_performance_schema_counts_what_it_was_measured_to_take(
    version: str, connections: int, mib: int
) -> None:
    """Measured on private instances of the real binaries (advisor.derived.budget); on MariaDB only when on."""
    on = AuditInputs(
        mycnf={"my.cnf": f"[mysqld]\nperformance_schema = ON\nmax_connections = {connections}\n"},
        server_version=version,
        memory="16G",
    )
    budget = memory_budget(build_context(parse_inputs(on), on))
    assert budget is not None
    items = {item.name: item.size_bytes for item in budget.global_items}
    assert items["performance_schema"] == mib * MIB
    off = AuditInputs(
        mycnf={"my.cnf": "[mysqld]\nmax_connections = 151\n"}, server_version=version, memory="16G"
    )
    default = memory_budget(build_context(parse_inputs(off), off))
    assert default is not None
    # MySQL turns it on by default (5.6.6+), MariaDB does not
    assert ("performance_schema" in {item.name for item in default.global_items}) == (
        not version.endswith("MariaDB")
    )
