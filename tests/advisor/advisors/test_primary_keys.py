"""primary_keys on the real sysbench schema facts and on tables without keys."""

from __future__ import annotations

from advisor.advisors import primary_keys
from advisor.audit import AuditInputs
from tests.advisor.advisors._audit import context
from tests.corpus import corpus_file

SYSBENCH = "mariadb-10.11-sysbench/s02_load_rw_default"


def test_sysbench_tables_all_have_keys() -> None:
    """The real query for tables without a key printed nothing at all (`mysql -B` prints no header for no
    rows): the audit has no schema facts from it, and all three rules stay quiet."""
    text = corpus_file(f"{SYSBENCH}.tables_without_pk_or_unique.tsv").read_text()
    assert text == ""
    ctx = context(AuditInputs(schema=text, server_version="10.11.19-MariaDB"))
    assert ctx.schema is None
    for item in primary_keys.RULES:
        assert list(item.check(ctx)) == [], item.id


def test_raw_tables_dump_says_nothing_about_keys() -> None:
    """A real information_schema.TABLES dump has no key columns: unknown keys are never called missing."""
    ctx = context(
        AuditInputs(schema=corpus_file(f"{SYSBENCH}.is_tables.tsv").read_text(), server_version="10.11.19")
    )
    assert ctx.schema is not None and any(t.table == "sbtest1" for t in ctx.schema.tables)
    assert list(primary_keys.missing.check(ctx)) == []


def test_keyless_tables_are_listed_largest_first_with_a_total() -> None:
    """Twelve keyless tables: ten named, largest first, and the rest counted."""
    tables = ",".join(
        f'{{"schema": "app", "table": "t{i}", "engine": "InnoDB", "rows": {i * 1000}, "data_length": 16384,'
        f' "index_length": 0, "has_primary_key": false, "has_unique_not_null": false}}'
        for i in range(1, 13)
    )
    ctx = context(AuditInputs(schema=f"[{tables}]", server_version="8.0.36", role="primary"))
    (proposal,) = primary_keys.missing.check(ctx)
    assert proposal.title == "12 InnoDB table(s) without a primary key"
    assert proposal.rationale.startswith("app.t12 (12,000 rows, 16K), app.t11 (11,000 rows, 16K)")
    assert "(and 2 more): 78,000 rows in all" in proposal.rationale
    assert len(proposal.evidence) == 10
    assert proposal.severity is not None and proposal.severity.value == "warning"
