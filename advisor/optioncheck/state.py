"""The state of one judge() call: what was written, the flavor's data and the version history behind it."""

from __future__ import annotations

import re

from advisor.optioncheck import data as catalogs
from advisor.optioncheck import names as naming
from advisor.optioncheck import settled
from advisor.optioncheck.model import Outcome, Verdict
from advisor.optioncheck.names import Resolution
from advisor.optioncheck.plugins import with_plugins
from advisor.optioncheck.versions import history


def parse_version(version: str | tuple[int, ...]) -> tuple[int, ...]:
    if isinstance(version, tuple):
        return version
    return tuple(int(part) for part in re.findall(r"\d+", version)[:3]) or (0,)


def line(specials: list[str], name: str, value: str | None) -> str:
    written = "-".join([*specials, name]) if specials else name
    return written if value is None else f"{written} = {value}"


class Judgement:
    """The state of one call: what was written, what it resolved to, and the data behind it."""

    def __init__(self, name: str, value: str | None, flavor: str, version: tuple[int, ...], os: str,
                 plugins: frozenset[str] = frozenset()) -> None:  # fmt: skip
        self.written, self.value, self.flavor, self.version, self.os = name, value, flavor, version, os
        self.plugins = plugins
        self.data, self.history = catalogs.mariadb(), history(flavor)
        if flavor == "mysql":  # the MySQL lists around the target, with the real binaries' plugin options
            covered = self.history is not None and self.history.covers(version)
            near = settled.correction_names(flavor, version) if covered else None
            self.data = catalogs.mysql_near(near) if near is not None else catalogs.mysql()
        elif version[:2] == (10, 11):  # read off the real mariadbd 10.11: complete, plugins and values too
            self.history = None
        elif self.history is not None and self.history.exact(version):  # real binaries' lists around it
            self.data = catalogs.mariadb_near(self.history.names_near(version))
        else:  # other MariaDB: 10.11's facts, and the names of every MariaDB list
            self.data = catalogs.mariadb_wide()
        if plugins and flavor == "mariadb":  # options of the libraries the file loads (plugin_load_add)
            self.data = with_plugins(self.data, plugins)
        if self.history is None:
            self.certain = flavor == "mariadb"
            self.basis = f"{self.data.flavor} {self.data.version} ({self.data.source})"
        else:
            self.certain = self.history.covers(version)
            self.basis = f"{flavor} option lists: {self.history.source_of(version)}"
        self.specials: list[str] = []

    def verdict(self, outcome: Outcome, reason: str, message: str, **extra: object) -> Verdict:
        certain = bool(extra.pop("certain", True)) and self.certain
        return Verdict(outcome, message, reason, self.written, basis=self.basis, certain=certain, **extra)  # type: ignore[arg-type]

    def resolve(self, name: str) -> Resolution:
        if self.flavor == "mariadb":
            return naming.resolve_mariadb(name, self.data)
        return naming.resolve_mysql(name, self.data)
