"""A MariaDB target's findings cite MariaDB's knowledge base first, and never the MySQL manual's entry
for a variable this MariaDB lacks."""

from __future__ import annotations

import re

from advisor.audit import AuditInputs, run_audit
from advisor.catalog import get_catalog
from advisor.engine import references_for
from advisor.model import Profile, Role
from advisor.version import parse_version
from tests.advisor.test_reaudit_truth import _text


def test_mariadb_findings_cite_the_knowledge_base_first() -> None:
    """The sysbench MariaDB 10.11 audit: wherever a rule has a MariaDB page, it comes first."""
    result = run_audit(
        AuditInputs(
            mycnf={"my.cnf": "[mysqld]\nlog-bin = mysql-bin\n"},
            variables=_text("global_variables.tsv"),
            status=(_text("global_status.t20s.tsv"), _text("global_status.tsv")),
            memory="24G",
            cpus=2,
            storage="ssd",
            role=Role.PRIMARY,
        )
    ).to_dict()
    assert result["findings"]
    for finding in result["findings"]:
        references = finding["references"]
        if any("mariadb.com" in url for url in references):
            assert "mariadb.com" in references[0], finding["rule"]
        io = [url for url in references if "innodb_io_capacity" in url]
        assert not io or "mariadb.com" in io[0]


def test_a_mysql_page_for_a_variable_mariadb_lacks_is_left_out() -> None:
    """innodb_redo_log_capacity (MySQL 8.0.30+) is no MariaDB variable: its manual anchor goes; MySQL
    targets keep every reference in the rule's order."""
    from advisor.context import AuditContext
    from advisor.effective import build_effective_config

    mysql_only = (
        "https://dev.mysql.com/doc/refman/8.0/en/innodb-parameters.html#sysvar_innodb_redo_log_capacity"
    )
    general = "https://dev.mysql.com/doc/refman/8.0/en/innodb-redo-log.html"
    kb = "https://mariadb.com/kb/en/innodb-redo-log/"
    catalog = get_catalog()
    for version, expected in (("10.11.6-MariaDB", (kb, general)), ("8.0.36", (mysql_only, general, kb))):
        parsed = parse_version(version)
        config = build_effective_config(catalog, parsed, None, (), None)
        ctx = AuditContext(
            version=parsed, role=Role.PRIMARY, profile=Profile.PRODUCTION, config=config, catalog=catalog
        )
        assert references_for(ctx, (mysql_only, general, kb)) == expected
        assert all(re.match(r"https://", url) for url in expected)
