"""Write `data/mysql-charsets.json`: the storage engines, character sets and collations of real MySQL binaries.

Run by hand, never in CI (it needs the unpacked binaries of `fetch_server_help --keep DIR` and the
`mariadb` client)::

    .venv/bin/python -m advisor.optioncheck.generate_mysql_charsets DIR/innotune-mysql-5.7-*/tree DIR/innotune-mysql-8.0-*/tree

Why: `default_storage_engine`, `default_tmp_storage_engine`, `character_set_server`,
`character_set_filesystem` and `collation_server` take any text at option parsing; the start then aborts
on a name the server lacks (5.7.42 and 8.0.46, private instances: "Unknown/unsupported storage engine:
MyISAMx", "Unknown collation", and for a character set only "Aborting"). Each binary is started once on a
fresh data directory (`--initialize-insecure`, then `--no-defaults`), and its information_schema.ENGINES,
CHARACTER_SETS and COLLATIONS are read; the instance is stopped and its directory removed. No binary is
committed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from advisor.optioncheck.fetch_apt import unpacked_mysqld

OUT = Path(__file__).with_name("data") / "mysql-charsets.json"
_QUERIES = {
    "engines": "SELECT LOWER(ENGINE), SUPPORT FROM information_schema.ENGINES",
    "charsets": "SELECT LOWER(CHARACTER_SET_NAME), DEFAULT_COLLATE_NAME FROM information_schema.CHARACTER_SETS",
    "collations": "SELECT LOWER(COLLATION_NAME), CHARACTER_SET_NAME FROM information_schema.COLLATIONS",
    "defaults": "SELECT 'character_set_server', @@character_set_server UNION ALL "
    "SELECT 'collation_server', @@collation_server",
}


def _query(socket: Path, sql: str) -> dict[str, str]:
    done = subprocess.run(
        ["mariadb", "-S", str(socket), "-uroot", "-N", "-B", "-e", sql],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return dict(line.split("\t", 1) for line in done.stdout.splitlines())


def read_server(tree: Path) -> dict[str, Any]:
    """Start the binary on a scratch data directory and read what it has."""
    binary, env, version = unpacked_mysqld(tree)
    with tempfile.TemporaryDirectory(prefix="innotune-charsets-") as scratch:
        folder = Path(scratch)
        (folder / "files").mkdir()
        common = [f"--datadir={folder / 'data'}", "--user=root", f"--basedir={tree / 'usr'}",
                  f"--lc-messages-dir={tree / 'usr' / 'share' / 'mysql'}"]  # fmt: skip
        subprocess.run([binary, "--no-defaults", "--initialize-insecure", *common], env=env, check=True,
                       capture_output=True)  # fmt: skip
        extra = ["--mysqlx=OFF"] if " 8." in version or "Ver 8" in version else []
        server = subprocess.Popen(
            [binary, "--no-defaults", *common, f"--socket={folder / 's'}", "--skip-networking",
             f"--pid-file={folder / 'p'}", f"--secure-file-priv={folder / 'files'}", *extra],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            for _ in range(600):
                if (folder / "s").exists():
                    break
                time.sleep(0.1)
            read = {key: _query(folder / "s", sql) for key, sql in _QUERIES.items()}
            _query(folder / "s", "SHUTDOWN")
            server.wait(timeout=120)
        finally:
            if server.poll() is None:
                server.kill()
    engines = read["engines"]
    return {
        "binary": "mysqld " + version.split("Ver ", 1)[1].strip(),
        "engines": sorted(name for name, support in engines.items() if support in ("YES", "DEFAULT")),
        "engines_disabled": sorted(name for name, support in engines.items() if support == "NO"),
        "charsets": sorted(read["charsets"]),
        "collations": {name: charset for name, charset in sorted(read["collations"].items())},
        "defaults": read["defaults"],
    }


def main() -> None:
    lines: dict[str, Any] = {}
    for tree in map(Path, sys.argv[1:]):
        found = read_server(tree)
        version = found["binary"].split()[1].split("-", 1)[0]
        lines[version] = found
    document = {
        "_about": __doc__.split("\n\n")[3].replace("\n", " "),
        "generated_by": "python -m advisor.optioncheck.generate_mysql_charsets",
        "servers": lines,
    }
    OUT.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")
    counts = ", ".join(
        f"{version}: {len(found['collations'])} collations" for version, found in lines.items()
    )
    print(f"{OUT}: {counts}")


if __name__ == "__main__":
    main()
