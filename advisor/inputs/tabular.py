"""Read name/value rows out of a SHOW GLOBAL VARIABLES / STATUS paste, whatever its layout.

The layout is told by the first meaningful line (prompts, `TS` stamps and client warnings are
skipped), then one pass reads the rows:

* `table`    — the mysql client's box (`+---+` borders, `| name | value |`); a value holding raw
               newlines spills over lines that do not start with `|` until one ends with `|`.
* `tsv`      — `mysql -B` / `-e` output, with or without the `Variable_name<TAB>Value` header.
* `vertical` — `\\G` output: `*** 1. row ***`, `Variable_name: x`, `Value: y` (multi-line values run on).
* `columns`  — `name value [value …]` separated by spaces: pt-mysql-summary's `mysql-status-defer`
               (two samples side by side) and pt-mext's side-by-side columns.
* `help`     — `mysqld --verbose --help`: the table after `Variables (--variable-name=value)`.
* `json`, `csv` — exports from other tools (see advisor.inputs.tabular_exports).

A new sample starts at a repeated header (`Variable_name | Value`), at `1. row` of a new `\\G`
result, and at a pt-stalk `TS <epoch>` line. Names are lower-cased; values keep their text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from enum import Enum

from msgspec import Struct, field

from advisor.errors import InputError, InputWarning

# Lines people paste around the output: prompts, "N rows in set", client warnings on stderr,
# and the lines tools add to their sample files.
_NOISE_RE = re.compile(
    r"(?:mysql>|MariaDB \[[^\]]*\]>|\d+ rows? in set\b|Empty set\b|[\w.-]+: \[Warning\]|Warning: "
    r"|pt-summary-internal-|internal::)"  # pt-mysql-summary appends its own facts to mysql-variables
)
TS_RE = re.compile(r"TS \d+(?:\.\d+)?(?:\s|$)")  # pt-stalk / pt-mext sample stamp
_ROW_MARKER_RE = re.compile(r"\*+ (\d+)\. row \*+$")
_VERTICAL_NAME_RE = re.compile(r"\s*(?:variable_name):(?: |$)", re.IGNORECASE)
HELP_MARKER = "\nVariables (--variable-name=value)"
HEADER_NAMES = frozenset({"variable_name"})
_VALUE_KEYS = frozenset({"value", "variable_value"})
_SNIPPET_CHARS = 60


class Layout(Enum):
    TABLE = "table"
    TSV = "tsv"
    VERTICAL = "vertical"
    COLUMNS = "columns"
    HELP = "help"
    JSON = "json"
    CSV = "csv"


class RawSamples(Struct):
    """Samples in file order (lower-case name → text), the layout seen and odd-but-ok findings."""

    layout: Layout
    samples: list[dict[str, str]] = field(default_factory=list)
    warnings: list[InputWarning] = field(default_factory=list)


class Collector:
    """Gathers rows into samples; `open()` starts a new sample unless the current one is empty."""

    __slots__ = ("current", "file", "samples", "warnings")

    def __init__(self, file: str) -> None:
        self.file = file
        self.current: dict[str, str] = {}
        self.samples: list[dict[str, str]] = [self.current]
        self.warnings: list[InputWarning] = []

    def open(self) -> dict[str, str]:
        if self.current:
            self.current = {}
            self.samples.append(self.current)
        return self.current

    def open_many(self, count: int) -> list[dict[str, str]]:
        """Start `count` samples side by side (columns of one table)."""
        group = [self.open()] + [{} for _ in range(count - 1)]
        self.samples.extend(group[1:])
        self.current = group[-1]
        return group

    def result(self, layout: Layout) -> RawSamples:
        samples = [sample for sample in self.samples if sample]
        if not samples:
            raise InputError("no name/value rows found", file=self.file)
        return RawSamples(layout, samples, self.warnings)


def not_understood(file: str, number: int, line: str, expected: str) -> InputError:
    """The error for a line no layout rule accepts: says what was expected and shows the line."""
    shown = line.strip()
    if len(shown) > _SNIPPET_CHARS:
        shown = shown[:_SNIPPET_CHARS] + "…"
    return InputError(f"line not understood (expected {expected}): {shown!r}", file=file, line=number)


def is_noise(line: str) -> bool:
    return _NOISE_RE.match(line) is not None


def detect_layout(text: str, lines: list[str], file: str) -> tuple[Layout, int]:
    """The layout and the index of the first meaningful line; InputError naming it when unknown."""
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not stripped or is_noise(stripped) or TS_RE.match(stripped):
            continue
        first = stripped[0]
        if first in "+|":
            return Layout.TABLE, index
        if first == "*" and _ROW_MARKER_RE.match(stripped):
            return Layout.VERTICAL, index
        if first in "{[":
            return Layout.JSON, index
        if first == '"':
            return Layout.CSV, index
        if "\t" in line:
            return Layout.TSV, index
        if _VERTICAL_NAME_RE.match(stripped):
            return Layout.VERTICAL, index
        if HELP_MARKER in text or text.startswith(HELP_MARKER[1:]):
            return Layout.HELP, index
        word = stripped.split(None, 1)[0]
        if "," in word and word.partition(",")[0].isidentifier():
            return Layout.CSV, index
        if word.isidentifier():
            return Layout.COLUMNS, index
        raise not_understood(file, index + 1, line, "SHOW GLOBAL VARIABLES/STATUS output in a known layout")
    raise InputError("no name/value rows found (the text is empty)", file=file)


def skip_or_fail(line: str, number: int, out: Collector, expected: str) -> None:
    """A line outside the row pattern: blank, pasted noise or a TS stamp (new sample), else an error."""
    stripped = line.strip()
    if not stripped or is_noise(stripped):
        return
    if TS_RE.match(stripped):
        out.open()
        return
    raise not_understood(out.file, number, line, expected)


def read_tsv(lines: list[str], start: int, out: Collector) -> None:
    """`mysql -B`: `name<TAB>value`; the value is everything after the first tab, as printed."""
    values = out.current
    for index in range(start, len(lines)):
        line = lines[index]
        name, tab, value = line.partition("\t")
        if tab and name.isidentifier():
            key = name.lower()
            if key in HEADER_NAMES:
                values = out.open()
            else:
                values[key] = value
            continue
        # Indented names; a bare name is `name<TAB>` whose trailing whitespace an editor trimmed.
        name = name.strip()
        if not name.isidentifier():
            skip_or_fail(line, index + 1, out, "`name<TAB>value`")
            values = out.current
        elif name.lower() in HEADER_NAMES:
            values = out.open()
        else:
            values[name.lower()] = value


def read_table(lines: list[str], start: int, out: Collector) -> None:
    """The client's box: `| name | value |` rows; borders ignored; raw newlines spill over lines.

    A border (`+----+----+`) fixes the column positions, so a row of the border's width is cut at
    them without searching; other rows (trailing blanks, spilled values, no border) are searched.
    """
    values = out.current
    bar, width = 0, -1
    numbered = iter(range(start, len(lines)))
    for index in numbered:
        line = lines[index]
        if len(line) == width and line[bar] == "|" and line[0] == "|" and line[-1] == "|":
            name = line[1:bar].strip()
            value = line[bar + 1 : -1].strip()
        elif line[:1] == "+":
            bar, width = (line.find("+", 1), len(line)) if line.count("+") == 3 else (0, -1)
            continue
        else:
            row = _odd_table_line(lines, index, numbered, out)
            if row is None:
                values = out.current
                continue
            name, value = row
        if not name.isidentifier():
            raise not_understood(out.file, index + 1, line, "a `| name | value |` table row")
        key = name.lower()
        if key in HEADER_NAMES:
            values = out.open()
        else:
            values[key] = value


def _odd_table_line(
    lines: list[str], index: int, numbered: Iterator[int], out: Collector
) -> tuple[str, str] | None:
    """A border, pasted noise, a row with trailing blanks, or a row whose value spills over lines."""
    line = lines[index]
    if line[:1] != "|":
        if line[:1] != "+":
            skip_or_fail(line, index + 1, out, "a `| name | value |` table row")
        return None
    end = line.rstrip()
    bar = line.find("|", 1)
    if bar < 0 or bar == len(end) - 1:
        raise not_understood(out.file, index + 1, line, "two columns, `| name | value |`")
    name = line[1:bar].strip()
    if end[-1] == "|":
        return name, end[bar + 1 : -1].strip()
    return name, _spilled_value(lines, index, line[bar + 1 :], numbered, out.file)


def _spilled_value(lines: list[str], index: int, head: str, numbered: Iterator[int], file: str) -> str:
    """A value with raw newlines: its lines run until one ends with the closing `|`."""
    parts = [head]
    for follow in numbered:
        end = lines[follow].rstrip()
        if end.endswith("|"):
            parts.append(end[:-1])
            return "\n".join(parts).strip()
        parts.append(lines[follow])
    raise InputError(
        "table row never closes with `|` (a value spilling over lines was cut off)", file=file, line=index + 1
    )


def read_vertical(lines: list[str], start: int, out: Collector) -> None:
    """`\\G`: row markers, `Variable_name: x`, `Value: y`; lines after a value continue it."""
    values = out.current
    name: str | None = None
    spill: list[str] | None = None  # the value being read, kept open for continuation lines
    for index in range(start, len(lines)):
        line = lines[index]
        stripped = line.strip()
        marker = _ROW_MARKER_RE.match(stripped) if stripped[:1] == "*" else None
        key, colon, rest = stripped.partition(":")
        key = key.lower() if colon else ""
        if marker is not None or key in HEADER_NAMES:
            if spill is not None and name is not None:
                values[name] = spill[0] if len(spill) == 1 else "\n".join(spill).rstrip("\n")
            spill, name = None, None
            if marker is None:
                name = rest.strip().lower()
                if not name.isidentifier():
                    raise not_understood(out.file, index + 1, line, "`Variable_name: <name>`")
            elif marker.group(1) == "1":
                values = out.open()
        elif spill is None and name is not None and key in _VALUE_KEYS:
            spill = [rest[1:] if rest[:1] == " " else rest]
        elif spill is not None and not is_noise(stripped):
            spill.append(line)
        else:
            skip_or_fail(line, index + 1, out, "`\\G` output (`Variable_name:` / `Value:` lines)")
            values = out.current
    if spill is not None and name is not None:
        values[name] = spill[0] if len(spill) == 1 else "\n".join(spill).rstrip("\n")
