"""A value against one option's type, as my_getopt's setval() does it (MariaDB 10.11, observed).

Booleans: ON/OFF, TRUE/FALSE, 1/0 in any case; anything else (YES, NO, 2) is only a warning and
the option ends up OFF ("boolean value ... wasn't recognized. Set to OFF") or, for the plugin booleans
that take no argument on the command line (arg NONE: innodb_doublewrite, innodb_file_per_table,
myisam_use_mmap), keeps its default ("ignoring option ... invalid value"). Those read a value that starts
with a digit by that digit alone, silently: mariadbd 10.11.19 runs `innodb_doublewrite = 0;`, `0 0`, `01`
and `0x` OFF and `1x`, `10` ON (`first_digit`); MySQL 8.0.46 does not (its innodb_doublewrite is an enum).
Enums: a unique case-insensitive prefix of a value or the value's index; unknown words refused.
Sets: comma-separated names, the last of which may be a unique prefix, or the bitmask as a number.
Flagsets: `default` and `name=on|off|default` items, names spelt out in full. Strings: anything.
"""

from __future__ import annotations

import re

from msgspec import Struct

from advisor.optioncheck.model import OptionFacts
from advisor.optioncheck.numbers import parse_double, parse_integer, plain_seconds, spaced_size, whole_size

TRUE_WORDS = frozenset({"on", "true", "1"})
FALSE_WORDS = frozenset({"off", "false", "0"})
WORD_FOR_NUMBER = {"on": "1", "true": "1", "yes": "1", "off": "0", "false": "0", "no": "0"}
BOOL_INTENT = {"yes": "ON", "no": "OFF", "y": "ON", "n": "OFF", "enabled": "ON", "disabled": "OFF"}
PLACEHOLDER = re.compile(r"^\s*(<[^>]*>|\$\{?\w+\}?|%\w+%|\{\{.*\}\})\s*$")
INTEGER_TYPES = frozenset({"int", "uint", "longlong", "ulonglong"})


class ValueCheck(Struct, frozen=True):
    """`status`: ok, adjusted (clamped), rounded (block size), warn (kept default/OFF), error (the
    option parser refuses), or fatal (a later startup check refuses; `loose-` does not help)."""

    status: str
    detail: str = ""
    effective: str | None = None
    suggested_value: str | None = None
    certain: bool = True  # False: another release's facts (mysql_charsets)


def find_type(word: str, values: tuple[str, ...]) -> int | None:
    """Index of an exact or unique-prefix match (case-insensitive); -1 when ambiguous; None: none."""
    lowered = word.lower()
    matches = [index for index, value in enumerate(values) if value.lower().startswith(lowered)]
    exact = [index for index in matches if values[index].lower() == lowered]
    if exact:
        return exact[0]
    if len(matches) == 1:
        return matches[0]
    return -1 if matches else None


def strtol_whole(text: str) -> int | None:
    """strtol(text) when it consumes the whole string (an empty string reads as 0), else None."""
    match = re.fullmatch(r"\s*([+-]?\d+)", text)
    if text == "":
        return 0
    return int(match.group(1)) if match else None


def check_enum(text: str, facts: OptionFacts) -> ValueCheck:
    found = find_type(text, facts.values) if text else None
    if found is not None and found >= 0:
        return ValueCheck("ok", effective=facts.values[found])
    if found == -1:
        return ValueCheck("error", f"'{text}' is an ambiguous abbreviation of {', '.join(facts.values)}")
    index = strtol_whole(text)
    if index is not None and 0 <= index < len(facts.values):
        return ValueCheck("ok", effective=facts.values[index])
    return ValueCheck("error", f"'{text}' is not one of {', '.join(facts.values)}")


def exact_index(word: str, values: tuple[str, ...]) -> int | None:
    """Index of the value spelt `word` in any case; None when none is."""
    lowered = word.lower()
    return next((index for index, value in enumerate(values) if value.lower() == lowered), None)


def check_set(text: str, facts: OptionFacts) -> ValueCheck:
    """Only the last item may be a unique prefix: mariadbd 10.11.19 refuses (exit 13, 'Error while setting
    value') sql_mode=STRICT_TRANS_TABLE,NO_ENGINE_SUBSTITUTION, log_output=TAB,FILE, old_mode=NO_PROG,...
    and takes the same items in the other order."""
    if text == "":
        return ValueCheck("ok", effective="")
    chosen: list[str] = []
    items = text.split(",")
    for position, item in enumerate(items):
        last = position == len(items) - 1
        found = (find_type(item, facts.values) if last else exact_index(item, facts.values)) if item else None
        if found is None or found < 0:
            break
        chosen.append(facts.values[found])
    else:
        return ValueCheck("ok", effective=",".join(chosen))
    mask = strtol_whole(text)
    if mask is not None and 0 <= mask < (1 << len(facts.values)):
        return ValueCheck("ok", effective=text)
    spelt = [find_type(item, facts.values) if item else None for item in items]
    if all(index is not None and index >= 0 for index in spelt):  # an abbreviation before the last item
        full = [facts.values[index] for index in spelt if index is not None]
        return ValueCheck("error", f"'{items[position]}' abbreviates {full[position]}, and only the last item "
                          "of a list may be abbreviated", suggested_value=",".join(full))  # fmt: skip
    return ValueCheck("error", f"'{text}' is not a list of {', '.join(facts.values)}")


def check_flagset(text: str, facts: OptionFacts) -> ValueCheck:
    flags = tuple(value for value in facts.values if value != "default")
    seen_default = False
    for item in text.split(",") if text else []:
        name, equals, setting = item.partition("=")
        if name.lower() == "default" and not equals and not seen_default:
            seen_default = True
            continue
        found = exact_index(name, flags) if name else None  # 10.11.19 refuses mrr_cost_b=on: no prefixes
        if found is None or not equals or setting.lower() not in ("on", "off", "default"):
            return ValueCheck("error", f"'{item}' is not flag=on|off|default with a flag of {facts.name}")
    return ValueCheck("ok", effective=text)


def check_bool(text: str, facts: OptionFacts, mariadb: bool = False) -> ValueCheck:
    """`mariadb`: MariaDB's option parser, whose plugin booleans without an argument read a first digit."""
    lowered = text.lower()
    if lowered in TRUE_WORDS or lowered in FALSE_WORDS:
        return ValueCheck("ok", effective="ON" if lowered in TRUE_WORDS else "OFF")
    no_argument = facts.plugin is not None and facts.arg == "NONE"
    if mariadb and no_argument and text[:1] in ("0", "1"):
        value = "ON" if text[0] == "1" else "OFF"
        return ValueCheck("first_digit", f"'{text}' is read by its first character, {text[0]}: the server "
                          f"runs {facts.name} {value}, without a warning", value, suggested_value=text[0])  # fmt: skip
    intent = BOOL_INTENT.get(lowered)
    kept = "keeps its default" if (no_argument if mariadb else facts.plugin) else "is set to OFF"
    return ValueCheck("warn", f"'{text}' is not a boolean the server knows (ON/OFF, TRUE/FALSE, 1/0); "
                      f"it logs a warning and the option {kept}", suggested_value=intent)  # fmt: skip


def _meant(text: str, facts: OptionFacts) -> str | None:
    """The number a refused value plainly means (`ON` → 1, `1.5G` → 1536M, `64 M` → 64M, `28800s` →
    28800 for a timeout), or None when the intent is not clear."""
    word = WORD_FOR_NUMBER.get(text.strip().lower())
    if word is not None:
        return word
    size = whole_size(text) or spaced_size(text) if facts.type in INTEGER_TYPES else None
    return size or plain_seconds(facts.name, text)


def check_number(text: str, facts: OptionFacts) -> ValueCheck:
    parsed = parse_double(text, facts) if facts.type == "double" else parse_integer(text, facts)
    if parsed.error is not None:
        return ValueCheck("error", parsed.error, suggested_value=_meant(text, facts))
    effective = str(parsed.value)
    if parsed.adjusted_from is not None:
        return ValueCheck("adjusted", f"{parsed.adjusted_from} is out of range; the server uses {effective}",
                          effective)  # fmt: skip
    if parsed.rounded:
        return ValueCheck("rounded", f"rounded down to a multiple of {facts.block}: {effective}", effective)
    return ValueCheck("ok", effective=effective)


def check_value(text: str | None, facts: OptionFacts, mariadb: bool = False) -> ValueCheck:
    """The server's reaction to `text` (None: the name alone) for this option (`mariadb`: MariaDB's parser)."""
    if text is None:
        if facts.arg == "REQUIRED":  # booleans too: some plugin booleans insist on a value
            return ValueCheck("error", f"option '{facts.name}' requires a value")
        return ValueCheck("ok", effective="ON" if facts.type == "bool" else None)
    if facts.type == "noarg":
        return ValueCheck("error", f"option '{facts.name}' takes no value")
    if facts.type == "bool":
        return check_bool(text, facts, mariadb)
    if facts.type in INTEGER_TYPES or facts.type == "double":
        return check_number(text, facts)
    checker = {"enum": check_enum, "set": check_set, "flagset": check_flagset}.get(facts.type)
    if checker is not None:
        return checker(text, facts)
    if PLACEHOLDER.match(text):
        return ValueCheck("ok", f"'{text}' looks like a template placeholder left unfilled", text)
    return ValueCheck("ok", effective=text)
