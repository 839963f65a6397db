"""Write `sources/<flavor>-<version>.names` from a real server binary of a distribution package.

Run by hand, never in CI (it needs the package archives)::

    .venv/bin/python -m advisor.optioncheck.fetch_server_help --ubuntu-mirror URL [--debian-mirror URL]
        [--only mariadb-10.6] [--keep DIR]  # MySQL 9.7: Debian sid, the one MySQL 9.x a distribution ships

Why: the servers' own `mysqld--help.result` test files cannot be found for MariaDB 10.0-10.6, and the MySQL
ones hide every plugin option (InnoDB included). Debian and Ubuntu shipped those servers; their packages hold
the real binary, and `mysqld --no-defaults --verbose --help` lists every option it takes, built-in plugins
included (a loadable plugin is not loaded by --no-defaults: no options here, as on a server without it).

How: apt itself, with a private state directory (the machine's own apt configuration is not touched),
downloads the `*-server-core-*` package and the library packages it depends on that this machine lacks
(old libssl, libsnappy, ...); apt checks each file against the SHA256 of its package index, and the Debian
indexes against the Debian archive keys. The Ubuntu indexes cannot be checked that way here (Debian 12
ships no Ubuntu keyring): the files still match the index's SHA256, which is recorded, but the index itself
is taken on trust. The packages are unpacked with `dpkg-deb -x` into a temporary directory, the binary is run with
LD_LIBRARY_PATH pointing at the unpacked libraries (a build for a newer C library than this machine's,
trixie's 11.8, runs under its own unpacked loader and libc), and only the option names are kept: no binary is
committed. Each `.names` file names the archive, suite, package, version, pool file and SHA256 it came from
(the mirror host is a command-line argument: the operator's choice, not a fact about the server).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from advisor.optioncheck.fetch_apt import Apt, Target, debian_mirror, library_dirs, missing_libraries, unpack
from advisor.optioncheck.generate_mariadb import parse_help

SOURCES = Path(__file__).with_name("sources")
NAMES = Path(__file__).with_name("data") / "names.json"
MARIADB_REAL = Path(__file__).with_name("data") / "mariadb-10.11.json"
CATALOG = Path(__file__).parents[1] / "catalog" / "variables.json"


TARGETS = (
    Target("mariadb-10.0", "ubuntu", ("xenial", "xenial-updates"), ("main", "universe"), "mariadb-server-core-10.0",
           "usr/sbin/mysqld"),
    Target("mariadb-10.1", "ubuntu", ("bionic", "bionic-updates"), ("main", "universe"), "mariadb-server-core-10.1",
           "usr/sbin/mysqld"),
    Target("mariadb-10.3", "ubuntu", ("focal", "focal-updates"), ("main", "universe"), "mariadb-server-core-10.3",
           "usr/sbin/mysqld"),
    Target("mariadb-10.5", "debian", ("bullseye",), ("main",), "mariadb-server-core-10.5", "usr/sbin/mariadbd"),
    Target("mariadb-10.6", "ubuntu", ("jammy", "jammy-updates"), ("main", "universe"), "mariadb-server-core-10.6",
           "usr/sbin/mariadbd"),
    Target("mariadb-11.8", "debian", ("trixie",), ("main",), "mariadb-server-core", "usr/sbin/mariadbd",
           own_runtime=True),
    Target("mariadb-11.4", "ubuntu", ("plucky", "plucky-updates"), ("main", "universe"), "mariadb-server-core",
           "usr/sbin/mariadbd", own_runtime=True),
    Target("mysql-5.7", "ubuntu", ("bionic", "bionic-updates"), ("main",), "mysql-server-core-5.7",
           "usr/sbin/mysqld"),
    Target("mysql-8.0", "ubuntu", ("jammy", "jammy-updates"), ("main",), "mysql-server-core-8.0",
           "usr/sbin/mysqld"),
    Target("mysql-8.4", "ubuntu", ("resolute", "resolute-updates"), ("main",), "mysql-server-core",
           "usr/sbin/mysqld", own_runtime=True),
    Target("mysql-9.7", "debian", ("sid",), ("main",), "mysql-server-core", "usr/sbin/mysqld", own_runtime=True),
)  # fmt: skip


def server_help(tree: Path, target: Target) -> tuple[str, str, list[str], dict[str, str]]:
    """(version line, --verbose --help output, command, environment) of the unpacked server."""
    binary = tree / target.binary
    env = {**os.environ, "LD_LIBRARY_PATH": library_dirs(tree)}
    loader: list[str] = []
    if target.own_runtime:  # the suite's own dynamic loader, so its C library is the one used
        loader = [str(next(tree.glob("usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"))), "--library-path",
                  env.pop("LD_LIBRARY_PATH")]  # fmt: skip
    else:
        missing = missing_libraries(binary, env["LD_LIBRARY_PATH"])
        if missing:
            raise SystemExit(f"{target.label}: libraries still missing: {', '.join(missing)}")
    share = tree / "usr/share/mysql"
    base = [
        *loader,
        str(binary),
        "--no-defaults",
        f"--lc-messages-dir={share}",
        f"--plugin-dir={tree}/nowhere",
        f"--datadir={tree}",  # not this machine's server's: its mysql.plugin table would load plugins
    ]
    if target.label.startswith("mysql"):  # MySQL checks this directory even for --help
        base.append(f"--secure-file-priv={tree}")
    version = subprocess.run([*loader, str(binary), "--version"], capture_output=True, text=True, env=env)
    done = subprocess.run([*base, "--verbose", "--help"], capture_output=True, text=True, env=env)
    if done.returncode != 0 or "Variables (--variable-name=value)" not in done.stdout:
        raise SystemExit(
            f"{target.label}: --help failed (rc {done.returncode}): {done.stderr.strip()[-400:]}"
        )
    version_line = version.stdout.strip().partition(" ")[2].strip()  # without the temporary path
    return version_line, done.stdout, base, env


def swallowed(base: list[str], env: dict[str, str], listed: set[str]) -> list[str]:
    """Names the binary does not list but takes with a warning and ignores: MySQL options MariaDB accepts
    for compatibility ("... is MySQL 5.6 / 5.7 compatible option") and removed ones it still swallows
    ("'innodb-log-files-in-group' was removed. It does nothing now ..."). Candidates: every name some
    other version or flavor lists, the tuned catalog's variables and 10.11's known stubs."""
    candidates = set(json.loads(CATALOG.read_text())["variables"])
    candidates |= set(json.loads(MARIADB_REAL.read_text()).get("mysql_compatibility_stubs", ()))
    for block in json.loads(NAMES.read_text())["flavors"].values():
        candidates |= set(block["names"])
    ordered = sorted(candidates - listed - {"help", "verbose", "version"})

    def run(name: str) -> bool:
        command = [*base, f"--{name}=1", "--verbose", "--help"]
        done = subprocess.run(command, capture_output=True, text=True, env={**env, "LC_ALL": "C"}, timeout=60)
        return done.returncode == 0 and ("compatible" in done.stderr or "was removed" in done.stderr)

    with ThreadPoolExecutor(max_workers=2) as pool:
        return [name for name, kept in zip(ordered, pool.map(run, ordered), strict=True) if kept]


def write_names(target: Target, record: dict[str, str], extra: list[str], version_line: str, help_text: str,
                stubs: list[str]) -> Path:  # fmt: skip
    """The `.names` file: header with the provenance, then the option names as the binary prints them."""
    arguments, _, _ = parse_help(help_text)
    printed = re.findall(r"^  (?:-\S, )?--([A-Za-z0-9_-]+)", help_text.partition("Variables (--")[0], re.M)
    names = sorted({name for name in printed if name.replace("-", "_").lower() in arguments})
    release = re.search(r"Ver (\d+\.\d+\.\d+)", version_line)
    if release is None:
        raise SystemExit(f"{target.label}: no version in {version_line!r}")
    flavor = target.label.split("-")[0]
    suites = ", ".join(target.suites)
    header = {
        "flavor": flavor,
        "version": release.group(1),
        "repo": f"{target.archive.capitalize()} archive, {suites} ({' '.join(target.components)}): {target.package} "
        f"{record['Version']} (amd64)",
        "path": f"{record['Filename']}: {target.binary} --no-defaults --verbose --help",
        "commit": "-",
        "sha256": record["SHA256"],
        "complete": "yes",
        "swallowed": " ".join(stubs) or "-",
        "note": f"read off the real binary ({version_line}); built-in plugins' options included, loadable "
        f"plugins not loaded; libraries unpacked beside it: {'; '.join(extra) or 'none'}",
    }
    lines = [
        f"# every `--name` the binary of the package below prints for --verbose --help ({len(names)} names)"
    ]
    lines += [f"# {key}: {value}" for key, value in header.items()]
    lines += textwrap.wrap(" ".join(names), 110, break_on_hyphens=False)
    out = SOURCES / f"{flavor}-{release.group(1)}.names"
    out.write_text("\n".join(lines) + "\n")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--debian-mirror", help="Debian archive base URL (default: this machine's apt source)"
    )
    parser.add_argument("--ubuntu-mirror", help="Ubuntu archive base URL (needed for the Ubuntu targets)")
    parser.add_argument("--only", action="append", help="labels to fetch (default: all)")
    parser.add_argument("--keep", type=Path, help="unpack here and keep it (default: a temporary directory)")
    args = parser.parse_args(argv)
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)  # mkdtemp(dir=) wants it to exist
    mirrors = {"debian": args.debian_mirror or debian_mirror(), "ubuntu": args.ubuntu_mirror}
    failed = 0
    for target in TARGETS:
        if args.only and target.label not in args.only:
            continue
        mirror = mirrors[target.archive]
        if not mirror:
            print(f"{target.label}: no {target.archive} mirror given, skipped", file=sys.stderr)
            continue
        work = Path(tempfile.mkdtemp(prefix=f"innotune-{target.label}-", dir=args.keep))
        try:
            apt = Apt(work / "apt", target, mirror)
            apt.run("apt-get", "update")
            record, extra = unpack(apt, target, work / "tree")
            version_line, help_text, base, env = server_help(work / "tree", target)
            listed = set(parse_help(help_text)[0])
            stubs = swallowed(base, env, listed) if target.label.startswith("mariadb") else []
            out = write_names(target, record, extra, version_line, help_text, stubs)
            print(f"{target.label}: {record['Version']} -> {out.name}")
        except SystemExit as error:
            failed += 1
            print(f"{target.label}: {error}", file=sys.stderr)
        finally:
            if args.keep is None:
                shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
