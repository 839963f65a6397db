"""The hardware spec: memory, container limit, CPUs, storage — from a JSON file or CLI flags.

CONTRACT (fixed; add fields, rename nothing). Sizes accept `64G`-style strings and byte counts.
Errors: `advisor.errors.InputError` naming the file and, for JSON, the line.

This is the one advisor module that imports pydantic (about 75 ms): import it only when a hardware
spec is actually given.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from advisor.errors import InputError
from advisor.units import parse_size

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

Storage = Literal["hdd", "ssd", "nvme", "network"]
STORAGE_KINDS: tuple[str, ...] = ("hdd", "ssd", "nvme", "network")

#: Server variables are 64-bit; a "memory" beyond that is a typo, not a machine.
MAX_BYTES = 2**63 - 1
COMMAND_LINE = "command line"
_FLAG_NAMES = {
    "memory": "--memory",
    "memory_limit": "--memory-limit",
    "cpus": "--cpus",
    "storage": "--storage",
}
_EXAMPLE = '{"memory": "64G", "cpus": 16, "storage": "ssd"}'


def _reject_bool(value: object, what: str) -> None:
    # bool is an int subclass: `"cpus": true` must not quietly become one CPU.
    if isinstance(value, bool):
        raise ValueError(f"{what}, not {str(value).lower()}")


def _to_bytes(value: object) -> int | None:
    """A byte count from an int or a `64G`-style string; positive and below 2**63."""
    if value is None:
        return None
    _reject_bool(value, "expected a size such as 64G or a byte count")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str):
        try:
            size = parse_size(value)
        except (ValueError, OverflowError):  # absurdly long digit strings
            size = None
        if size is None:
            raise ValueError(f"`{value}` is not a size: use a byte count or a K/M/G/T suffix such as 64G")
        value = size
    if not isinstance(value, int):
        raise ValueError(f"expected a size such as 64G or a byte count, not {value!r}")
    if value <= 0:
        raise ValueError(f"must be more than zero bytes, not {value}")
    if value > MAX_BYTES:
        raise ValueError(f"{value} bytes is beyond any machine (more than 2**63)")
    return value


def _to_count(value: object, what: str) -> int | None:
    """A whole number ≥ 1 from an int or a digit string (CLI flags arrive as text)."""
    if value is None:
        return None
    _reject_bool(value, f"expected a whole number of {what}")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str):
        text = value.strip()
        if not (text.isascii() and text.isdigit() and len(text) <= 18):
            raise ValueError(f"expected a whole number of {what}, not `{value}`")
        value = int(text)
    if not isinstance(value, int):
        raise ValueError(f"expected a whole number of {what}, not {value!r}")
    if value < 1:
        raise ValueError(f"must be at least 1, not {value}")
    return value


class HardwareSpec(BaseModel):
    """What the server runs on; every field is optional, unknown fields are refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    memory: int | None = None
    memory_limit: int | None = None
    cpus: int | None = None
    storage: Storage | None = None
    iops: int | None = None
    fsync_latency_ms: float | None = None
    battery_backed_cache: bool | None = None
    os: str | None = None

    @field_validator("memory", "memory_limit", mode="before")
    @classmethod
    def _size_in_bytes(cls, value: object) -> int | None:
        return _to_bytes(value)

    @field_validator("cpus", mode="before")
    @classmethod
    def _cpu_count(cls, value: object) -> int | None:
        return _to_count(value, "CPUs")

    @field_validator("iops", mode="before")
    @classmethod
    def _iops_count(cls, value: object) -> int | None:
        return _to_count(value, "I/O operations per second")

    @field_validator("storage", mode="before")
    @classmethod
    def _storage_kind(cls, value: object) -> object:
        if value is None:
            return None
        kind = value.strip().lower() if isinstance(value, str) else value
        if kind not in STORAGE_KINDS:
            raise ValueError(f"unknown storage {value!r}: use one of {', '.join(STORAGE_KINDS)}")
        return kind

    @field_validator("fsync_latency_ms", mode="before")
    @classmethod
    def _latency(cls, value: object) -> float | None:
        if value is None:
            return None
        _reject_bool(value, "expected milliseconds")
        try:
            number = float(value.strip()) if isinstance(value, str) else float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise ValueError(f"expected milliseconds, not {value!r}") from None
        if not 0 < number < float("inf"):  # NaN fails both comparisons too
            raise ValueError(f"must be a positive number of milliseconds, not {value}")
        return number

    @property
    def usable_memory(self) -> int | None:
        """The lower of memory and the container limit."""
        known = [m for m in (self.memory, self.memory_limit) if m]
        return min(known) if known else None


def _key_line(text: str, key: str) -> int | None:
    """The line where `"key":` appears (the last one: duplicate JSON keys keep the last value)."""
    matches = list(re.finditer(f'"{re.escape(key)}"\\s*:', text))
    return text.count("\n", 0, matches[-1].start()) + 1 if matches else None


def _problem(error: ErrorDetails, names: dict[str, str]) -> tuple[str, str]:
    """(field, sentence) for one pydantic error, in words a user understands."""
    field = str(error["loc"][0]) if error["loc"] else ""
    label = names.get(field, f"`{field}`")
    if error["type"] == "extra_forbidden":
        known = ", ".join(HardwareSpec.model_fields)
        return field, f"unknown field `{field}` (known: {known})"
    message = str(error["msg"]).removeprefix("Value error, ")
    message = message[:1].lower() + message[1:]  # pydantic's "Input should be…" mid-sentence
    return field, f"{label}: {message}"


def _input_error(exc: ValidationError, file: str, text: str | None, names: dict[str, str]) -> InputError:
    problems = [_problem(error, names) for error in exc.errors()]
    line = _key_line(text, problems[0][0]) if text is not None and problems[0][0] else None
    return InputError("; ".join(sentence for _, sentence in problems), file=file, line=line)


def load_hardware(text: str, file: str) -> HardwareSpec:
    """Read a JSON object such as `{"memory": "64G", "cpus": 16, "storage": "ssd"}`.

    A JSON syntax error names its line; a bad or unknown field names the line where its key is.
    """
    import json  # only when a hardware file is given

    text = text.removeprefix("\ufeff")  # editors on Windows write a BOM
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"not valid JSON: {exc.msg} (column {exc.colno})", file=file, line=exc.lineno
        ) from None
    except (ValueError, RecursionError) as exc:  # a 5,000-digit number, nesting 1,000 deep
        raise InputError(f"not usable JSON: {exc}", file=file) from None
    if not isinstance(data, dict):
        first = len(text) - len(text.lstrip())
        line = text.count("\n", 0, first) + 1
        raise InputError(f"expected a JSON object such as {_EXAMPLE}", file=file, line=line)
    try:
        return HardwareSpec.model_validate(data)
    except ValidationError as exc:
        raise _input_error(exc, file, text, {}) from None


def hardware_from_flags(
    memory: str | None = None,
    cpus: int | str | None = None,
    storage: str | None = None,
    memory_limit: str | None = None,
) -> HardwareSpec:
    """Build the spec from `--memory 64G --cpus 16 --storage ssd --memory-limit 48G`."""
    given = {"memory": memory, "cpus": cpus, "storage": storage, "memory_limit": memory_limit}
    try:
        return HardwareSpec.model_validate(
            {name: value for name, value in given.items() if value is not None}
        )
    except ValidationError as exc:
        raise _input_error(exc, COMMAND_LINE, None, _FLAG_NAMES) from None
