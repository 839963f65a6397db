"""config_validity on real option files from the corpus: what each version refuses, ignores or never reads."""

from __future__ import annotations

import glob
from pathlib import Path

import pytest

from advisor.advisors import config_validity
from advisor.audit import AuditInputs
from advisor.errors import InputError
from tests.advisor.advisors._audit import context
from tests.corpus import CORPUS, corpus_file

OLD_DEBIAN = "realworld/mycnf/MakeYourLaws_MakeYourServers__etc-mysql__my.cnf"
VITESS_MARIADB = "realworld/mycnf/vitessio_vitess__mariadb104.cnf"
MYSQL80_TUNED = "realworld/mycnf/liuxinwang_install_mysql__my80.cnf"


def _run(relative: str, version: str) -> dict[str, list[tuple[str | None, int | None, str | None]]]:
    ctx = context(AuditInputs(mycnf={"my.cnf": corpus_file(relative).read_text()}, server_version=version))
    found: dict[str, list[tuple[str | None, int | None, str | None]]] = {}
    for item in config_validity.RULES:
        for proposal in item.check(ctx):
            found.setdefault(item.id.split(".")[1], []).append(
                (proposal.variable, proposal.option_line, proposal.change)
            )
    return found


def test_mysql56_file_on_mysql80_names_every_refused_line() -> None:
    """Real 5.5/5.6 file on 8.0.36: seven lines stop the server, each commented out at its own line."""
    found = _run(OLD_DEBIAN, "8.0.36")
    assert sorted(found["refused_option"], key=lambda item: (item[0] or "", item[1] or 0)) == [
        ("innodb_additional_mem_pool_size", 55, "comment_out"),
        ("innodb_file_format", 71, "comment_out"),
        ("query_cache_limit", 116, "comment_out"),
        ("query_cache_size", 52, "comment_out"),
        ("query_cache_size", 117, "comment_out"),
        ("secure_auth", 172, "comment_out"),
        ("thread_concurrency", 53, "comment_out"),
    ]
    assert sorted(v or "" for v, _, _ in found["misplaced_option"]) == [
        "character_set_server",
        "default_time_zone",
    ]
    assert "duplicate_option" not in found  # query_cache_size twice, but both lines are refused anyway


def test_same_file_on_mariadb1011_matches_mariadbd() -> None:
    """On MariaDB 10.11 only innodb_additional_mem_pool_size is refused; three lines are accepted and ignored
    (what mariadbd 10.11.19 itself reports for this file)."""
    found = _run(OLD_DEBIAN, "10.11.19-MariaDB")
    assert [v for v, _, _ in found["refused_option"]] == ["innodb_additional_mem_pool_size"]
    assert sorted(v or "" for v, _, _ in found["ignored_option"]) == [
        "innodb_file_format",
        "innodb_thread_concurrency",
        "thread_concurrency",
    ]
    assert found["duplicate_option"] == [("query_cache_size", None, None)]


def test_vitess_fragment_duplicates_are_information() -> None:
    """Real vitess MariaDB fragment (options before any group, read non-strictly by wrapping it in [mysqld])."""
    text = "[mysqld]\n" + corpus_file(VITESS_MARIADB).read_text()
    ctx = context(AuditInputs(mycnf={"my.cnf": text}, server_version="10.4.32-MariaDB"))
    duplicates = list(config_validity.duplicate_option.check(ctx))
    assert sorted(p.variable or "" for p in duplicates) == [
        "character_set_server",
        "collation_server",
        "expire_logs_days",
    ]
    assert all(p.severity is not None and p.severity.value == "info" for p in duplicates)
    assert list(config_validity.refused_option.check(ctx)) == []


def test_mysql80_file_is_read_by_mysql80() -> None:
    """A real tuned MySQL 8.0 file audited as 8.0.36 has no line the server would refuse."""
    found = _run(MYSQL80_TUNED, "8.0.36")
    assert "refused_option" not in found
    assert "invalid_value" not in found


@pytest.mark.parametrize(
    "version", ["5.1.73", "5.7.44", "8.0.36", "8.4.0", "10.4.32-MariaDB", "11.4.2-MariaDB"]
)
def test_every_corpus_option_file_is_classified(version: str) -> None:
    """No corpus file the parser accepts makes a rule fail; every comment-out names its file and line."""
    paths = sorted(glob.glob(str(CORPUS / "realworld/mycnf/*"))) + sorted(
        glob.glob(str(CORPUS / "percona-toolkit/**/*.cnf"), recursive=True)
    )
    assert len(paths) > 50
    for path in paths:
        try:
            text = Path(path).read_text(encoding="utf-8")
            ctx = context(AuditInputs(mycnf={"my.cnf": text}, server_version=version))
        except (InputError, UnicodeDecodeError):
            continue
        for item in config_validity.RULES:
            for proposal in item.check(ctx):
                assert proposal.title and proposal.rationale and proposal.evidence, (path, item.id)
                if proposal.change == "comment_out":
                    assert proposal.option_file == "my.cnf" and proposal.option_line, (path, item.id)
