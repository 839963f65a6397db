"""Editing an option file in place: every edit touches only its own lines and keeps all other bytes.

`OptionFile` gets these methods from `OptionFileEdits`. Each edit records which lines are no longer
as parsed (`origins`), which is all the differ needs to write a unified diff without searching.
Edits classify lines cheaply (`line_kind`) instead of re-reading the whole file, so a dozen edits
on a 100-line file cost a few tens of microseconds.
"""

from __future__ import annotations

from collections.abc import Sequence

from advisor.inputs.optionnames import split_option_name
from advisor.inputs.optionscan import Scan
from advisor.inputs.optionsyntax import (
    WHITESPACE,
    encode_value,
    header_name,
    line_kind,
    option_spans,
    option_text,
    quote_of,
)


class OptionFileEdits:
    """The editing half of `OptionFile` (line numbers are 1-based, in the current text)."""

    path: str
    #: The text split on LF (a CR stays on its line); the last item follows the final LF.
    _lines: list[str]
    #: Per line: its number when parsed, 0 once added or edited (None: nothing edited yet).
    _origin: list[int] | None
    _found: Scan | None
    _crlf: bool | None

    @property
    def crlf(self) -> bool:
        """Does the file end its lines with CR LF (Windows)? Decided by most lines, once."""
        if self._crlf is None:
            ended = self._lines[:-1]
            # A line ends with CR exactly where the joined text holds CR LF (a line holds no LF).
            self._crlf = bool(ended) and ("\n".join(ended) + "\n").count("\r\n") * 2 > len(ended)
        return self._crlf

    @property
    def line_count(self) -> int:
        return len(self._lines) - (1 if self._lines[-1] == "" else 0)

    def _index(self, line: int) -> int:
        if not 1 <= line <= self.line_count:
            raise IndexError(f"{self.path} has no line {line}")
        return line - 1

    def _option_index(self, line: int) -> int:
        index = self._index(line)
        text = self._lines[index].removesuffix("\r")
        spans = option_spans(text)
        if line_kind(text) != "=" or split_option_name(text[spans.name_start : spans.name_end]) is None:
            raise ValueError(f"{self.path}:{line} is not an option line")
        return index

    def _touch(self) -> list[int]:
        if self._origin is None:
            self._origin = list(range(1, len(self._lines) + 1))
        self._found = None
        return self._origin

    def _replace(self, index: int, text: str) -> None:
        ending = "\r" if self._lines[index].endswith("\r") else ""
        self._touch()[index] = 0
        self._lines[index] = text + ending

    def _insert(self, index: int, texts: list[str]) -> None:
        ending = "\r" if self.crlf else ""
        origin = self._touch()
        if index == len(self._lines):
            origin[-1] = 0  # the last line had no newline; it gains one
        self._lines[index:index] = [text + ending for text in texts]
        origin[index:index] = [0] * len(texts)

    def set_value(self, line: int, value: str) -> None:
        """Replace the value of the option on `line`, keeping its name, spacing and inline comment."""
        index = self._option_index(line)
        text = self._lines[index].removesuffix("\r")
        spans = option_spans(text)
        if spans.equals < 0:
            new = f"{text[: spans.name_end]} = {encode_value(value)}{text[spans.name_end :]}"
        else:
            quote = quote_of(text[spans.value_start : spans.value_end])
            new = text[: spans.value_start] + encode_value(value, quote) + text[spans.value_end :]
        self._replace(index, new)

    def replace_option(self, line: int, name: str, value: str | None) -> None:
        """Rewrite the option on `line` as `name = value` (bare `name` for None), keeping indentation,
        the spacing around `=` and the inline comment."""
        index = self._option_index(line)
        text = self._lines[index].removesuffix("\r")
        spans = option_spans(text)
        head, tail = text[: spans.name_start], text[spans.value_end :]
        if value is None:
            new = head + name + tail
        elif spans.equals < 0:
            new = f"{head}{name} = {encode_value(value)}{tail}"
        else:
            new = head + name + text[spans.name_end : spans.value_start] + encode_value(value) + tail
        self._replace(index, new)

    def comment_out(self, line: int, note: str | None = None) -> None:
        """Turn the option on `line` into a comment (`# ` + original text), with `  # note` after it."""
        index = self._option_index(line)
        text = self._lines[index].removesuffix("\r")
        self._replace(index, f"# {text}" + (f"  # {_one_line(note)}" if note else ""))

    def remove(self, line: int) -> None:
        """Delete `line` (the following lines move up by one)."""
        index = self._index(line)
        origin = self._touch()
        del self._lines[index]
        del origin[index]
        if not self._lines:
            self._lines.append("")
            origin.append(0)
        elif index == len(self._lines) and self._lines[-1]:
            origin[-1] = 0  # the new last line loses its newline

    def add_option(self, group: str, name: str, value: str | None, comment: str | None = None) -> None:
        """Append `name = value` at the end of the last `[group]` section (creating the section at the
        end of the file when there is none), preceded by `# comment` when given.

        The end of a section is just after its last option, include or edited line, so comments that
        introduce the next group stay with it. `=` is spaced like the section's last option.
        """
        self.add_options(group, [(name, value, comment)])

    def add_options(self, group: str, options: Sequence[tuple[str, str | None, str | None]]) -> None:
        """`add_option` for each (name, value, comment) in turn, the section searched once: each
        added line ends the section, so the next goes right after it, spaced like it."""
        wanted = group.lower()
        lines = self._lines
        count = self.line_count
        header = -1
        for index in range(count):
            raw = lines[index]
            if "[" in raw and line_kind(raw) == "[" and header_name(raw) == wanted:
                header = index
        if header < 0:
            end, last_option = count - 1, None
            block = [f"[{group}]"]
            if count and lines[count - 1].strip(WHITESPACE):
                block.insert(0, "")
        else:
            end, last_option = self._section_end(header)
            block = []
        for name, value, comment in options:
            if comment:
                block.append(f"# {_one_line(comment)}")
            last_option = option_text(name, value, last_option)
            block.append(last_option)
        self._insert(end + 1, block)

    def _section_end(self, header: int) -> tuple[int, str | None]:
        """The index of the last line of the section under `header`, and its last option line."""
        lines, origin = self._lines, self._origin
        end, last_option = header, None
        for index in range(header + 1, self.line_count):
            first = lines[index].lstrip(WHITESPACE)[:1]
            if first == "[":
                break
            if not first or first == "#" or first == ";":
                if origin is not None and origin[index] == 0:
                    end = index  # an option commented out here still belongs to the section
                continue
            end = index
            if first != "!":
                last_option = lines[index]
        return end, last_option


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split())
