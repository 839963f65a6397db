"""Query results written the way `mysql -B` prints them, which every InnoTune parser reads."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

NULL = "NULL"


def batch_cell(value: object) -> str:
    """One value as the client's batch mode prints it: NULL, and tab/newline/backslash escaped."""
    if value is None:
        return NULL
    text = value.decode("utf-8", errors="replace") if isinstance(value, bytes | bytearray) else str(value)
    if "\\" in text:
        text = text.replace("\\", "\\\\")
    if "\t" in text or "\n" in text or "\0" in text:
        text = text.replace("\t", "\\t").replace("\n", "\\n").replace("\0", "\\0")
    return text


def to_tsv(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A header line, then one tab-separated line per row, each ending in a newline.

    Unlike `mysql -B`, the header is written even without rows: an empty result then still says
    which query it came from.
    """
    lines = ["\t".join(header)]
    lines.extend("\t".join(batch_cell(value) for value in row) for row in rows)
    return "\n".join(lines) + "\n"
