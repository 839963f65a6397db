"""MySQL options whose value must name a character set or collation the server has: any text passes the
option parser, the start then aborts (5.7.42 and 8.0.46, private instances; facts in mysql_charsets)."""

from __future__ import annotations

from typing import Final

from advisor.optioncheck.mysql_charsets import has_charset, has_collation, speaking_for
from advisor.optioncheck.values import ValueCheck

MYSQL_NAMED_VALUES: Final = {
    "character_set_server": "charset",
    "character_set_filesystem": "charset",
    "collation_server": "collation",
}


def mysql_named_value(name: str, value: str, version: tuple[int, ...]) -> ValueCheck | None:
    """A fatal check when `value` names no character set (collation) of the target; None when it does."""
    server, certain = speaking_for(version)
    text = value.strip().strip("'\"")
    kind = MYSQL_NAMED_VALUES[name]
    known = has_charset(server, text) if kind == "charset" else has_collation(server, text)
    if known:
        return None
    binary = ".".join(map(str, server.version))
    words = "character set" if kind == "charset" else "collation"
    said = "'Unknown collation', then 'Aborting'" if kind == "collation" else "'Aborting'"
    where = f"MySQL {binary}" if certain else f"MySQL {binary} (the nearest release observed)"
    detail = f"{name}: '{text}' is not a {words} {where} has ({said} at startup)"
    return ValueCheck("fatal", detail, certain=certain)
