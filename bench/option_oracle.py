"""Differential proof: judge() against the real mariadbd, line by line (run by hand, ~5 minutes).

    .venv/bin/python bench/option_oracle.py [--mariadbd /usr/sbin/mariadbd] [--cases N]
    .venv/bin/python bench/option_oracle.py --server-binary TREE/usr/sbin/mariadbd --target-version 10.6.23

`--server-binary` asks a server unpacked from a distribution package (`python -m
advisor.optioncheck.fetch_server_help --keep DIR` leaves TREE under DIR; its libraries are found there) and
judges for `--target-version` (`mysql-8.0.46` for a MySQL binary); the figures then go to
bench/results/option_oracle-<version>.json and the suite's kept cases are left alone. The lines are still
generated from 10.11's options: on another version the names it lacks must be refused, and values judged
with 10.11's ranges show where the versions differ.

Generates option lines across every option MariaDB 10.11 knows (valid values, boundaries, out of
range, words, suffixes, decimals, abbreviations unique and ambiguous, misspellings, Windows-only
values, loose- forms), feeds each to `mariadbd --defaults-file=F --verbose --help` with F holding
`[mysqld]` and that line (`--no-defaults` may not be combined with `--defaults-file`: the server
then calls `--defaults-file` an unknown variable), and compares the server's reaction — refuses
(exit code not 0), disables a plugin ("Parsing options for plugin 'X' failed") or accepts — with
the verdict. Writes bench/results/option_oracle.json and tests/advisor/optioncheck/cases.json.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from advisor.optioncheck import Outcome, judge  # noqa: E402
from advisor.optioncheck.data import mariadb  # noqa: E402
from advisor.optioncheck.model import OptionFacts  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "option_oracle.json"
KEPT_CASES = ROOT / "tests" / "advisor" / "optioncheck" / "cases.json"
PLUGIN_FAILED = re.compile(r"Parsing options for plugin '([^']+)' failed")
# Options that change what --help does or where it writes, so they cannot be asked this way.
UNASKABLE = frozenset({"help", "verbose", "version", "log_error", "bootstrap", "user", "chroot"})
CLASS = {
    Outcome.ACCEPTS: "accepts", Outcome.CLAMPS: "accepts", Outcome.IGNORES_WITH_WARNING: "accepts",
    Outcome.DISABLES_PLUGIN: "disables_plugin", Outcome.REFUSES_TO_START: "refuses",
}  # fmt: skip
NUMERIC = ("int", "uint", "longlong", "ulonglong", "double")


def value_cases(facts: OptionFacts, rng: random.Random) -> list[str | None]:
    """Values worth asking about for one option's type."""
    kind = facts.type
    if kind in NUMERIC:
        low, high = facts.min if facts.min is not None else 0, facts.max
        values: list[str | None] = [
            str(low),
            "ON",
            "OFF",
            "1.5",
            "1.5G",
            "1x",
            "1K",
            "2M",
            "-1",
            "<value>",
            None,
        ]
        if high is not None:
            values += [str(high), str(int(high) + 1) if kind != "double" else str(float(high) * 2)]
        if isinstance(low, int) and low > 0:
            values.append(str(low - 1))
        values += ["99999999999999999999", "", "1e", "0x10", "1KB", "abc"]
    elif kind == "bool":
        values = ["ON", "OFF", "TRUE", "0", "1", "yes", "no", "2", "", None]
    elif kind in ("enum", "set", "flagset"):
        words = [value for value in facts.values if value != "default"] or ["x"]
        values = [*words[:4], words[0].lower(), words[0][:2], "0", str(len(words)), "no_such_value", None]
        if kind == "set":
            values += [",".join(words[:2]), words[0] + ",", "3"]
        if kind == "flagset":
            values += [f"{words[0]}=off", "default", f"{words[0]}=maybe", f"foo={words[0]}"]
    elif kind == "noarg":
        values = [None, "1"]
    else:
        values = ["foo", "", None, "<path>"]
    return rng.sample(values, min(len(values), 6))


def name_cases(
    name: str, facts: OptionFacts, all_names: list[str], rng: random.Random
) -> list[tuple[str, str | None]]:
    """Misspellings, abbreviations and prefixed forms of one name, each with a plain value."""
    plain = {"bool": "ON", "enum": facts.values[0] if facts.values else "x", "string": "foo", "noarg": None}
    value = plain.get(facts.type, str(facts.min if facts.min is not None else 1))
    cases: list[tuple[str, str | None]] = []
    if len(name) > 4:
        cut = rng.randrange(1, len(name) - 1)
        cases.append((name[:cut] + name[cut + 1 :], value))  # a letter dropped
        cases.append((name[:cut] + name[cut + 1] + name[cut] + name[cut + 2 :], value))  # two swapped
        shortest = next(
            (name[:n] for n in range(3, len(name)) if sum(o.startswith(name[:n]) for o in all_names) == 1),
            None,
        )
        if shortest:
            cases.append((shortest, value))
        shared = next(
            (
                name[:n]
                for n in range(len(name) - 1, 2, -1)
                if sum(o.startswith(name[:n]) for o in all_names) > 1
            ),
            None,
        )
        if shared:
            cases.append((shared, value))
    cases += [
        ("loose-" + name, "no_such_value" if facts.type != "string" else "x"),
        ("loose-" + name + "x", value),
    ]
    cases += [(f"{prefix}-{name}", None) for prefix in ("skip", "enable") if facts.type == "bool"]
    if rng.random() < 0.1:
        cases.append(("maximum-" + name, value))
    return cases


def generate(rng: random.Random) -> list[tuple[str, str | None]]:
    options = mariadb().options
    all_names = sorted(options)
    cases: list[tuple[str, str | None]] = [
        ("innodb_flush_method", w) for w in ("unbuffered", "normal", "async_unbuffered")
    ]
    cases += [
        (prefix, "1")
        for prefix in ("mysqlx_port", "rocksdb_block_size", "ndbcluster", "server_audit_logging")
    ]
    for name, facts in options.items():
        if name in UNASKABLE:
            continue
        cases += [(name, value) for value in value_cases(facts, rng)]
        cases += [case for case in name_cases(name, facts, all_names, rng) if case[0] not in UNASKABLE]
    return list(dict.fromkeys(cases))


@functools.cache
def server_command(binary: str) -> tuple[list[str], dict[str, str]]:
    """Arguments after --defaults-file and the environment: `--verbose --help` parses the options as at
    startup and exits; a MySQL 8.0 binary prints its help whatever it is given, so it is asked with
    `--validate-config` (8.0.16+), which parses them and exits 1 on an error. A binary unpacked from a
    package also needs its libraries, its messages and a datadir of its own."""
    env = {**os.environ, "LC_ALL": "C"}
    tree = Path(binary).resolve().parents[2]
    if binary == "/usr/sbin/mariadbd" or not (tree / "usr/share/mysql").is_dir():
        return ["--verbose", "--help"], env
    from advisor.optioncheck.fetch_apt import library_dirs

    env["LD_LIBRARY_PATH"] = library_dirs(tree)
    extra = [
        f"--lc-messages-dir={tree / 'usr/share/mysql'}",
        f"--datadir={tree}",
    ]  # not this machine's datadir
    version = subprocess.run([binary, "--version"], capture_output=True, text=True, env=env).stdout
    if "MariaDB" in version:
        return [*extra, "--verbose", "--help"], env
    extra.append(f"--secure-file-priv={tree}")  # MySQL checks the directory even for --help
    asks = (
        ["--validate-config"] if " 8." in version else ["--verbose", "--help"]
    )  # 5.7 has no --validate-config
    return [*extra, *asks], env


def ask(mariadbd: str, name: str, value: str | None) -> dict[str, object]:
    line = name if value is None else f"{name}={value}"
    extra, env = server_command(mariadbd)
    with tempfile.NamedTemporaryFile("w", suffix=".cnf", delete=False) as handle:
        handle.write(f"[mysqld]\n{line}\n")
    try:
        done = subprocess.run([mariadbd, f"--defaults-file={handle.name}", *extra],
                              capture_output=True, text=True, timeout=60, env=env)  # fmt: skip
    finally:
        os.unlink(handle.name)
    failed = PLUGIN_FAILED.findall(done.stderr)
    observed = "refuses" if done.returncode != 0 else "disables_plugin" if failed else "accepts"
    errors = [
        row.split("] ", 1)[-1]
        for row in done.stderr.splitlines()
        if "[ERROR]" in row or "[Warning] Buff" in row
    ]
    return {"name": name, "value": value, "observed": observed, "rc": done.returncode, "plugins": failed,
            "stderr": errors[:3]}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mariadbd", "--server-binary", dest="mariadbd", default="/usr/sbin/mariadbd")
    parser.add_argument(
        "--target-version", default="10.11", help="judge for this version (mysql-X.Y.Z: MySQL)"
    )
    parser.add_argument("--cases", type=int, default=6000, help="how many of the generated lines to ask")
    parser.add_argument("--observed", type=Path, default=Path(tempfile.gettempdir()) / "option_oracle_observed.json",
                        help="where the server's answers are kept (too big for the repository)")  # fmt: skip
    parser.add_argument("--rejudge", action="store_true", help="reuse --observed instead of asking again")
    parser.add_argument("--seed", type=int, default=1011, help="which lines are generated and asked")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    generated = generate(rng)
    cases = generated[:7] + rng.sample(generated[7:], min(args.cases, len(generated)) - 7)
    started = time.monotonic()
    if args.rejudge:
        rows = json.loads(args.observed.read_text())
    else:
        with ThreadPoolExecutor(max_workers=2) as pool:
            rows = list(pool.map(lambda case: ask(args.mariadbd, *case), cases))
        args.observed.write_text(json.dumps(rows))
    flavor = "mysql" if args.target_version.startswith("mysql") else "mariadb"
    for row in rows:
        verdict = judge(str(row["name"]), row["value"], flavor=flavor, version=args.target_version)  # type: ignore[arg-type,unused-ignore]
        row.update(predicted=CLASS[verdict.outcome], outcome=verdict.outcome.value, reason=verdict.reason,
                   message=verdict.message)  # fmt: skip
    report(rows, time.monotonic() - started, rng, args)


def report(
    rows: list[dict[str, object]], seconds: float, rng: random.Random, args: argparse.Namespace
) -> None:
    seed, installed = args.seed, args.mariadbd == "/usr/sbin/mariadbd"
    pairs = Counter(f"server {row['observed']} / judge {row['predicted']}" for row in rows)
    wrong = [row for row in rows if row["observed"] != row["predicted"]]
    refused = [row for row in rows if row["observed"] != "accepts"]
    missed = [row for row in refused if row["predicted"] == "accepts"]
    accepted = [row for row in rows if row["observed"] == "accepts"]
    false_alarms = [row for row in accepted if row["predicted"] != "accepts"]
    figures = {
        "cases": len(rows), "agreements": len(rows) - len(wrong), "disagreements": len(wrong),
        "server_refuses_or_disables": len(refused), "of_which_judge_says_accepts": len(missed),
        "server_accepts": len(accepted), "of_which_judge_says_critical": len(false_alarms),
        "false_alarm_rate": round(len(false_alarms) / max(1, len(accepted)), 5),
        "pairs": dict(sorted(pairs.items())), "seconds": round(seconds, 1), "seed": seed,
    }  # fmt: skip
    _, env = server_command(args.mariadbd)
    server = subprocess.run(
        [args.mariadbd, "--version"], capture_output=True, text=True, env=env
    ).stdout.strip()
    server = server.partition(" ")[2].strip() if not installed else server  # not the temporary directory
    out = RESULTS if installed else RESULTS.with_name(f"option_oracle-{args.target_version}.json")
    document = {
        "server": server,
        "target_version": args.target_version,
        "figures": figures,
        "disagreements": wrong,
    }
    out.write_text(json.dumps(document, indent=1) + "\n")
    print(json.dumps(figures, indent=1))
    for row in wrong[:40]:
        print(
            f"  {row['name']}={row['value']}: server {row['observed']} {row['stderr']} / judge {row['reason']}"
        )
    if not installed:
        return
    kept = rng.sample([row for row in rows if row not in wrong], min(400, len(rows) - len(wrong)))
    keys = ("name", "value", "observed", "outcome", "reason")
    KEPT_CASES.write_text(json.dumps([{key: row[key] for key in keys} for row in kept], indent=0) + "\n")


if __name__ == "__main__":
    main()
