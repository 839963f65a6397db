"""The memory advisor says which connection count and which limits its worst case assumed."""

from __future__ import annotations

from advisor.advisors.memory import overcommitted
from advisor.audit import AuditInputs
from tests.advisor.advisors._audit import context

CNF = "[mariadb]\ninnodb_buffer_pool_size = 4G\nmax_connections = 500\nsort_buffer_size = 8M\njoin_buffer_size = 8M\n"


def _rationale(status: tuple[str, ...] = ()) -> str:
    inputs = AuditInputs(mycnf={"my.cnf": CNF}, server_version="10.11.6-MariaDB", memory="8G", status=status)
    (proposal,) = overcommitted.check(context(inputs))
    return proposal.rationale


def test_rationale_names_max_connections_the_reserve_and_temp_tables_once() -> None:
    """Without status: the configured max_connections, the OS reserve, one temporary table."""
    text = _rationale()
    assert "max_connections=500 (the configured limit)" in text
    assert "kept back for the OS" in text
    assert "temporary tables counted once, not per connection" in text
    assert "in-memory temporary table 16 MiB" in text  # among the global buffers
    assert "Give SHOW GLOBAL STATUS" in text


def test_rationale_names_max_used_connections_when_status_is_given() -> None:
    """With status: the busiest moment seen, by its status variable."""
    status = ("Uptime\t100000\nMax_used_connections\t120\n", "Uptime\t100600\nMax_used_connections\t120\n")
    assert "120 connections seen at the busiest moment (Max_used_connections)" in _rationale(status)
