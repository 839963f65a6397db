"""The common `mysql -B` listing read with whole-text string operations instead of a loop over lines.

Most dumps are plain `name<TAB>value` lines, perhaps under one `Variable_name<TAB>Value` header. For such
a text the line-by-line reader (advisor.inputs.tabular.read_tsv) does the same thing to every line, so
splitting the whole text at once gives the same sample, a fifth faster. `plain_tsv` answers only when
it can vouch for every line: each holds exactly one tab, each name is an ASCII identifier, and the only
header is the first line. Anything else — a blank line but the last, a header or `TS` stamp between
samples, pasted noise, a value holding a tab, a name outside ASCII, an empty listing — gets None, and
the caller reads the text line by line, with the same warnings and errors as ever.
"""

from __future__ import annotations

#: Deleting every byte but tab and newline leaves a text's separators in order.
_NOT_SEPARATORS = bytes(byte for byte in range(256) if byte not in b"\t\n")
_NAME_BYTES = b"_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ\n"
#: Maps a byte that may stand in names joined with newlines to itself, any other to `!`.
_ODD_NAME_BYTES = bytes(byte if byte in _NAME_BYTES else ord("!") for byte in range(256))
#: Below every name that starts with a letter or `_` (given only those, digits and `_` in names).
_FIRST_IDENTIFIER = ":"
_HEADER = "variable_name"
#: How far the first tab is looked for: no real name is this long.
_FIRST_LINE_CHARS = 256


def plain_tsv(text: str) -> dict[str, str] | None:
    """Lower-case name → value of a plain `name<TAB>value` listing; None unless every line is one.

    `text` has had its byte-order mark and CRLFs dealt with. A value is everything after the first
    tab, as the line-by-line reader keeps it; a name given twice keeps its last value (dict order:
    the first). The text may end with one newline (the last line is then empty).
    """
    first_tab, first_newline = text.find("\t", 0, _FIRST_LINE_CHARS), text.find("\n", 0, _FIRST_LINE_CHARS)
    lead = text[:1]
    if not (lead.isalpha() or lead == "_") or first_tab < 0 or 0 <= first_newline < first_tab:
        return None  # not led by `name<TAB>` (a table, `\\G`, JSON, columns, a prompt): no pass over it
    trailing = text.endswith("\n")
    # One tab per line: the separators, in order, alternate tab, newline, ..., tab (newline).
    separators = text.encode("utf-8", "surrogatepass").translate(None, _NOT_SEPARATORS)
    lines = (len(separators) + 1) // 2
    if separators != (b"\t\n" * lines if trailing else b"\t\n" * (lines - 1) + b"\t"):
        return None
    fields = text.replace("\n", "\t").split("\t")
    if trailing:
        fields.pop()  # the empty last line
    names = fields[0::2]
    joined = "\n".join(names)
    # Every name an ASCII identifier: letters, digits and `_` only, and none empty or led by a digit.
    if (
        not joined.isascii()
        or b"!" in joined.encode().translate(_ODD_NAME_BYTES)
        or min(names) < _FIRST_IDENTIFIER
    ):
        return None
    lowered = joined.lower()
    keys = names if lowered == joined else lowered.split("\n")
    values = dict(zip(keys, fields[1::2], strict=True))
    if _HEADER in values:  # only as the first line: the header printed before the rows
        if keys[0] != _HEADER or f"\n{_HEADER}\n" in f"{lowered}\n":
            return None  # a header further down starts a new sample
        del values[_HEADER]
    return values or None
