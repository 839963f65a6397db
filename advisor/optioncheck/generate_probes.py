"""Probes for generate_mariadb: one-line option files fed to the real binary (a tool, never imported
by the judge). Each probe learns one thing the help text and SYSTEM_VARIABLES do not say.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from advisor.optioncheck.versions import history

PLUGIN_FAILED = re.compile(r"Parsing options for plugin '([^']+)' failed")
UNASKABLE = ("help", "verbose", "version", "log_error")
CATALOG = Path(__file__).parents[1] / "catalog" / "variables.json"
SWITCHES = ("help+probe", "help+probe: switch takes any value")  # `--<plugin>=ON|OFF|FORCE`


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
    jobs: list[tuple[str, str | None]] = [
        (name, value) for name, entry in options.items() if (value := probe_value(entry)) is not None
    ]
    jobs += [
        (name, None)
        for name, entry in options.items()
        if entry["type"] == "bool" and entry["arg"] == "REQUIRED"
    ]
    with ThreadPoolExecutor(max_workers=2) as pool:  # a bare boolean that needs a value names its plugin
        results = list(
            pool.map(lambda job: run_line(mariadbd, job[0] if job[1] is None else f"{job[0]}={job[1]}"), jobs)
        )
    for (name, _), (returncode, stderr) in zip(jobs, results, strict=True):
        failed = PLUGIN_FAILED.search(stderr)
        if failed:  # a plugin switch keeps its own plugin (a prefix of it can fail another's list too)
            options[name].setdefault("plugin", failed.group(1))
        elif (
            options[name]["src"] in ("help+probe", "help") and returncode == 0 and "Error while" not in stderr
        ):
            # a switch or help-only option that took the bad value without a word (debug-exit-info)
            switch = options[name]["src"] == "help+probe"
            options[name].update(
                type="string", src=f"help+probe: {'switch ' if switch else ''}takes any value"
            )
            options[name].pop("values", None)
        elif "Buffered" in stderr:
            options[name]["early"] = True
    for plugin in plugins:  # options nobody could probe (strings) follow their family's plugin
        family = canonical(plugin) + "_"
        members = [e for key, e in options.items() if key.startswith(family) and e["src"] not in SWITCHES]
        owners = {entry.get("plugin") for entry in members if refusable(entry)}
        if owners == {plugin}:
            for entry in members:
                entry["plugin"] = plugin


def probe_maximum(mariadbd: str, options: dict[str, dict[str, object]]) -> None:
    """`maximum-<name>` works only where the server keeps a maximum (session variables, mostly)."""
    names = [name for name in options if name not in UNASKABLE]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda name: run_line(mariadbd, f"maximum-{name}=0"), names))
    for name, (_, stderr) in zip(names, results, strict=True):
        if "cannot be set" not in stderr:
            options[name]["maximum_ok"] = True


def probe_loose_zero(mariadbd: str, options: dict[str, dict[str, object]]) -> None:
    """`loose-<core number>=<bad>` leaves the variable at 0; for some the server then dies."""
    names = [n for n, e in options.items() if e.get("plugin") is None and e["type"] in ("uint", "ulonglong",
             "int", "longlong") and n not in UNASKABLE]  # fmt: skip
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda name: run_line(mariadbd, f"loose-{name}=zz"), names))
    for name, (returncode, _) in zip(names, results, strict=True):
        if returncode != 0:
            options[name]["loose_bad_fatal"] = True


def probe_signed(mariadbd: str, options: dict[str, dict[str, object]]) -> None:
    """Numeric options that are no system variable show only `=#` in the help: fed -1, a signed one logs
    "signed value -1 adjusted to 0" and starts (debug_*_event_count, feedback_send_*), an unsigned one
    refuses ("Incorrect unsigned value"). The signed ones become longlong with minimum 0."""
    names = [n for n, e in options.items() if e.get("src") == "help" and e["type"] == "ulonglong"]
    for name in names:
        returncode, stderr = run_line(mariadbd, f"{name}=-1")
        if returncode == 0 and "adjusted" in stderr and "Parsing options for plugin" not in stderr:
            options[name].update(type="longlong", min=0, src="help+probe")


def probe_compatibility(mariadbd: str, names: list[str]) -> list[str]:
    """MySQL names MariaDB takes and ignores ("... is MySQL 5.6 / 5.7 compatible option"), and removed names
    it still swallows ("'multi-range-count' was removed. It does nothing now...")."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda name: run_line(mariadbd, f"{name}=1"), names))
    return [
        name
        for name, (rc, stderr) in zip(names, results, strict=True)
        if rc == 0 and ("compatible" in stderr or "was removed" in stderr)
    ]


def stub_candidates() -> set[str]:
    """Names 10.11 may swallow with a warning: every name some MySQL or MariaDB list holds (or some binary
    swallows) and the tuned catalog's variables. MySQL's names alone missed the options MariaDB itself
    removed (innodb_lock_schedule_algorithm, innodb_scrub_log, ...: 10.11.19 warns 'was removed', starts)."""
    candidates = set(json.loads(CATALOG.read_text(encoding="utf-8"))["variables"])
    for flavor in ("mysql", "mariadb"):
        names = history(flavor)
        if names is not None:
            candidates |= set(names.listed)
            candidates.update(*(snap.swallowed for snap in names.snapshots))
    return candidates - set(UNASKABLE)
