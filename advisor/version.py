"""Server versions: what `SELECT VERSION()` (and `@@version_comment`) or `--server-version` says.

`parse_version` understands the spellings servers and packagers actually produce:

* MySQL: `8.0.36`, `5.7.44-log`, `5.1.73-log`, `9.1.0`, `8.0.36-0ubuntu0.22.04.1`, `8.0.35-cluster`
* Percona Server: `8.0.32-24`, `8.0.35-27-log`, `5.6.51-91.0` (the `-NN` release suffix), or any
  version whose `version_comment` names Percona
* MariaDB: `10.11.6-MariaDB`, `11.4.2-MariaDB-log`, `10.11.6-MariaDB-1:10.11.6+maria~ubu2204` and the
  replication-compatibility form `5.5.5-10.3.39-MariaDB` that older clients see
* CLI shorthands: `mariadb-10.11`, `mysql 8.0`, `percona-8.0.32`, `MariaDB 10.11.6`

A version without a patch number (`8.0`, `mariadb-10.11`) stands for the newest release of that line:
it compares above every `8.0.x`, and catalog lookups see the line's latest facts.
"""

from __future__ import annotations

import re
from functools import total_ordering
from typing import Literal

from msgspec import Struct, field

from advisor.errors import InputError
from advisor.patterns import lazy

Flavor = Literal["mysql", "mariadb", "percona"]
FLAVORS: tuple[Flavor, ...] = ("mysql", "mariadb", "percona")

#: The patch number used for comparisons when a version names only its line (`8.0`).
LATEST_PATCH = 9999

_FLAVOR_WORDS: dict[str, Flavor] = {
    "mysql": "mysql",
    "oracle": "mysql",
    "mariadb": "mariadb",
    "maria": "mariadb",
    "percona": "percona",
    "ps": "percona",
    "pxc": "percona",
}
# An optional flavor word in front: `mariadb-10.11`, `MySQL 8.0.36`, `percona:8.0`.
_PREFIX_RE = re.compile(
    r"^\s*(?P<word>[a-z]+)(?:[\s_:/-]*(?:server|community|enterprise|edition))*[\s_:/=-]*(?=\d)", re.I
)
_NUMBERS_RE = re.compile(
    r"^(?P<major>\d{1,3})\.(?P<minor>\d{1,3})(?:\.(?P<patch>\d{1,4}))?(?P<rest>.*)$", re.S
)
# Percona's release suffix: `-24`, `-91.0`, `-27-log`, `-48-debug`.
_PERCONA_SUFFIX_RE = lazy(r"^-\d{1,3}(?:\.\d{1,3})?(?:-(?:log|debug|valgrind|asan))*$", re.I)
_MARIADB_COMPAT_PREFIX = "5.5.5-"
# Percona Server 5.1/5.5 wrote its release as `5.1.61rel13.2` or `5.5.20-rel24.1`.
_OLD_PERCONA_REL_RE = lazy(r"^-?rel\d+(?:\.\d+)*(?:-(?:log|debug))*$", re.I)


@total_ordering
class ServerVersion(Struct, frozen=True, eq=False):
    """A server version: flavor plus `major.minor.patch`, with the text it was parsed from.

    Versions order by number (`key`), flavor breaking ties; comparing a MariaDB version with a MySQL
    one is allowed but means little. Percona Server numbers are MySQL numbers.
    """

    flavor: Flavor
    major: int
    minor: int
    patch: int = 0
    raw: str = field(default="")
    patch_known: bool = True

    # ------------------------------------------------------------------ identity and order
    @property
    def key(self) -> tuple[int, int, int]:
        """`(major, minor, patch)`; a line without a patch compares as its newest release."""
        return (self.major, self.minor, self.patch if self.patch_known else LATEST_PATCH)

    def as_tuple(self) -> tuple[int, int, int]:
        """Same as `key`: ready to compare with `(8, 0)` or `(10, 5, 2)`."""
        return self.key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ServerVersion):
            return NotImplemented
        return (self.key, self.flavor) == (other.key, other.flavor)

    def __hash__(self) -> int:
        return hash((self.key, self.flavor))

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, ServerVersion):
            return NotImplemented
        return (self.key, self.flavor) < (other.key, other.flavor)

    # ------------------------------------------------------------------ convenience
    @property
    def line(self) -> str:
        """The release line: `8.0`, `10.11`."""
        return f"{self.major}.{self.minor}"

    @property
    def is_mariadb(self) -> bool:
        return self.flavor == "mariadb"

    @property
    def is_mysql(self) -> bool:
        """True for Oracle MySQL only (Percona Server answers False; see `is_mysql_family`)."""
        return self.flavor == "mysql"

    @property
    def is_percona(self) -> bool:
        return self.flavor == "percona"

    @property
    def is_mysql_family(self) -> bool:
        """MySQL or Percona Server: same version numbers, same variables (plus Percona's own)."""
        return self.flavor != "mariadb"

    @property
    def catalog_flavor(self) -> Literal["mysql", "mariadb"]:
        """The numbering family: `mariadb`, or `mysql` for MySQL and Percona Server."""
        return "mariadb" if self.flavor == "mariadb" else "mysql"

    def at_least(self, major: int, minor: int = 0, patch: int = 0) -> bool:
        """`version.at_least(5, 6, 20)`: is this release 5.6.20 or newer (numbers only, any flavor)?"""
        return self.key >= (major, minor, patch)

    def before(self, major: int, minor: int = 0, patch: int = 0) -> bool:
        """The opposite of `at_least`."""
        return not self.at_least(major, minor, patch)

    @property
    def number(self) -> str:
        """`8.0.36`, or `10.11` when the patch was not given."""
        return f"{self.major}.{self.minor}.{self.patch}" if self.patch_known else self.line

    @property
    def product(self) -> str:
        return {"mysql": "MySQL", "mariadb": "MariaDB", "percona": "Percona Server"}[self.flavor]

    def describe(self) -> str:
        """`MariaDB 10.11.6`, `Percona Server 8.0.32`, `MySQL 8.0`."""
        return f"{self.product} {self.number}"

    def __str__(self) -> str:
        return self.describe()

    def with_flavor(self, flavor: Flavor) -> ServerVersion:
        """The same numbers under another flavor (e.g. Percona read as MySQL)."""
        return ServerVersion(flavor, self.major, self.minor, self.patch, self.raw, self.patch_known)


def _flavor_from_comment(comment: str | None) -> Flavor | None:
    if not comment:
        return None
    text = comment.lower()
    if "percona" in text:
        return "percona"
    if "mariadb" in text:
        return "mariadb"
    if "mysql" in text:
        return "mysql"
    return None


def parse_version(version: str, version_comment: str | None = None) -> ServerVersion:
    """Parse `@@version` (optionally with `@@version_comment`) or a `--server-version` value.

    Raises `InputError` for text that holds no `major.minor` version.
    """
    if not isinstance(version, str):
        raise InputError(f"server version must be text, not {type(version).__name__}")
    raw = version.strip()
    text = raw
    if not text:
        raise InputError("empty server version")
    if len(text) > 200:
        raise InputError(f"server version is too long to be a version: {text[:40]!r}...")

    flavor: Flavor | None = None
    prefix = _PREFIX_RE.match(text)
    if prefix is not None:
        word = prefix.group("word").lower()
        if word == "v":
            word = ""
        elif word not in _FLAVOR_WORDS:
            raise InputError(f"unknown server flavor {prefix.group('word')!r} in version {raw!r}")
        flavor = _FLAVOR_WORDS.get(word)
        text = text[prefix.end() :]

    # MariaDB's replication-compatibility form: `5.5.5-10.3.39-MariaDB`.
    if text.startswith(_MARIADB_COMPAT_PREFIX) and re.match(r"\d+\.\d+", text[len(_MARIADB_COMPAT_PREFIX) :]):
        text = text[len(_MARIADB_COMPAT_PREFIX) :]
        flavor = flavor or "mariadb"

    match = _NUMBERS_RE.match(text)
    if match is None:
        raise InputError(f"not a server version: {raw!r} (expected something like 8.0.36 or 10.11.6-MariaDB)")
    major, minor = int(match.group("major")), int(match.group("minor"))
    patch_text, rest = match.group("patch"), match.group("rest")
    if rest and not re.match(r"^[-+~_ ]", rest) and not _OLD_PERCONA_REL_RE().match(rest):
        raise InputError(f"not a server version: {raw!r}")
    if major < 3 or major > 99:
        raise InputError(f"implausible server version {raw!r}: major version {major}")

    comment_flavor = _flavor_from_comment(version_comment)
    if "mariadb" in rest.lower():
        detected: Flavor | None = "mariadb"
    elif "percona" in rest.lower():
        detected = "percona"
    elif comment_flavor is not None:
        detected = comment_flavor
    elif patch_text is not None and (_PERCONA_SUFFIX_RE().match(rest) or _OLD_PERCONA_REL_RE().match(rest)):
        detected = "percona"
    else:
        detected = None

    if flavor is None:
        flavor = detected or ("mariadb" if major >= 10 else "mysql")
    elif flavor == "mysql" and detected == "percona":
        flavor = "percona"
    elif detected == "mariadb" and flavor != "mariadb":
        raise InputError(f"version {raw!r} says MariaDB but was given as {flavor}")

    if flavor != "mariadb" and major >= 10:
        raise InputError(f"no {flavor} release is numbered {major}.{minor}: {raw!r}")

    return ServerVersion(
        flavor=flavor,
        major=major,
        minor=minor,
        patch=int(patch_text) if patch_text is not None else 0,
        raw=raw,
        patch_known=patch_text is not None,
    )
