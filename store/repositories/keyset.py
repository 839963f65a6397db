"""Keyset pagination over (created_at, id): stable under inserts, one index range scan per page."""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import Select, tuple_

Row = TypeVar("Row")

#: (created_at, id) of the last row of the previous page.
After = tuple[datetime, str]


def page_after(
    statement: Select[Row], model: Any, after: After | None, limit: int, *, newest: bool = False
) -> Select[Row]:
    """Restrict `statement` to rows after `after` — ascending, or descending with `newest` — fetching
    one extra row to tell if more follow."""
    key, mark = tuple_(model.created_at, model.id), None if after is None else tuple_(after[0], after[1])
    if newest:
        statement = statement.where(key < mark) if mark is not None else statement
        return statement.order_by(model.created_at.desc(), model.id.desc()).limit(limit + 1)
    statement = statement.where(key > mark) if mark is not None else statement
    return statement.order_by(model.created_at, model.id).limit(limit + 1)
