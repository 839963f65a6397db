"""Domain errors of the services; the API maps each to an HTTP status (see contract.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from advisor.errors import InputError


class ServiceError(Exception):
    """Base of every service error; `detail` is safe to show to the caller (and to log): a secret
    it would quote from an upload is redacted here, whatever raised it."""

    def __init__(self, detail: str) -> None:
        from advisor.redact_inputs import redact_message

        detail = redact_message(detail)
        super().__init__(detail)
        self.detail = detail


class NotFound(ServiceError):
    """No such row for this organisation (404): another organisation's row is missing too."""


class Conflict(ServiceError):
    """The request clashes with a stored row (409): a duplicate name, an idempotency key reused."""


class TooLarge(ServiceError):
    """An upload over the limits (413)."""


class Unauthorized(ServiceError):
    """No key, or an unknown or revoked one (401)."""


class InvalidInput(ServiceError):
    """Bad input (422), naming the file and line when an uploaded file is at fault."""

    def __init__(self, detail: str, *, file: str | None = None, line: int | None = None) -> None:
        super().__init__(detail)
        self.file = file
        self.line = line

    @classmethod
    def from_input_error(cls, error: InputError) -> InvalidInput:
        """Carry a parser's `file:line: message` over, with file and line kept apart for the API."""
        return cls(error.describe(), file=error.file, line=error.line)
