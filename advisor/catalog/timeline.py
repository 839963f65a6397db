"""Version boundaries and timelines: how the catalog says "from 5.6.8 on" in its data file.

A *boundary* is a version string, `"0"` (from the first release modelled), or several versions joined
by commas (`"10.6.16,10.11.6"`) for one change shipped in several maintained lines at different patch
numbers. A boundary holds at version `v` when

* one of its versions is in `v`'s own line (same major.minor) and `v` is at or past it, or
* none is in `v`'s line and `v`'s line is newer than every line the boundary names
  (lines released after the change inherit it; older lines and lines skipped in between do not).

For a single version this is plain `v >= boundary`, compared on full `x.y.z`.

A *timeline* maps boundaries to values: `{"0": 5242880, "5.6.8": 50331648}`. Its value at `v` is the
value of the latest boundary (ordered by their earliest version) that holds at `v`, or `MISSING` when
none does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from msgspec import Struct

VersionKey = tuple[int, int, int]


class _Missing:
    """No value: the timeline starts after this version."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Final = _Missing()


def parse_version_key(text: str) -> VersionKey:
    """`"5.6.8"` → `(5, 6, 8)`; `"0"` → `(0, 0, 0)`; `"10.11"` → `(10, 11, 0)`. Raises ValueError."""
    text = text.strip()
    if text == "0":
        return (0, 0, 0)
    parts = text.split(".")
    if not 2 <= len(parts) <= 3 or not all(part.isdigit() for part in parts):
        raise ValueError(f"not a catalog version: {text!r}")
    numbers = [int(part) for part in parts] + [0]
    return (numbers[0], numbers[1], numbers[2])


class Boundary(Struct, frozen=True):
    """One change point, possibly released in several lines (see the module docstring)."""

    versions: tuple[VersionKey, ...]
    text: str

    @classmethod
    def parse(cls, text: str) -> Boundary:
        keys = tuple(sorted(parse_version_key(part) for part in text.split(",")))
        if not keys:
            raise ValueError(f"empty catalog version: {text!r}")
        return cls(keys, text.strip())

    @property
    def earliest(self) -> VersionKey:
        return self.versions[0]

    def holds(self, key: VersionKey) -> bool:
        line = key[:2]
        same_line = [version for version in self.versions if version[:2] == line]
        if same_line:
            return key >= min(same_line)
        return line > max(version[:2] for version in self.versions)

    def __str__(self) -> str:
        return self.text


class Timeline(Struct, frozen=True):
    """Values that change at boundaries; see the module docstring."""

    points: tuple[tuple[Boundary, object], ...]

    @classmethod
    def parse(cls, mapping: Mapping[str, object]) -> Timeline:
        points = sorted(
            ((Boundary.parse(key), value) for key, value in mapping.items()), key=lambda p: p[0].earliest
        )
        if not points:
            raise ValueError("empty timeline")
        return cls(tuple(points))

    def at(self, key: VersionKey) -> object:
        result: object = MISSING
        for boundary, value in self.points:
            if boundary.holds(key):
                result = value
        return result

    def changed_at(self, key: VersionKey) -> Boundary | None:
        """The boundary whose value is in force at `key` (None before the first one)."""
        found: Boundary | None = None
        for boundary, _ in self.points:
            if boundary.holds(key):
                found = boundary
        return found


def value_at(field: object, key: VersionKey) -> object:
    """A field that is either a constant or a `Timeline`, evaluated at `key`."""
    if isinstance(field, Timeline):
        return field.at(key)
    return field
