"""Numbers as the server stores them: the text of a value read as an exact number, rounded to a block size."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from advisor.catalog import VariableFacts
from advisor.units import parse_size

_DECIMAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def unquoted(value: str) -> str:
    """The text without surrounding blanks and quotes."""
    return value.strip().strip("'\"").strip()


def number(text: str) -> Decimal | None:
    """`2`, `2.000000`, `1000M`, `1.5G` as an exact number; None when the text is no number."""
    bare = unquoted(text)
    size = parse_size(bare)
    if size is not None:
        return Decimal(size)
    if _DECIMAL.fullmatch(bare) is None:
        return None
    try:
        return Decimal(bare)
    except InvalidOperation:  # pragma: no cover - the pattern admits only numbers
        return None


def round_to_block(facts: VariableFacts | None, value: Decimal, block: int | None = None) -> Decimal:
    """Rounded down to the block size, as the server does in an option file and in SET GLOBAL alike
    (`block` stands in when the catalog does not know the variable)."""
    block = facts.block_size if facts is not None else block
    if block is None or value != value.to_integral_value() or value < 0:
        return value
    return Decimal(int(value) // block * block)
