"""The lexical rules of one option-file line, as the server's reader applies them (mysys/my_default.c).

* Leading and trailing whitespace (space, tab, CR, LF, VT, FF) is ignored.
* A `#` outside quotes starts a comment anywhere on an option line: `remove_end_comment` tracks single
  and double quotes, and inside quotes a backslash protects the next quote. A quote that never closes
  runs to the end of the line, so `name = it's # x` keeps `# x` in the value.
* The name is what comes before the first `=`; without `=` the line is a bare option.
* The value is trimmed; one pair of matching quotes around the whole value is removed; then the
  escapes `\\n \\t \\r \\b \\s \\" \\' \\\\` are decoded (any other `\\x` stays as written).
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from advisor.patterns import lazy

WHITESPACE: Final = " \t\n\r\v\f"
_ESCAPES: Final = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "s": " ", '"': '"', "'": "'", "\\": "\\"}
_ESCAPE_RE: Final = lazy(r"\\(.)", re.S)
# Characters that force a written value into quotes.
_NEEDS_QUOTES_RE: Final = re.compile(r"[#'\"\\\n\r\t\b]")


def cut_comment(text: str) -> str:
    """The part of an option line before its inline comment (`#` outside quotes)."""
    if "#" not in text:
        return text
    if "'" not in text and '"' not in text:
        return text[: text.index("#")]
    quote = ""
    escape = False
    for index, char in enumerate(text):
        if (char == "'" or char == '"') and not escape:
            if not quote:
                quote = char
            elif quote == char:
                quote = ""
        if not quote and char == "#":
            return text[:index]
        escape = bool(quote) and char == "\\" and not escape
    return text


def _unescape(match: re.Match[str]) -> str:
    char = match.group(1)
    return _ESCAPES.get(char, "\\" + char)


def decode_value(text: str) -> str:
    """A trimmed raw value → what the server passes on: outer quotes removed, escapes decoded."""
    if len(text) > 1 and (text[0] == '"' or text[0] == "'") and text[-1] == text[0]:
        text = text[1:-1]
    if "\\" in text:
        text = _ESCAPE_RE().sub(_unescape, text)
    return text


def encode_value(value: str, quote: str = "") -> str:
    """Write `value` so that the server reads it back unchanged; quoted only when it has to be
    (or with `quote` when given, to keep the quoting style of the line being edited)."""
    if not quote:
        if _NEEDS_QUOTES_RE.search(value) is None and value == value.strip(WHITESPACE):
            return value
        quote = '"'
    escaped = value.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
    escaped = escaped.replace("\t", "\\t").replace("\b", "\\b").replace(quote, "\\" + quote)
    return quote + escaped + quote


class OptionSpans(NamedTuple):
    """Where the parts of an option line are (offsets into the line's text)."""

    name_start: int
    name_end: int
    #: Offset of `=`, or -1 for a bare option.
    equals: int
    value_start: int
    value_end: int


def option_spans(text: str) -> OptionSpans:
    """Locate name, `=` and value on an option line, so an edit can replace just the value."""
    start = len(text) - len(text.lstrip(WHITESPACE))
    body = cut_comment(text)
    equals = body.find("=")
    if equals < 0:
        end = len(body.rstrip(WHITESPACE))
        return OptionSpans(start, end, -1, end, end)
    name_end = len(body[:equals].rstrip(WHITESPACE))
    rest = body[equals + 1 :]
    value_start = equals + 1 + len(rest) - len(rest.lstrip(WHITESPACE))
    value_end = max(value_start, len(body.rstrip(WHITESPACE)))
    return OptionSpans(start, name_end, equals, value_start, value_end)


def quote_of(raw_value: str) -> str:
    """The quote character around a raw value (`"x"` → `"`), or "" when it is not quoted."""
    if len(raw_value) > 1 and raw_value[0] in "'\"" and raw_value[-1] == raw_value[0]:
        return raw_value[0]
    return ""


def line_kind(raw: str) -> str:
    """A cheap line classification for edits: "" blank, "#" comment, "[" group, "!" directive, "=" option."""
    stripped = raw.lstrip(WHITESPACE)
    if not stripped:
        return ""
    first = stripped[0]
    if first == "#" or first == ";":
        return "#"
    return first if first in "[!" else "="


def header_name(raw: str) -> str | None:
    stripped = raw.strip(WHITESPACE)
    end = stripped.find("]")
    return stripped[1:end].rstrip(WHITESPACE).lower() if end > 0 else None


def option_text(name: str, value: str | None, like: str | None) -> str:
    """`name = value`, spaced around `=` like the option line `like` when given."""
    if value is None:
        return name
    separator = " = "
    if like is not None and "=" in like and not like[: like.find("=")].endswith((" ", "\t")):
        separator = "="
    return f"{name}{separator}{encode_value(value)}"
