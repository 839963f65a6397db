"""Which option names each server version accepts, from the servers' own test results (`data/names.json`).

The file holds, per flavor, a few snapshots (one server version each, with the repository, path and commit
its option list was read from) and, per name, which snapshots list it. Made by `generate_names`; read
lazily, once, the first time a verdict needs it.

Between two snapshots a name neither neighbour lists is not an option there, never certainly so (a copy
of the source may have dropped it) unless real binaries settle it (`exact`, `settled_by_binary`). A name no list
holds that the test results cannot hide (`blind`) is not an option of any version in the covered range.

A real binary's list (`complete`) hides nothing. A series with no list (MariaDB 10.2, 10.4, ...) is judged
from the lists around it; an option of other versions is never called refused there.
"""

from __future__ import annotations

import json
import os
from functools import cache
from typing import Any

from msgspec import Struct, field

# os.path, not pathlib: importing pathlib costs ~2 ms of start-up
DATA_FILE = os.path.join(os.path.dirname(__file__), "data", "names.json")
Version = tuple[int, ...]
OTHER_BUILDS = ("wsrep", "pxc", "ndb", "ndbcluster", "ndbinfo", "debug")  # Galera/PXC, NDB Cluster, debug


def _at(commit: str) -> str:
    return f" @ {commit[:12]}" if commit != "-" else ""


def _key(text: str) -> Version:
    return tuple(int(part) for part in text.split("."))


class Snapshot(Struct, frozen=True):
    """One server version's option list and where it was read."""

    version: Version
    source: str
    complete: bool = False  # read off a real binary: every option, plugins' included
    swallowed: frozenset[str] = frozenset()  # names it does not list but ignores with a warning


class NameHistory(Struct, frozen=True):
    """The option names of one flavor across its snapshots."""

    flavor: str
    snapshots: tuple[Snapshot, ...]
    listed: dict[str, str]  # name -> one '0'/'1' per snapshot
    blind_prefixes: tuple[str, ...] = ()
    blind_names: frozenset[str] = frozenset()
    option_before_variable: dict[str, Any] = field(default_factory=dict)
    build_dependent: frozenset[str] = frozenset()  # some builds leave these out: never judged from a list

    def names(self) -> frozenset[str]:
        """Every name some snapshot lists."""
        return frozenset(self.listed)

    def covers(self, version: Version) -> bool:
        """Is `version` within the range the snapshots speak for (first snapshot's series to the last)?"""
        first, last = self.snapshots[0].version, self.snapshots[-1].version
        return first[:2] <= version[:3] and version[:3] <= last

    def blind(self, name: str, version: Version | None = None) -> bool:
        """Would the test results leave this name out even where the server has it? Never where every
        snapshot around `version` is a real binary's complete list (unless a build may leave the name out)."""
        if name in self.build_dependent:
            return True
        if version is not None and _complete_around(self.flavor, version[:3]):
            return False
        return name in self.blind_names or any(
            name == prefix or name.startswith(prefix + "_") for prefix in self.blind_prefixes
        )

    def exact(self, version: Version) -> bool:
        """Do complete lists surround `version`, one of them of its own release series?"""
        return _complete_around(self.flavor, version[:3]) and any(
            self.snapshots[i].version[:2] == version[:2] for i in self.neighbours(version)
        )

    def settled_by_binary(self, name: str, version: Version) -> bool:
        """Does a binary of the target's series settle a name the test results hide (not other builds')?"""
        binary = _binary_above(self.flavor, version[:3])
        return (
            binary is not None and name not in self.build_dependent and name.split("_")[0] not in OTHER_BUILDS
        )

    def swallowed_near(self, name: str, version: Version) -> bool:
        """Does a snapshot around `version` take this unlisted name with a warning and ignore it?"""
        return any(name in self.snapshots[i].swallowed for i in self.neighbours(version))

    def neighbours(self, version: Version) -> tuple[int, ...]:
        """Indices of the nearest snapshots at or below and at or above `version`."""
        return _neighbours(self.flavor, version[:3])

    def listed_near(self, name: str, version: Version) -> bool:
        """Does a neighbouring snapshot of `version` list the name?"""
        bits = self.listed.get(name)
        return bits is not None and any(bits[i] == "1" for i in self.neighbours(version))

    def names_near(self, version: Version) -> frozenset[str]:
        """The names a neighbouring snapshot of `version` lists: what a misspelling may be corrected to."""
        return _names_near(self.flavor, version[:3])

    def seen_in(self, name: str) -> list[str]:
        """The snapshot versions that list the name, oldest first."""
        bits = self.listed.get(name, "")
        return [
            ".".join(map(str, snap.version))
            for snap, bit in zip(self.snapshots, bits, strict=False)
            if bit == "1"
        ]

    def source_of(self, version: Version) -> str:
        """The sources of the snapshots a verdict at `version` rests on."""
        return _sources(self.flavor, version[:3])


@cache
def _document() -> dict[str, Any]:
    with open(DATA_FILE, encoding="utf-8") as file:
        loaded: dict[str, Any] = json.load(file)
    return loaded


@cache
def history(flavor: str) -> NameHistory | None:
    """The name history of `flavor` ("mysql" or "mariadb"), or None without snapshots."""
    block = _document()["flavors"].get(flavor)
    if block is None:
        return None
    snapshots = tuple(
        Snapshot(
            _key(item["version"]),
            f"{item['repo']} {item['path']}" + _at(item["commit"]),
            bool(item.get("complete")),
            frozenset(item.get("swallowed", ())),
        )
        for item in block["snapshots"]
    )
    blind = block["blind"]
    return NameHistory(
        flavor,
        snapshots,
        block["names"],
        tuple(blind["prefixes"]),
        frozenset(blind["names"]),
        block["option_before_variable"],
        frozenset(blind.get("build_dependent", ())),
    )


# Per-version answers, memoised: an audit asks the same target version for every line.
@cache
def _neighbours(flavor: str, version: Version) -> tuple[int, ...]:
    snapshots = history(flavor).snapshots  # type: ignore[union-attr]
    below = [i for i, snap in enumerate(snapshots) if snap.version <= version]
    above = [i for i, snap in enumerate(snapshots) if snap.version >= version]
    return tuple(sorted({*(below[-1:]), *(above[:1])}))


@cache
def _complete_around(flavor: str, version: Version) -> bool:
    snapshots = history(flavor).snapshots  # type: ignore[union-attr]
    return all(snapshots[i].complete for i in _neighbours(flavor, version))


@cache
def _binary_above(flavor: str, version: Version) -> int | None:
    """A real binary's list of the series at or above `version`, with a list of the series below it (8.0.36:
    8.0.3 .. 8.0.46): a name no list holds would have had to come and go in between, unseen by the catalog."""
    snaps = history(flavor).snapshots  # type: ignore[union-attr]
    same = [i for i, snap in enumerate(snaps) if snap.version[:2] == version[:2]]
    above = [i for i in same if snaps[i].complete and snaps[i].version >= version]
    return above[0] if above and any(snaps[i].version < version for i in same) else None


@cache
def _sources(flavor: str, version: Version) -> str:
    snapshots = history(flavor).snapshots  # type: ignore[union-attr]
    near = _neighbours(flavor, version)
    text = "; ".join(snapshots[i].source for i in near)
    if not any(snapshots[i].version[:2] == version[:2] for i in near):
        series = ".".join(map(str, version[:2]))
        text += f" (no list of {series} itself: judged from the versions around it; a name neither lists is unknown)"
    return text


@cache
def _names_near(flavor: str, version: Version) -> frozenset[str]:
    near = _neighbours(flavor, version)
    binary = _binary_above(flavor, version)  # the series' real binary names what its test results hide
    near = near if binary is None else (*near, binary)
    listed = history(flavor).listed  # type: ignore[union-attr]
    return frozenset(name for name, bits in listed.items() if any(bits[i] == "1" for i in near))
