"""What real binaries' complete lists settle about names the test results hide (InnoDB, Aria, X Plugin...).

The servers' ``mysqld--help`` test results leave every plugin option out (``NameHistory.blind``), so between
two such lists an InnoDB name could not be judged at all: MySQL 9.1 or MariaDB 12.3 let ``innodb_bufer_pool_size``
through as a mere warning. A real binary's list (``complete``: ``fetch_server_help`` off a Debian/Ubuntu package,
e.g. MySQL 8.4.13 and 9.7.4, MariaDB 11.8.9) hides nothing, and three facts follow from such lists:

* ``never_an_option`` — a name no list of the flavor ever held, that no list swallowed and that starts no listed
  name, is refused by every server of the flavor: my_getopt stops at an unknown name ("unknown variable"; MySQL
  5.5/5.6 and MariaDB also take a unique prefix, hence the prefix test). Used for near-misses of known options
  (the did-you-mean machinery): the one way such a name could be real is an option added and removed between two
  complete lists and spelt one or two edits from another option; no such pair is known to us.
* ``removed`` — an older complete list has the name, and the nearest complete list at or below the target and every
  list after it neither list nor swallow it: an option dropped before the target (MariaDB 12.x and
  ``innodb_api_enable_binlog``: in the 10.0.38 and 10.1.48 binaries, in none from 10.3.39 to 11.8.9).
* ``unseen_between`` — the nearest complete lists at or below and at or above the target both lack the name.

Pure functions of the checked-in history (``data/names.json``), memoised per flavor and version.
"""

from __future__ import annotations

from bisect import bisect_left
from functools import cache

from advisor.optioncheck.versions import NameHistory, Version, history


def _history(flavor: str) -> NameHistory:
    names = history(flavor)
    assert names is not None, f"data/names.json has no {flavor} snapshots"
    return names


@cache
def complete_around(flavor: str, version: Version) -> tuple[int | None, int | None]:
    """Indices of the nearest complete (real binary) lists at or below and at or above `version`."""
    snaps = _history(flavor).snapshots
    below = [i for i, snap in enumerate(snaps) if snap.complete and snap.version <= version]
    above = [i for i, snap in enumerate(snaps) if snap.complete and snap.version >= version]
    return (below[-1] if below else None), (above[0] if above else None)


def _takes(names: NameHistory, name: str, index: int) -> bool:
    """Does snapshot `index` list the name, or take it with a warning?"""
    return names.listed.get(name, "")[index : index + 1] == "1" or name in names.snapshots[index].swallowed


def removed(flavor: str, name: str, version: Version) -> bool:
    """Dropped before `version`: an older real binary took it; the nearest one at or below `version` and every
    list after that one do not."""
    names = _history(flavor)
    low, _ = complete_around(flavor, version[:3])
    if low is None or name in names.build_dependent:
        return False
    earlier = any(_takes(names, name, i) for i in range(low) if names.snapshots[i].complete)
    return earlier and not any(_takes(names, name, i) for i in range(low, len(names.snapshots)))


def unseen_between(flavor: str, name: str, version: Version) -> bool:
    """Do the nearest real binaries' lists on both sides of `version` both lack the name?"""
    names = _history(flavor)
    low, high = complete_around(flavor, version[:3])
    if low is None or high is None or name in names.build_dependent:
        return False
    return not _takes(names, name, low) and not _takes(names, name, high)


@cache
def _every_name(flavor: str) -> tuple[str, ...]:
    names = _history(flavor)
    swallowed = {name for snap in names.snapshots for name in snap.swallowed}
    return tuple(sorted({*names.listed, *swallowed}))


def never_an_option(flavor: str, name: str) -> bool:
    """No list of the flavor holds or swallows the name, nor any name it abbreviates."""
    every = _every_name(flavor)
    index = bisect_left(every, name)
    return index == len(every) or not every[index].startswith(name)


@cache
def correction_names(flavor: str, version: Version) -> frozenset[str]:
    """What a misspelling may be corrected to at `version`: the neighbouring lists' names, and the hidden (plugin)
    names of the nearest real binary's list below that the nearest one above, if any, still has (MariaDB 12.3's
    test result lists no InnoDB option; 11.8.9's binary does)."""
    names = _history(flavor)
    near = names.names_near(version)
    low, high = complete_around(flavor, version[:3])
    if low is None:
        return near
    hidden = {
        name
        for name, bits in names.listed.items()
        if bits[low] == "1" and names.blind(name) and (high is None or bits[high] == "1")
    }
    return near | hidden
