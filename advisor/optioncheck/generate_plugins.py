"""Regenerate `data/mariadb-10.11-plugins.json`: the options each plugin library adds when it is loaded.

Run by hand on a machine with the server and its plugin directory installed::

    .venv/bin/python -m advisor.optioncheck.generate_plugins [--mariadbd /usr/sbin/mariadbd]
        [--plugin-dir /usr/lib/mysql/plugin]

For each library in the plugin directory the binary is asked for its help twice — ``--no-defaults
--verbose --help`` and the same with ``--plugin-load-add=LIBRARY`` — and the options only the second
lists are that library's (names, argument column, "One of:" values, the plugin switch). Types come from
the help text alone (no live instance): ``=#`` is a number whose range is not recorded, ``=name`` a
string or a list of values, a bare flag with TRUE/FALSE a boolean.

This module is a tool, not part of the judge: it runs subprocesses and is never imported by it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
from pathlib import Path

from advisor.optioncheck.generate_mariadb import PLUGIN_SWITCH, build_entry, parse_help

DATA = Path(__file__).with_name("data") / "mariadb-10.11-plugins.json"


def help_text(mariadbd: str, *extra: str) -> str:
    done = subprocess.run(
        [mariadbd, "--no-defaults", *extra, "--verbose", "--help"],
        capture_output=True, text=True, timeout=120, env={**os.environ, "LC_ALL": "C"},
    )  # fmt: skip
    return done.stdout


def library_options(mariadbd: str, library: str, base: set[str]) -> dict[str, dict[str, object]]:
    """The options `--plugin-load-add=library` adds to the help, each with what the help says of it."""
    arguments, table, one_of = parse_help(help_text(mariadbd, f"--plugin-load-add={library}"))
    options: dict[str, dict[str, object]] = {}
    for name in sorted(set(arguments) - base):
        entry = build_entry(name, arguments[name], table.get(name), None)
        words = one_of.get(name, [])
        if words[:3] == list(PLUGIN_SWITCH[:3]) or words[:2] == ["ON", "OFF"]:  # `--<plugin>[=ON|OFF|FORCE]`
            entry.update(type="enum", values=list(PLUGIN_SWITCH))
        elif words and entry["type"] == "string":
            entry.update(type="enum", values=words)
        options[name] = {**entry, "plugin": library, "src": "help, plugin loaded"}
    return options


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mariadbd", default="/usr/sbin/mariadbd")
    parser.add_argument("--plugin-dir", default="/usr/lib/mysql/plugin")
    args = parser.parse_args()
    version = subprocess.run([args.mariadbd, "--version"], capture_output=True, text=True).stdout.strip()
    base = set(parse_help(help_text(args.mariadbd))[0])
    libraries = sorted(p.stem for p in Path(args.plugin_dir).glob("*.so"))
    found = {library: library_options(args.mariadbd, library, base) for library in libraries}
    document = {
        "source": f"`mariadbd --no-defaults --plugin-load-add=LIBRARY --verbose --help` of {version}, "
        f"minus the same without it; libraries of {args.plugin_dir}",
        "libraries": found,
    }
    DATA.write_text(json.dumps(document, indent=0) + "\n")
    counts = {library: len(options) for library, options in found.items()}
    print(f"{DATA}: {counts}")


if __name__ == "__main__":
    main()
