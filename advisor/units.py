"""Server-style values: sizes with K/M/G/T/P/E suffixes and booleans in every spelling; bytes for people."""

from __future__ import annotations

import re
from functools import lru_cache

_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kKmMgGtTpPeE])?[bB]?\s*$")
_SUFFIX_POWER = {"k": 1, "m": 2, "g": 3, "t": 4, "p": 5, "e": 6}

KIB = 1024
MIB = 1024**2
GIB = 1024**3

TRUE_WORDS = frozenset({"1", "on", "true", "yes", "enable", "enabled", "force"})
FALSE_WORDS = frozenset({"0", "off", "false", "no", "disable", "disabled"})


#: a few more digits than 2**64 has, so a typo'd zero is still read; 400 digits is no size.
MAX_SIZE_DIGITS = 24


def parse_size(text: str, *, allow_large_suffixes: bool = True) -> int | None:
    """Parse `64G`, `512m`, `1073741824` into bytes; None when `text` is not a size.

    The server accepts K, M and G in either case; T, P and E only from MySQL 8.0.14
    (pass `allow_large_suffixes=False` to model older servers).
    """
    if text.isascii() and text.isdigit() and len(text) <= MAX_SIZE_DIGITS:
        return int(text)  # most values are plain byte counts: no pattern needed (an audit reads ~80)
    match = _SIZE_RE.match(text)
    if match is None:
        return None
    number, suffix = match.group(1), (match.group(2) or "").lower()
    if len(number) > MAX_SIZE_DIGITS:  # no server value has more digits than 2**64 (20)
        return None
    if suffix in ("t", "p", "e") and not allow_large_suffixes:
        return None
    if "." in number and not suffix:
        return None
    power = _SUFFIX_POWER.get(suffix, 0)
    return int(float(number) * (1024**power)) if "." in number else int(number) * (1024**power)


def format_size(value: int) -> str:
    """Write bytes the way a DBA writes them in a my.cnf: the largest exact K/M/G/T suffix."""
    for suffix, power in (("T", 4), ("G", 3), ("M", 2), ("K", 1)):
        unit = 1024**power
        if value >= unit and value % unit == 0:
            return f"{value // unit}{suffix}"
    return str(value)


def parse_bool(text: str | None) -> bool | None:
    """ON/OFF, TRUE/FALSE, YES/NO, 1/0 in any case; a bare flag (None) means ON."""
    if text is None:
        return True
    word = text.strip().strip("'\"").lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    return None


# Evidence and rationales describe ~70 sizes an audit, the same pool, log and buffer sizes again and again.
# typed: a float size prints otherwise below a KiB (`2.0 bytes`), and 2.0 == 2 would share the entry.
@lru_cache(maxsize=4096, typed=True)
def describe_bytes(size: int) -> str:
    """`24 GiB`, `16.8 GiB`, `96 MiB`, `512 KiB` — for evidence and rationales, not for a my.cnf."""
    for unit, name in ((GIB, "GiB"), (MIB, "MiB"), (KIB, "KiB")):
        if abs(size) >= unit:
            value = size / unit
            return f"{value:.0f} {name}" if value == int(value) or value >= 100 else f"{value:.1f} {name}"
    return f"{size} bytes"
