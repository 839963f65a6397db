"""Numbers as my_getopt reads them: strtoll/strtoull, one suffix letter, then range and block size.

Observed on mariadbd 10.11.19: only the first character after the digits is looked at (K M G T P E,
either case), so ``1KB`` and ``1GiB`` pass while ``1.5G`` (suffix '.'), ``ON`` (suffix 'O') and
``0x10`` (suffix 'x') are refused; ``1e`` is 1 exa; a leading '-' on an unsigned option is refused;
a value past the 64-bit range is refused; out-of-range values are clamped with a warning and block
sizes round down silently.
"""

from __future__ import annotations

import re

from msgspec import Struct

from advisor.optioncheck.model import OptionFacts

SUFFIX_SHIFT = {"k": 10, "m": 20, "g": 30, "t": 40, "p": 50, "e": 60}
LEADING_INTEGER = re.compile(r"\s*([+-]?)(\d+)")
DECIMAL = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
SIZE_WITH_FRACTION = re.compile(r"\s*(\d*\.\d+)\s*([kmgtpeKMGTPE])\w*\s*")
UINT64 = 1 << 64
INT64_MAX = (1 << 63) - 1
TYPE_CEILING = {"uint": (1 << 32) - 1, "int": (1 << 31) - 1}
UNITS = ("", "K", "M", "G", "T", "P", "E")


class Parsed(Struct, frozen=True):
    """A parsed number: `error` set when the server refuses it, else `value` and any adjustment."""

    value: int | float | None
    error: str | None = None
    adjusted_from: int | float | None = None
    rounded: bool = False


def parse_integer(text: str, facts: OptionFacts) -> Parsed:
    """The value an integer option gets from `text`, or the server's reason for refusing it."""
    if facts.unsigned and text.startswith("-"):
        return Parsed(None, f"a negative number for an unsigned option ('{text}')")
    match = LEADING_INTEGER.match(text)
    if match is None:
        number, rest = 0, text  # strtoll converted nothing: the suffix check sees the first character
    else:
        number = int(match.group(1) + match.group(2))
        rest = text[match.end() :]
        limit_low, limit_high = (0, UINT64 - 1) if facts.unsigned else (-INT64_MAX - 1, INT64_MAX)
        if not limit_low <= number <= limit_high and not (facts.unsigned and number < 0):
            return Parsed(None, f"'{text}' is past the 64-bit integer range")
    if rest:
        shift = SUFFIX_SHIFT.get(rest[0].lower())
        if shift is None:
            return Parsed(None, f"unknown suffix '{rest[0]}' in '{text}' (the server knows K, M, G, T, P, E)")
        number <<= shift
    number %= UINT64  # the multiplication wraps as in C
    if not facts.unsigned and number > INT64_MAX:
        number -= UINT64
    return limit_integer(number, facts)


def limit_integer(number: int, facts: OptionFacts) -> Parsed:
    """getopt_(u)ll_limit_value: clamp to the maximum, round down to the block, raise to the minimum."""
    original = number
    adjusted = False
    maximum = facts.max if isinstance(facts.max, int) else None
    if maximum and number > 0 and number > maximum:
        number, adjusted = maximum, True
    ceiling = TYPE_CEILING.get(facts.type)
    if ceiling is not None and number > ceiling:
        number, adjusted = ceiling, True
    block = facts.block or 1
    rounded = False
    if block > 1:
        floored = (number // block) * block if number >= 0 else -((-number) // block) * block
        rounded, number = floored != number, floored
    minimum = facts.min if isinstance(facts.min, int) else None
    if minimum is not None and number < minimum:
        number = minimum
        adjusted = adjusted or original < minimum
    return Parsed(number, None, original if adjusted else None, rounded and not adjusted)


def parse_double(text: str, facts: OptionFacts) -> Parsed:
    """my_strtod must consume the whole value; then clamp to [min, max] with a warning."""
    if text.strip() == "":
        number = 0.0
    elif DECIMAL.fullmatch(text):
        number = float(text)
    else:
        return Parsed(None, f"'{text}' is not a decimal number (no unit suffixes here)")
    low = float(facts.min) if facts.min is not None else None
    high = float(facts.max) if facts.max is not None else None
    if high is not None and number > high:
        return Parsed(high, None, number)
    if low is not None and number < low:
        return Parsed(low, None, number)
    return Parsed(number)


SPACED_SIZE = re.compile(r"\s*(\d+)\s+([kmgtpeKMGTPE])(?:i?[bB])?\s*")
SECONDS = re.compile(r"\s*(\d+)\s*(?:s|secs?|seconds?)\s*", re.IGNORECASE)
# Options whose number is a count of seconds, by name (the option data carries no units).
_SECONDS_NAME = re.compile(r".*(?:_timeout|_time|_seconds|_secs)$")


def spaced_size(text: str) -> str | None:
    """`64 M`, `64 MB` → `64M`: a size whose unit is set apart (the server reads the blank as the suffix)."""
    match = SPACED_SIZE.fullmatch(text)
    return f"{match.group(1)}{match.group(2).upper()}" if match else None


def plain_seconds(name: str, text: str) -> str | None:
    """`28800s` → `28800` for an option counted in seconds (the server knows no time units)."""
    match = SECONDS.fullmatch(text) if _SECONDS_NAME.fullmatch(name) else None
    return match.group(1) if match else None


def whole_size(text: str) -> str | None:
    """`1.5G` → `1536M`: the same amount in the largest unit that keeps it whole, if there is one."""
    match = SIZE_WITH_FRACTION.fullmatch(text)
    if match is None:
        return None
    shift = SUFFIX_SHIFT[match.group(2).lower()]
    amount = float(match.group(1)) * (1 << shift)
    if not amount.is_integer() or amount <= 0:
        return None
    whole = int(amount)
    for index in range(len(UNITS) - 1, -1, -1):
        unit = 1 << (10 * index)
        if whole % unit == 0:
            return f"{whole // unit}{UNITS[index]}"
    return str(whole)
