"""Cursors round-trip (created_at, id); anything else is refused as invalid input."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.errors import InvalidInput
from services.pagination import check_limit, decode_cursor, encode_cursor


def test_cursor_round_trip_normalises_to_utc() -> None:
    """A cursor decodes to the same instant (in UTC) and id; a naive time is taken as UTC (SQLite)."""
    moment = datetime(2026, 11, 23, 12, 0, 0, 123456, tzinfo=timezone(timedelta(hours=2)))
    assert decode_cursor(encode_cursor(moment, "abc")) == (moment, "abc")
    naive = datetime(2026, 11, 23, 10, 0)
    assert decode_cursor(encode_cursor(naive, "x"))[0] == naive.replace(tzinfo=UTC)


@pytest.mark.parametrize("garbage", ["", "!!!", "bm90IGEgY3Vyc29y", "MjAyNi0xMS0yM3w", "x" * 500])
def test_garbage_cursor_is_invalid_input(garbage: str) -> None:
    """A cursor this module did not make is InvalidInput (the API answers 400), never another error."""
    with pytest.raises(InvalidInput):
        decode_cursor(garbage)


@given(st.text(max_size=80))
def test_arbitrary_cursor_text_raises_only_invalid_input(text: str) -> None:
    """Whatever the text, decoding returns a cursor or raises InvalidInput."""
    try:
        created_at, row_id = decode_cursor(text)
    except InvalidInput as exc:
        assert exc.detail.startswith("invalid cursor")
    else:
        assert created_at.tzinfo is not None and row_id


def test_limit_bounds() -> None:
    """Page sizes run from 1 to 200."""
    assert check_limit(1) == 1 and check_limit(200) == 200
    for bad in (0, -1, 201):
        with pytest.raises(InvalidInput):
            check_limit(bad)
