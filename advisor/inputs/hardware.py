"""The hardware spec: memory, container limit, CPUs, storage — from a JSON file or CLI flags.

CONTRACT (fixed; add fields, rename nothing). Sizes accept `64G`-style strings and byte counts.
Errors: `advisor.errors.InputError` naming the file and, for JSON, the line.

A plain frozen record (a msgspec Struct) checked field by field here: building a pydantic model cost
the CLI about 120 ms of start-up. The API's request model (api/schemas/servers.py) calls these same checks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Literal

from msgspec import Struct
from msgspec.structs import fields

from advisor.errors import InputError
from advisor.units import parse_size

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
_TRUE_WORDS = frozenset({"true", "yes", "on", "1", "t", "y"})
_FALSE_WORDS = frozenset({"false", "no", "off", "0", "f", "n"})


def _reject_bool(value: object, what: str) -> None:
    # bool is an int subclass: `"cpus": true` must not quietly become one CPU.
    if isinstance(value, bool):
        raise ValueError(f"{what}, not {str(value).lower()}")


def size_in_bytes(value: object) -> int | None:
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


#: Less memory than this is no database server: `memory: 16` is 16 bytes, meant as 16G.
MIN_MEMORY_BYTES = 64 * 1024 * 1024


def memory_in_bytes(value: object) -> int | None:
    """A memory size (`size_in_bytes`) of at least MIN_MEMORY_BYTES: a number without its unit is bytes."""
    size = size_in_bytes(value)
    if size is not None and size < MIN_MEMORY_BYTES:
        hint = f"; a size needs its unit, e.g. {value}G" if str(value).strip().isdigit() else ""
        raise ValueError(f"{size} bytes is too little for a database server (at least 64M){hint}")
    return size


#: counts beyond these are typos (or attacks), not machines: `cpus: 10**40` is refused.
MAX_CPUS = 65_536
MAX_IOPS = 10**9


def whole_count(value: object, what: str, at_most: int = MAX_IOPS) -> int | None:
    """A whole number from 1 to `at_most`, from an int or a digit string (CLI flags arrive as text)."""
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
    if value > at_most:
        raise ValueError(f"{str(value)[:24]} is more {what} than any machine has (at most {at_most})")
    return value


def storage_kind(value: object) -> str | None:
    """`SSD` → `ssd`; one of STORAGE_KINDS."""
    if value is None:
        return None
    kind = value.strip().lower() if isinstance(value, str) else value
    if kind not in STORAGE_KINDS:
        raise ValueError(f"unknown storage {value!r}: use one of {', '.join(STORAGE_KINDS)}")
    return str(kind)


def latency_ms(value: object) -> float | None:
    """A positive, finite number of milliseconds."""
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


def yes_or_no(value: object) -> bool | None:
    """true/false (also 1/0, yes/no, on/off as JSON numbers or strings)."""
    if value is None or isinstance(value, bool):
        return value
    if not isinstance(value, str | int):  # a list or an object is no answer (and cannot be looked up)
        raise ValueError(f"expected true or false, not {value!r}")
    word = value.strip().lower() if isinstance(value, str) else value
    if word in _TRUE_WORDS or (isinstance(word, int) and word == 1):
        return True
    if word in _FALSE_WORDS or (isinstance(word, int) and word == 0):
        return False
    raise ValueError(f"expected true or false, not {value!r}")


def plain_text(value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise ValueError(f"expected text, not {value!r}")


class HardwareProblems(ValueError):
    """(field, sentence) for each field that is wrong or unknown."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        super().__init__("; ".join(sentence for _, sentence in problems))
        self.problems = problems


class HardwareSpec(Struct, frozen=True):
    """What the server runs on; every field is optional, unknown fields are refused."""

    memory: int | None = None
    memory_limit: int | None = None
    cpus: int | None = None
    storage: Storage | None = None
    iops: int | None = None
    #: measured by `innotune collect --probe-storage`: fsync median (fsync_latency_ms) and p99, and
    #: 16 KiB random reads at queue depth 1 past the page cache, median and p99.
    fsync_latency_ms: float | None = None
    fsync_latency_p99_ms: float | None = None
    read_latency_ms: float | None = None
    read_latency_p99_ms: float | None = None
    battery_backed_cache: bool | None = None
    os: str | None = None

    @property
    def usable_memory(self) -> int | None:
        """The lower of memory and the container limit."""
        known = [m for m in (self.memory, self.memory_limit) if m]
        return min(known) if known else None

    def as_dict(self) -> dict[str, object]:
        """The fields that are set, sizes in bytes (how servers store it)."""
        return {name: value for name in FIELD_NAMES if (value := getattr(self, name)) is not None}

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> HardwareSpec:
        """Check every field; HardwareProblems listing every bad or unknown one."""
        values: dict[str, object] = {}
        problems: list[tuple[str, str]] = []
        for name, value in data.items():
            check = CHECKS.get(name)
            if check is None:
                problems.append((name, f"unknown field `{name}` (known: {', '.join(FIELD_NAMES)})"))
                continue
            try:
                values[name] = check(value)
            except (ValueError, TypeError) as exc:
                problems.append((name, str(exc)))
        if problems:
            raise HardwareProblems(problems)
        return cls(**values)  # type: ignore[arg-type]


FIELD_NAMES: tuple[str, ...] = tuple(item.name for item in fields(HardwareSpec))
#: each field's check: the value as given (JSON, a flag's text) → the stored value, or ValueError.
CHECKS: dict[str, Callable[[object], object]] = {
    "memory": memory_in_bytes,
    "memory_limit": memory_in_bytes,
    "cpus": lambda value: whole_count(value, "CPUs", MAX_CPUS),
    "storage": storage_kind,
    "iops": lambda value: whole_count(value, "I/O operations per second", MAX_IOPS),
    "fsync_latency_ms": latency_ms,
    "fsync_latency_p99_ms": latency_ms,
    "read_latency_ms": latency_ms,
    "read_latency_p99_ms": latency_ms,
    "battery_backed_cache": yes_or_no,
    "os": plain_text,
}


def _key_line(text: str, key: str) -> int | None:
    """The line where `"key":` appears (the last one: duplicate JSON keys keep the last value)."""
    matches = list(re.finditer(f'"{re.escape(key)}"\\s*:', text))
    return text.count("\n", 0, matches[-1].start()) + 1 if matches else None


def _checked(data: Mapping[str, object], file: str, text: str | None, names: dict[str, str]) -> HardwareSpec:
    """The spec, or an InputError naming each bad field (by its flag on the command line) and the
    line of the first one's key."""
    try:
        return HardwareSpec.from_mapping(data)
    except HardwareProblems as exc:
        problems = exc.problems
    sentences = [
        sentence if field not in CHECKS else f"{names.get(field, f'`{field}`')}: {sentence}"
        for field, sentence in problems
    ]
    line = _key_line(text, problems[0][0]) if text is not None else None
    raise InputError("; ".join(sentences), file=file, line=line)


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
    return _checked(data, file, text, {})


def with_flags(spec: HardwareSpec | None, flags: HardwareSpec) -> HardwareSpec:
    """`spec` (from --hardware) with the fields the flags give replaced: `--hardware F --storage ssd`."""
    if spec is None:
        return flags
    return HardwareSpec.from_mapping({**spec.as_dict(), **flags.as_dict()})


def hardware_from_flags(
    memory: str | None = None,
    cpus: int | str | None = None,
    storage: str | None = None,
    memory_limit: str | None = None,
) -> HardwareSpec:
    """Build the spec from `--memory 64G --cpus 16 --storage ssd --memory-limit 48G`."""
    given = {"memory": memory, "cpus": cpus, "storage": storage, "memory_limit": memory_limit}
    return _checked(
        {name: value for name, value in given.items() if value is not None}, COMMAND_LINE, None, _FLAG_NAMES
    )
