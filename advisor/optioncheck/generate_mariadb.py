"""Regenerate `data/mariadb-10.11.json`: every option name MariaDB accepts, as the server itself reports.

Run by hand on a machine with the server installed and a live instance (documented in the package
docstring)::

    .venv/bin/python -m advisor.optioncheck.generate_mariadb [--mariadbd /usr/sbin/mariadbd]
        [--client "mariadb -uroot -h127.0.0.1"]

Sources, recorded in the file's ``sources`` block:

* ``help``: ``mariadbd --no-defaults --verbose --help`` — every option name, its argument column
  (``=#``, ``=name``, ``[=name]`` or none) and the value table (TRUE/FALSE marks booleans);
* ``isv``: ``information_schema.SYSTEM_VARIABLES`` of the live server — type, range, block size,
  enum/set values, COMMAND_LINE_ARGUMENT;
* ``probe``: one-line option files fed to the binary — which plugin parses an option family (the
  server names it when it disables that plugin) and which core options are parsed in the early pass
  (their messages are "Buffered"), which decides how MariaDB resolves an abbreviated name.

This module is a tool, not part of the judge: it runs subprocesses and is never imported by it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

DATA = Path(__file__).with_name("data") / "mariadb-10.11.json"
OPTION_LINE = re.compile(r"^  (?:-\S, )?--([A-Za-z0-9_-]+)(\[=(?:name|#)\]|=(?:name|#))?")
ISV_QUERY = (
    "SELECT VARIABLE_NAME, VARIABLE_TYPE, NUMERIC_MIN_VALUE, NUMERIC_MAX_VALUE, NUMERIC_BLOCK_SIZE, "
    "ENUM_VALUE_LIST, COMMAND_LINE_ARGUMENT FROM information_schema.SYSTEM_VARIABLES"
)
ISV_TYPES = {
    "BOOLEAN": "bool", "INT": "int", "INT UNSIGNED": "uint", "BIGINT": "longlong",
    "BIGINT UNSIGNED": "ulonglong", "DOUBLE": "double", "ENUM": "enum", "SET": "set",
    "FLAGSET": "flagset", "VARCHAR": "string",
}  # fmt: skip
PLUGIN_SWITCH = ("OFF", "ON", "FORCE", "FORCE_PLUS_PERMANENT")
PLUGIN_FAILED = re.compile(r"Parsing options for plugin '([^']+)' failed")


def canonical(name: str) -> str:
    return name.lower().replace("-", "_")


def run_line(mariadbd: str, line: str) -> tuple[int, str]:
    """Feed `[mysqld]` + one line to the binary; return its exit code and stderr."""
    with tempfile.NamedTemporaryFile("w", suffix=".cnf", delete=False) as handle:
        handle.write(f"[mysqld]\n{line}\n")
    try:
        done = subprocess.run(
            [mariadbd, f"--defaults-file={handle.name}", "--verbose", "--help"],
            capture_output=True, text=True, timeout=60, env={**os.environ, "LC_ALL": "C"},
        )  # fmt: skip
        return done.returncode, done.stderr
    finally:
        os.unlink(handle.name)


def parse_help(text: str) -> tuple[dict[str, str], dict[str, str]]:
    """Option name → argument column, and name → value-table entry."""
    head, _, table = text.partition("Variables (--variable-name=value)")
    arguments: dict[str, str] = {}
    for line in head.splitlines():
        match = OPTION_LINE.match(line)
        if match:
            arguments[canonical(match.group(1))] = match.group(2) or ""
    values: dict[str, str] = {}
    for line in table.splitlines()[2:]:
        if not line.strip():
            break
        name, _, value = line.partition(" ")
        values[canonical(name)] = value.strip()
    return arguments, values


def read_isv(client: str) -> dict[str, list[str]]:
    output = subprocess.run(
        [*shlex.split(client), "-B", "-N", "-e", ISV_QUERY], capture_output=True, text=True, check=True
    ).stdout
    return {row[0].lower(): row for row in (line.split("\t") for line in output.splitlines())}


def number(text: str) -> int | float | None:
    if text in ("", "NULL"):
        return None
    value = float(text)
    return int(text) if value.is_integer() and "." not in text else value


def build_entry(name: str, column: str, table_value: str | None, isv: list[str] | None) -> dict[str, object]:
    arg = {"": "NONE", "=#": "REQUIRED", "=name": "REQUIRED"}.get(column, "OPTIONAL")
    entry: dict[str, object] = {"arg": arg, "variable": isv is not None}
    numeric_column = "#" in column
    if isv is not None and not (isv[1] == "BOOLEAN" and "name" in column):
        entry["type"] = ISV_TYPES[isv[1]]
        for key, index in (("min", 2), ("max", 3), ("block", 4)):
            value = number(isv[index])
            if value is not None and entry["type"] not in ("bool", "enum", "set", "flagset"):
                entry[key] = value
        if isv[5] not in ("", "NULL") and entry["type"] in ("enum", "set", "flagset"):
            entry["values"] = isv[5].split(",")
        elif entry["type"] in ("enum", "set"):  # character sets, locales: names, checked after parsing
            entry["type"] = "string"
        entry["src"] = "isv+help"
    elif column == "" and table_value in ("TRUE", "FALSE"):
        entry["type"], entry["arg"], entry["src"] = "bool", "OPTIONAL", "help"
    elif column == "":
        entry["type"], entry["src"] = "noarg", "help"
    else:
        entry["type"], entry["src"] = ("longlong" if numeric_column else "string"), "help"
    return entry


def probe_value(entry: dict[str, object]) -> str | None:
    """A value this option's parser refuses (None: every value is accepted)."""
    kind = entry["type"]
    if kind in ("int", "uint", "longlong", "ulonglong", "double"):
        return "zz"
    if kind in ("enum", "set", "flagset"):
        return "zz_no_such_value"
    if kind == "bool":
        return "zz"
    return None


def refusable(entry: dict[str, object]) -> bool:
    """Whether a bad value makes the parser fail (booleans only warn), so a probe names the plugin."""
    return probe_value(entry) is not None and entry["type"] != "bool"


def probe(mariadbd: str, options: dict[str, dict[str, object]], plugins: list[str]) -> None:
    """Mark which plugin parses each option family and which core options are parsed early."""
    jobs = [(name, value) for name, entry in options.items() if (value := probe_value(entry)) is not None]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda job: run_line(mariadbd, f"{job[0]}={job[1]}"), jobs))
    for (name, _), (_, stderr) in zip(jobs, results, strict=True):
        failed = PLUGIN_FAILED.search(stderr)
        if failed:  # a plugin switch keeps its own plugin (a prefix of it can fail another's list too)
            options[name].setdefault("plugin", failed.group(1))
        elif "Buffered" in stderr:
            options[name]["early"] = True
    for plugin in plugins:  # options nobody could probe (strings) follow their family's plugin
        family = canonical(plugin) + "_"
        members = [e for key, e in options.items() if key.startswith(family) and e["src"] != "help+probe"]
        owners = {entry.get("plugin") for entry in members if refusable(entry)}
        if owners == {plugin}:
            for entry in members:
                entry["plugin"] = plugin


def mark_plugin_switches(options: dict[str, dict[str, object]], plugins: list[str]) -> None:
    """`--<plugin>[=OFF|ON|FORCE|FORCE_PLUS_PERMANENT]`: the plugin parses its own switch."""
    for plugin in plugins:
        entry = options.get(canonical(plugin))
        if entry is not None and not entry["variable"] and entry["arg"] == "OPTIONAL":
            entry.update(type="enum", values=list(PLUGIN_SWITCH), plugin=plugin, src="help+probe")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mariadbd", default="/usr/sbin/mariadbd")
    parser.add_argument("--client", default="mariadb -uroot -h127.0.0.1")
    args = parser.parse_args()
    version = subprocess.run([args.mariadbd, "--version"], capture_output=True, text=True).stdout.strip()
    help_text = subprocess.run(
        [args.mariadbd, "--no-defaults", "--verbose", "--help"], capture_output=True, text=True
    ).stdout
    arguments, table = parse_help(help_text)
    isv = read_isv(args.client)
    options = {name: build_entry(name, column, table.get(name), isv.get(name)) for name, column in arguments.items()}
    plugin_rows = subprocess.run(
        [*shlex.split(args.client), "-B", "-N", "-e",
         "SELECT PLUGIN_NAME FROM information_schema.ALL_PLUGINS WHERE PLUGIN_LIBRARY IS NULL"],
        capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    mark_plugin_switches(options, plugin_rows)
    probe(args.mariadbd, options, plugin_rows)
    document = {
        "flavor": "mariadb",
        "version": "10.11",
        "sources": {
            "help": f"`mariadbd --no-defaults --verbose --help` of {version}",
            "isv": "information_schema.SYSTEM_VARIABLES of the live server of the same build",
            "probe": "one-line option files fed to the same binary (plugin ownership, early parse)",
        },
        "variables_only": sorted(set(isv) - set(arguments)),
        "options": dict(sorted(options.items())),
    }
    DATA.write_text(json.dumps(document, indent=0, sort_keys=False) + "\n")
    print(f"{DATA}: {len(options)} options, {sum(1 for e in options.values() if e.get('plugin'))} in plugins")


if __name__ == "__main__":
    main()
