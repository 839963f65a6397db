"""Option names as the server matches them: dashes, case, `loose-` and the special prefixes."""

from __future__ import annotations

import pytest

from advisor.inputs.optionnames import split_option_name


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("innodb-buffer-pool-size", ("innodb_buffer_pool_size", None, False)),
        ("Innodb_Buffer_Pool_Size", ("innodb_buffer_pool_size", None, False)),
        ("loose-innodb_buffer_pool_size", ("innodb_buffer_pool_size", None, True)),
        ("loose_rpl_semi_sync_source_timeout", ("rpl_semi_sync_source_timeout", None, True)),
        ("skip-log-bin", ("log_bin", "skip", False)),
        ("skip_innodb", ("innodb", "skip", False)),
        ("loose-skip-innodb", ("innodb", "skip", True)),
        ("disable-log-bin", ("log_bin", "disable", False)),
        ("enable-performance-schema", ("performance_schema", "enable", False)),
        ("loose-enable-performance-schema", ("performance_schema", "enable", True)),
        ("maximum-sort_buffer_size", ("sort_buffer_size", "maximum", False)),
        ("autoset-innodb_buffer_pool_chunk_size", ("innodb_buffer_pool_chunk_size", "autoset", False)),
        # options whose own name starts with a prefix word: found by full name first
        ("skip-name-resolve", ("skip_name_resolve", None, False)),
        ("skip_networking", ("skip_networking", None, False)),
        ("skip-external-locking", ("skip_external_locking", None, False)),
        ("skip-slave-start", ("skip_slave_start", None, False)),
        ("skip-grant-tables", ("skip_grant_tables", None, False)),
        ("loose-skip-name-resolve", ("skip_name_resolve", None, True)),
        # a prefix word alone, or glued without separator, is just a name
        ("skip", ("skip", None, False)),
        ("skipper", ("skipper", None, False)),
        ("set-variable", ("set_variable", None, False)),
        ("mysqld.1.port", ("mysqld.1.port", None, False)),
    ],
)
def test_names_normalise_like_the_server(raw: str, expected: tuple[str, str | None, bool]) -> None:
    """Dashes are underscores, case is folded, `loose-` is noted and prefixes are stripped unless real."""
    assert split_option_name(raw) == expected


@pytest.mark.parametrize("raw", ["", "--port", "two words", "a=b", "loose-", "-x", "name!"])
def test_text_that_cannot_be_a_name(raw: str) -> None:
    """Empty, dashed command-line spellings and prose are not option names."""
    assert split_option_name(raw) is None
