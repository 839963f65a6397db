"""The one error type every parser raises, and the warnings parsers may return."""

from __future__ import annotations

from msgspec import Struct


class InputError(Exception):
    """Bad input: names the file, the line (1-based, when known) and the problem."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None) -> None:
        self.message = message
        self.file = file
        self.line = line
        super().__init__(self.describe())

    def describe(self) -> str:
        """Render as `file:line: message` — the shape compilers and editors understand."""
        where = self.file or "<input>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}"

    def with_file(self, file: str) -> InputError:
        """Return a copy that names `file` when the parser did not know it."""
        return InputError(self.message, file=self.file or file, line=self.line)


class VersionUnknown(InputError):
    """No server version: none given, none in the variables dump, no fallback."""


class InputWarning(Struct, frozen=True):
    """Something odd but not fatal in the input (a missing include, a truncated dump)."""

    message: str
    file: str | None = None
    line: int | None = None

    def describe(self) -> str:
        where = self.file or "<input>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}"
