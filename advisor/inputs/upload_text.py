"""An uploaded option file's bytes as text: UTF-8, or a legacy 8-bit file whose other bytes sit in comments.

Option files are ASCII in practice, but a comment typed on a Windows or older Linux desktop is often
Latin-1 (`# Réglages` as the single byte 0xE9). mariadbd skips comments whatever their bytes (10.11.19
starts with such a file), so refusing it as "not text" turns away a file the server reads. A line that
is not UTF-8 only after its `#` (or a whole `#`/`;` comment line) has that comment read as Latin-1, which
maps every byte. Elsewhere — a name or a value, where the bytes mean something — they stay undecodable
(U+FFFD), for the option-file check to refuse with the line (advisor.inputs.optionscan).
"""

from __future__ import annotations


def decode_option_file(data: bytes) -> str:
    """The text of an uploaded option file (see the module)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return "\n".join(_line(line) for line in data.split(b"\n"))


def _line(line: bytes) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        pass
    comment = _comment_start(line)
    if comment is not None:
        try:
            return line[:comment].decode("utf-8") + line[comment:].decode("latin-1")
        except UnicodeDecodeError:
            pass
    return line.decode("utf-8", errors="replace")


def _comment_start(line: bytes) -> int | None:
    """Where the line's comment starts: a `#` or `;` line, or the first `#` of a line with no quotes
    before it (a quoted value may hold a `#`)."""
    stripped = line.lstrip()
    if stripped[:1] in (b"#", b";"):
        return len(line) - len(stripped)
    at = line.find(b"#")
    if at < 0 or b'"' in line[:at] or b"'" in line[:at]:
        return None
    return at
