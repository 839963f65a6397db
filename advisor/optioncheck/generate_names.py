"""Regenerate `data/names.json`: which option names each server version accepts, from the servers' own tests.

Run by hand after adding or changing a source extract (no network, no server needed)::

    .venv/bin/python -m advisor.optioncheck.generate_names [--check]

Inputs, every fact with its source:

* ``sources/<flavor>-<version>.names`` — the option names of one server version, as printed in the help
  section of its ``mysqld --verbose --help`` test result (``mysql-test/r/mysqld--help-notwin.result`` for
  MySQL). Each file starts with ``# key: value`` lines naming the flavor, version, repository, path and
  commit the names were read from (with the search tool's ``read_file``), and ``fork_adds``: options the
  copy of the source added, left out of the version's list; to refresh one, read the same file at a newer
  commit and write its ``--name`` entries in.
* ``sources/<flavor>-<version>.names`` with ``complete: yes`` — read off a real server binary of a Debian or
  Ubuntu package by ``fetch_server_help`` (the header names archive, suite, package, pool file and SHA256):
  every option the binary takes with its built-in plugins, nothing filtered out.
  Its ``swallowed`` line lists the names the binary does not print but takes with a warning and ignores
  (MySQL-compatibility options, removed options), found by feeding each candidate name to the binary.
* ``data/mariadb-10.11.json`` — MariaDB 10.11's names read off the real ``mariadbd`` (generate_mariadb).
* ``../catalog/variables.json`` — when the tuned catalog dates a system variable later than the first
  snapshot whose option list already has the name, the option predates the variable: recorded under
  ``option_before_variable``.

Output (``data/names.json``, format 1): per flavor the snapshots in version order, and per canonical name
a string of ``0``/``1``, one character per snapshot (``1``: the version's option list has the name). The
test results leave some names out on purpose (``blind``): the test's own filter drops plugin options and a
few build-dependent ones (mysql-test/include/mysqld--help.inc: ``@plugins`` and the ``--ssl`` cut), and
plugins loaded by default print no enable option. A verdict on such a name is trusted only where every
snapshot it rests on is ``complete`` (a real binary's list).

``--check`` rebuilds in memory and exits 1 when the checked-in file differs (a test runs it).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
SOURCES = HERE / "sources"
OUTPUT = HERE / "data" / "names.json"
MARIADB_REAL = HERE / "data" / "mariadb-10.11.json"
CATALOG = HERE.parent / "catalog" / "variables.json"
HEADER_KEYS = (
    "flavor",
    "version",
    "repo",
    "path",
    "commit",
    "note",
    "fork_adds",
    "sha256",
    "complete",
    "swallowed",
)

# Names the test results cannot show, per flavor (sources/blind.json: sources named there).
BLIND: dict[str, dict[str, Any]] = {
    flavor: block
    for flavor, block in json.loads((SOURCES / "blind.json").read_text()).items()
    if flavor != "_about"
}


def canonical(name: str) -> str:
    return name.strip().lower().replace("-", "_")


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def read_extract(path: Path) -> tuple[dict[str, str], set[str]]:
    """(header, names) of one `.names` file."""
    header: dict[str, str] = {}
    names: set[str] = set()
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            key, colon, value = line[1:].strip().partition(":")
            if colon and key in HEADER_KEYS:
                header[key] = value.strip()
            continue
        names.update(canonical(word) for word in line.split())
    missing = [key for key in HEADER_KEYS[:5] if key not in header]
    if missing:
        raise SystemExit(f"{path}: header lacks {', '.join(missing)}")
    # options the copy of the source added (not upstream's): read, recorded, but not listed for the version
    return header, names - {canonical(word) for word in header.get("fork_adds", "").split()}


def real_mariadb() -> tuple[dict[str, str], set[str]]:
    document = json.loads(MARIADB_REAL.read_text())
    header = {
        "flavor": "mariadb",
        "version": "10.11.19",
        "repo": "mariadbd 10.11.19-MariaDB-0+deb12u1 on this machine",
        "path": "--verbose --help and information_schema.SYSTEM_VARIABLES (data/mariadb-10.11.json)",
        "commit": "-",
        "note": "complete: read off the real server with its plugins (generate_mariadb)",
        "complete": "yes",
        "swallowed": " ".join(document.get("mysql_compatibility_stubs", ())),
    }
    return header, set(document["options"])


def snapshots() -> dict[str, list[tuple[dict[str, str], set[str]]]]:
    found: dict[str, list[tuple[dict[str, str], set[str]]]] = {}
    for path in sorted(SOURCES.glob("*.names")):
        header, names = read_extract(path)
        found.setdefault(header["flavor"], []).append((header, names))
    found.setdefault("mariadb", []).append(real_mariadb())
    for listed in found.values():
        listed.sort(key=lambda item: version_key(item[0]["version"]))
    return found


def _catalog_since(flavor: str) -> dict[str, str]:
    """The tuned catalog's first version of each system variable of the flavor (plain `since` only)."""
    since: dict[str, str] = {}
    for name, entry in json.loads(CATALOG.read_text())["variables"].items():
        block = entry.get(flavor)
        if not isinstance(block, dict):
            continue
        value = block.get("since", entry.get("since"))
        if isinstance(value, str) and value != "0" and "," not in value:
            since[name] = value
    return since


def option_before_variable(flavor: str, listed: list[tuple[dict[str, str], set[str]]]) -> dict[str, Any]:
    """Catalog names whose option appears in a snapshot older than the variable's `since`."""
    found: dict[str, Any] = {}
    for name, since in sorted(_catalog_since(flavor).items()):
        for header, names in listed:
            if name in names and version_key(header["version"]) < version_key(since):
                found[name] = {"option_seen": header["version"], "variable_since": since}
                break
    return found


def snapshot_entry(header: dict[str, str], names: set[str]) -> dict[str, Any]:
    """A snapshot's provenance, whether it is a real binary's complete list, and the names it swallows."""
    entry: dict[str, Any] = {**header, "complete": header.get("complete") == "yes", "count": len(names)}
    entry["swallowed"] = sorted(
        canonical(word) for word in header.get("swallowed", "").split() if word != "-"
    )
    return entry


def build() -> dict[str, Any]:
    flavors: dict[str, Any] = {}
    for flavor, listed in sorted(snapshots().items()):
        every = sorted(set().union(*(names for _, names in listed)))
        flavors[flavor] = {
            "snapshots": [snapshot_entry(header, names) for header, names in listed],
            "blind": BLIND.get(flavor, {"source": "", "prefixes": [], "names": []}),
            "option_before_variable": option_before_variable(flavor, listed),
            "names": {name: "".join("1" if name in names else "0" for _, names in listed) for name in every},
        }
    made_by = "python -m advisor.optioncheck.generate_names (from sources/*.names; do not edit)"
    return {"format": 1, "generated_by": made_by, "flavors": flavors}


def render(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=1, sort_keys=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when data/names.json is stale")
    args = parser.parse_args(argv)
    text = render(build())
    if args.check:
        stale = not OUTPUT.exists() or OUTPUT.read_text() != text
        print(f"{OUTPUT} is {'stale' if stale else 'up to date'}")
        return 1 if stale else 0
    OUTPUT.write_text(text)
    for flavor, block in json.loads(text)["flavors"].items():
        counts = ", ".join(f"{item['version']}: {item['count']}" for item in block["snapshots"])
        print(f"{flavor}: {counts}; option before variable: {len(block['option_before_variable'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
