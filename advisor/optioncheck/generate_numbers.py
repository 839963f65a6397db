"""Write `data/mysql-numbers.json`: the MySQL options whose value is a number, read off real binaries.

Run by hand, never in CI (it needs the unpacked binaries of `fetch_server_help --keep DIR`)::

    .venv/bin/python -m advisor.optioncheck.generate_numbers DIR/innotune-mysql-5.7-*/tree DIR/innotune-mysql-8.0-*/tree

Why: MySQL's names come from lists that carry no types (data/names.json), so an option MariaDB lacks — the
X Plugin's `mysqlx_port`, say — took any value, while the server refuses `mysqlx_port = 3<mysql-port>`
("Unknown suffix '<' used for variable 'mysqlx-port'", 8.0.46). `mysqld --no-defaults --verbose --help`
prints a number option as `--name=#` (`[=#]` when the value is optional): those names are kept, with
where they came from. No binary is committed.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from advisor.optioncheck.data import canonical
from advisor.optioncheck.fetch_apt import unpacked_mysqld

OUT = Path(__file__).with_name("data") / "mysql-numbers.json"
_NUMBER = re.compile(r"^  (?:-\w, )?--([a-z0-9-]+)(\[?)=#", re.MULTILINE)
_OPTION = re.compile(r"^  (?:-\w, )?--([a-z0-9-]+)", re.MULTILINE)


def numbers(tree: Path) -> tuple[str, dict[str, str], set[str]]:
    """(the binary's version line, name → REQUIRED or OPTIONAL for every number option it prints, every
    option it prints)."""
    binary, env, version = unpacked_mysqld(tree)
    shown = subprocess.run(
        [binary, "--no-defaults", "--verbose", "--help"], capture_output=True, text=True, env=env, check=False
    ).stdout
    found = {
        canonical(name): "OPTIONAL" if bracket else "REQUIRED" for name, bracket in _NUMBER.findall(shown)
    }
    return version.strip().split(" Ver ", 1)[-1], found, {canonical(name) for name in _OPTION.findall(shown)}


def main(trees: list[str]) -> None:
    """Names that are numbers in every binary listing them (a type that changed is left out)."""
    names: dict[str, str] = {}
    versions, other = [], set()
    for tree in trees:
        version, found, listed = numbers(Path(tree))
        versions.append(version)
        names.update(found)
        other |= listed - set(found)
    names = {name: arg for name, arg in names.items() if name not in other}
    document = {
        "source": "`mysqld --no-defaults --verbose --help` of " + "; ".join(versions),
        "numbers": dict(sorted(names.items())),
    }
    OUT.write_text(json.dumps(document, indent=1) + "\n")
    print(f"{len(names)} number options -> {OUT}")


if __name__ == "__main__":
    main(sys.argv[1:])
