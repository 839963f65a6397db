"""A variables dump is complete only with the core names; status and variables given the wrong way
round are refused naming the file."""

from __future__ import annotations

import itertools
import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.errors import InputError
from advisor.inputs.listing_kind import (
    _COUNTER_RANGES,
    _STATUS_NAMES,
    _STATUS_PREFIXES,
    CORE_VARIABLES,
    _counter_count,
    _is_counter,
)
from advisor.inputs.statusvars import parse_status, parse_variables
from tests.advisor.inputs.test_statusvars_corpus import STATUS_FILES, VARIABLES_FILES
from tests.corpus import CORPUS, corpus_file

FULL = "mariadb-10.11-sysbench/s02_load_rw_default.global_variables.tsv"
STATUS = "mariadb-10.11-sysbench/s02_load_rw_default.global_status.tsv"
#: Status and variables one after the other: given as variables, the variables listing is read.
BOTH = "percona_percona-monitoring-plugins__status-variables-001.txt"
#: The corpus listings that are not a server's whole SHOW GLOBAL VARIABLES: mysql-test results of
#: `mysqld --help` (paths masked, no InnoDB options) and netdata's fixtures of a few rows.
EXCERPTS = frozenset(
    {
        "ltangvald_mysql__mysqld--help-notwin-5.7.result",
        "ottok_mariadb-10.1__mysqld--help-10.1.result",
        "netdata_go.d.plugin__mariadb-5.5.64__global_variables.txt",
        "netdata_go.d.plugin__mysql-8.0.30__global_variables.txt",
    }
)


def _rows(relative: str) -> list[str]:
    """The `name<TAB>value` rows of a -B dump, header dropped."""
    return corpus_file(relative).read_text().splitlines()[1:]


def _like(relative: str, keep: object) -> str:
    """What `SHOW GLOBAL VARIABLES LIKE ...` prints: the header and the rows whose name `keep` accepts."""
    rows = [row for row in _rows(relative) if keep(row.split("\t", 1)[0].lower())]  # type: ignore[operator]
    return "Variable_name\tValue\n" + "\n".join(rows) + "\n"


@pytest.mark.parametrize("path", VARIABLES_FILES, ids=lambda path: str(path.relative_to(CORPUS)))
def test_every_whole_corpus_dump_is_complete_and_every_excerpt_is_not(path: Path) -> None:
    """The core names are in every real full dump (MySQL 5.0 to 8.0, MariaDB 5.5 to 10.11, --help)."""
    dump = parse_variables(path.read_text(encoding="utf-8"), path.name)
    assert dump.complete is (path.name not in EXCERPTS)
    filtered = [warning for warning in dump.warnings if "looks like a filtered listing" in warning.message]
    assert bool(filtered) is (path.name in EXCERPTS)


def test_like_innodb_is_an_excerpt_with_a_warning_naming_the_file() -> None:
    """`LIKE 'innodb%'` is 142 rows on 10.11 (more than the old 100-name bar): an excerpt, said so."""
    dump = parse_variables(_like(FULL, lambda name: name.startswith("innodb")), "like.tsv")
    assert len(dump.values) > 100
    assert not dump.complete
    (warning,) = dump.warnings
    assert warning.file == "like.tsv"
    assert warning.message.startswith("looks like a filtered listing: ")
    assert "version" in warning.message


@pytest.mark.parametrize("char", sorted(set(string.ascii_lowercase + string.digits + "_")))
def test_no_single_like_pattern_passes_for_complete(char: str) -> None:
    """`LIKE '%c%'` and `LIKE 'c%'` for every character c: none holds all the core names."""
    for keep in (lambda name: char in name, lambda name: name.startswith(char)):
        text = _like(FULL, keep)
        if text.count("\t") > 1:  # no row at all (only the header) is refused as empty
            assert not parse_variables(text, "like.tsv").complete


def test_the_full_dump_is_complete_without_a_warning() -> None:
    dump = parse_variables(corpus_file(FULL).read_text(), "full.tsv")
    assert dump.complete and dump.warnings == ()


@pytest.mark.parametrize("path", STATUS_FILES, ids=lambda path: str(path.relative_to(CORPUS)))
def test_status_given_as_variables_is_refused_naming_the_file(path: Path) -> None:
    """Every status dump of the corpus, given as variables: an InputError, not a quiet audit."""
    if path.name == BOTH:
        assert parse_variables(path.read_text(encoding="utf-8"), path.name).complete
        return
    with pytest.raises(InputError) as caught:
        parse_variables(path.read_text(encoding="utf-8"), path.name)
    assert caught.value.file == path.name
    assert "SHOW GLOBAL STATUS" in caught.value.message


# Excerpts (a few rows, or a --help with its paths masked) cannot be told from status by their names.
WHOLE_VARIABLES_FILES = [path for path in VARIABLES_FILES if path.name not in EXCERPTS]


@pytest.mark.parametrize("path", WHOLE_VARIABLES_FILES, ids=lambda path: str(path.relative_to(CORPUS)))
def test_variables_given_as_status_are_refused_naming_the_file(path: Path) -> None:
    """Every whole variables dump of the corpus, given as status, is refused (--help had its own error)."""
    with pytest.raises(InputError) as caught:
        parse_status(path.read_text(encoding="utf-8"), path.name)
    assert caught.value.file == path.name


def test_status_like_innodb_given_as_variables_is_refused() -> None:
    """`SHOW GLOBAL STATUS LIKE 'innodb%'` is mostly counters too."""
    text = _like(STATUS, lambda name: name.startswith("innodb"))
    with pytest.raises(InputError, match="SHOW GLOBAL STATUS"):
        parse_variables(text, "innodb_status_like.tsv")


_NAME_PARTS = st.sampled_from(
    [*_STATUS_PREFIXES, *_STATUS_NAMES, *CORE_VARIABLES, "", "_", "a", "z", "x_y", "\x00", "é", "~"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.builds(lambda *parts: "".join(parts), _NAME_PARTS, _NAME_PARTS, _NAME_PARTS), max_size=40))
def test_counters_counted_by_ranges_are_the_names_that_are_counters(names: list[str]) -> None:
    """Bisecting the sorted names counts exactly the names that are a status name or start with a
    counter prefix, each once (a name given twice twice), whatever their order."""
    assert _counter_count(names) == sum(1 for name in names if _is_counter(name))
    assert _counter_count(list(reversed(names))) == _counter_count(names)


def test_the_counter_ranges_do_not_overlap() -> None:
    """No name falls in two ranges: a prefix that extends another, or a status name under a prefix,
    would be counted twice."""
    ranges = sorted(_COUNTER_RANGES)
    assert all(high <= next_low for (_, high), (next_low, _) in itertools.pairwise(ranges))
