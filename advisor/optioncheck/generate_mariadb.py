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
import re
import shlex
import subprocess
from pathlib import Path

from advisor.optioncheck import generate_probes as probes
from advisor.optioncheck.generate_probes import canonical

DATA = Path(__file__).with_name("data") / "mariadb-10.11.json"
OPTION_LINE = re.compile(r"^  (?:-\S, )?--([A-Za-z0-9_-]+)(\[=(?:name|#)\]|=(?:name|#))?")
ISV_QUERY = (
    "SELECT VARIABLE_NAME, VARIABLE_TYPE, NUMERIC_MIN_VALUE, NUMERIC_MAX_VALUE, NUMERIC_BLOCK_SIZE, "
    "ENUM_VALUE_LIST, COMMAND_LINE_ARGUMENT, VARIABLE_SCOPE FROM information_schema.SYSTEM_VARIABLES"
)
ISV_TYPES = {
    "BOOLEAN": "bool", "INT": "int", "INT UNSIGNED": "uint", "BIGINT": "longlong",
    "BIGINT UNSIGNED": "ulonglong", "DOUBLE": "double", "ENUM": "enum", "SET": "set",
    "FLAGSET": "flagset", "VARCHAR": "string",
}  # fmt: skip
PLUGIN_SWITCH = ("OFF", "ON", "FORCE", "FORCE_PLUS_PERMANENT")


def parse_help(text: str) -> tuple[dict[str, str], dict[str, str], dict[str, list[str]]]:
    """Option name → argument column, name → value-table entry, name → "One of: ..." values."""
    head, _, table = text.partition("Variables (--variable-name=value)")
    arguments: dict[str, str] = {}
    descriptions: dict[str, str] = {}
    current = ""
    for line in head.splitlines():
        match = OPTION_LINE.match(line)
        if match:
            current = canonical(match.group(1))
            arguments[current] = match.group(2) or ""
            line = line[match.end() :]
        if current:
            descriptions[current] = descriptions.get(current, "") + " " + line.strip()
    one_of = {
        name: [word.strip() for word in found.group(1).split(",")]
        for name, text in descriptions.items()
        if (found := re.search(r"One of: ((?:[A-Za-z0-9_-]+, )+[A-Za-z0-9_-]+)", text))
    }
    values: dict[str, str] = {}
    for line in table.splitlines()[2:]:
        if not line.strip():
            break
        name, _, value = line.partition(" ")
        values[canonical(name)] = value.strip()
    return arguments, values, one_of


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
        if entry["type"] == "bool" and isv[6] in ("REQUIRED", "OPTIONAL", "NONE"):
            entry["arg"] = isv[6]  # the help column shows no '=' for booleans that still insist on one
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
        entry["type"], entry["src"] = ("ulonglong" if numeric_column else "string"), "help"
    return entry


def mark_plugin_switches(options: dict[str, dict[str, object]], plugins: list[str]) -> None:
    """`--<plugin>[=OFF|ON|FORCE|FORCE_PLUS_PERMANENT]`: the plugin parses its own switch."""
    for plugin in plugins:
        entry = options.get(canonical(plugin))
        if entry is not None and not entry["variable"] and entry["arg"] == "OPTIONAL":
            entry.update(type="enum", values=list(PLUGIN_SWITCH), plugin=plugin, src="help+probe")


def query(client: str, sql: str) -> list[str]:
    return subprocess.run([*shlex.split(client), "-B", "-N", "-e", sql], capture_output=True, text=True,
                          check=True).stdout.split()  # fmt: skip


def names_of(client: str, mariadbd: str) -> dict[str, list[str]]:
    """Character sets, collations and locales the server knows (values some options must name).

    Locale names are not in information_schema: candidates are read from the binary's strings and
    kept when the live server takes them (`SET lc_time_names`).
    """
    charsets = query(client, "SELECT CHARACTER_SET_NAME FROM information_schema.CHARACTER_SETS")
    collations = query(client, "SELECT COLLATION_NAME FROM information_schema.COLLATIONS")
    charsets += ["utf8"]  # utf8 = utf8mb3 while old_mode has UTF8_IS_UTF8MB3 (the 10.11 default)
    collations += [name.replace("utf8mb3_", "utf8_", 1) for name in collations if name.startswith("utf8mb3_")]
    strings = subprocess.run(["strings", mariadbd], capture_output=True, text=True).stdout
    candidates = sorted(set(re.findall(r"^([a-z]{2,3}_[A-Z]{2})$", strings, re.M)))
    sql = " ".join(f"SET lc_time_names='{name}'; SELECT @@lc_time_names;" for name in candidates)
    locales = sorted(set(query(client, sql)))
    return {"charsets": sorted(set(charsets)), "collations": sorted(set(collations)), "locales": locales}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mariadbd", default="/usr/sbin/mariadbd")
    parser.add_argument("--client", default="mariadb -uroot -h127.0.0.1")
    args = parser.parse_args()
    version = subprocess.run([args.mariadbd, "--version"], capture_output=True, text=True).stdout.strip()
    help_text = subprocess.run(
        [args.mariadbd, "--no-defaults", "--verbose", "--help"], capture_output=True, text=True
    ).stdout
    arguments, table, one_of = parse_help(help_text)
    isv = read_isv(args.client)
    options = {
        name: build_entry(name, column, table.get(name), isv.get(name)) for name, column in arguments.items()
    }
    for name, words in one_of.items():  # options that are not variables but take one of a list
        if options[name]["type"] == "string":
            options[name].update(type="enum", values=words, src="help")
    plugin_rows = subprocess.run(
        [*shlex.split(args.client), "-B", "-N", "-e",
         "SELECT PLUGIN_NAME FROM information_schema.ALL_PLUGINS WHERE PLUGIN_LIBRARY IS NULL"],
        capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    mark_plugin_switches(options, plugin_rows)
    probes.probe(args.mariadbd, options, plugin_rows)
    probes.probe_signed(args.mariadbd, options)
    probes.probe_loose_zero(args.mariadbd, options)
    probes.probe_maximum(args.mariadbd, options)
    compatible = probes.probe_compatibility(args.mariadbd, sorted(probes.stub_candidates() - set(options)))
    document = {
        "flavor": "mariadb",
        "version": "10.11",
        "sources": {
            "help": f"`mariadbd --no-defaults --verbose --help` of {version}",
            "isv": "information_schema.SYSTEM_VARIABLES of the live server of the same build",
            "probe": "one-line option files fed to the same binary (plugin ownership, early parse)",
        },
        "variables_only": sorted(set(isv) - set(arguments)),
        "mysql_compatibility_stubs": compatible,
        "names": names_of(args.client, args.mariadbd),
        "options": dict(sorted(options.items())),
    }
    DATA.write_text(json.dumps(document, indent=0, sort_keys=False) + "\n")
    print(f"{DATA}: {len(options)} options, {sum(1 for e in options.values() if e.get('plugin'))} in plugins")


if __name__ == "__main__":
    main()
