"""Do the real MySQL 5.7 and 8.0 servers accept the files we recommend for them? (run by hand, ~2 minutes)

    .venv/bin/python bench/mysql_acceptance.py --servers DIR [--ubuntu-mirror URL]

The suite checks every recommended file for a MariaDB 10.11 target against the real mariadbd of this
machine (tests/fixtures/recommended_mariadbd.py); MySQL has no binary here. This script takes the real
`mysqld` of Ubuntu's mysql-server-core-5.7 and -8.0 packages (unpacked under DIR by
`python -m advisor.optioncheck.fetch_server_help --only mysql-5.7 --keep DIR`, and the same for
mysql-8.0; with --ubuntu-mirror it fetches them itself) and runs `mysqld --defaults-file=F --verbose
--help` — which parses every option as at startup, and checks some of them together (log_bin without
server_id on 5.7) — and, for 8.0, `--validate-config` too (its --help exits 0 on an unknown variable a real
start refuses) on what we recommend for:

- every example case of tests/advisor/cases whose target is MySQL 5.7 or 8.0 (not Percona Server: its
  own options are not Oracle MySQL's), judged by the binary of that line; a refusal of a case written for
  another patch release (8.0.2's query_cache_size, gone in 8.0.3) is listed apart, not as a defect;
- every real-world my.cnf of ../shared/corpus/realworld/mycnf audited as a MySQL 5.7.42 and an 8.0.46
  target (the binaries' own releases) with both profiles: the files were written for many servers, and
  config_validity must turn what those versions refuse into comments.

The user's own file is judged too: a file the server refused before and accepts after is one we mended;
one it refuses after is a defect, shown with the server's first [ERROR]. What the machine lacks (the
secure_file_priv and tmpdir folders of the user's machine, which 8.0 checks at --help, the error
messages and character set files) is given on the command line after the file, so only the file's
options are judged. Writes bench/results/mysql_acceptance.json.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

RESULTS = ROOT / "bench" / "results" / "mysql_acceptance.json"
CORPUS_MYCNF = ROOT.parent / "shared" / "corpus" / "realworld" / "mycnf"
LINES = {"5.7": "5.7.42", "8.0": "8.0.46"}
# [ERROR]s about this machine, not about the options: a path the file names that does not exist here.
_ENVIRONMENT = re.compile(
    r"Can't read from messagefile|secure-file-priv|Errcode: 2|No such file or directory"
)


class Server:
    """One unpacked mysqld and how to run it."""

    def __init__(self, tree: Path) -> None:
        from advisor.optioncheck.fetch_apt import unpacked_mysqld

        self.binary, self.env, self.version = unpacked_mysqld(tree)
        self.share = tree / "usr" / "share" / "mysql"

    def refusal(self, text: str, folder: Path) -> str | None:
        """The server's first [ERROR] on this option file (None: accepted)."""
        cnf = folder / "my.cnf"
        cnf.write_text(_body(text))
        files = folder / "files"
        files.mkdir(exist_ok=True)
        command = [
            str(self.binary),
            f"--defaults-file={cnf}",
            f"--secure-file-priv={files}",
            f"--lc-messages-dir={self.share}",
            f"--character-sets-dir={self.share / 'charsets'}",
            f"--tmpdir={files}",
            "--verbose",
            "--help",
            "--user=root",
        ]
        first = self._run(command)
        if first is not None or " 5.7." in self.version:
            return first
        # 8.0's --verbose --help exits 0 on an unknown variable (`thread_concurrency = 8`) that aborts a real
        # start; --validate-config (8.0.16+) exits 1 on it
        return self._run([*command[:-3], "--validate-config", "--user=root"])

    def _run(self, command: list[str]) -> str | None:
        done = subprocess.run(command, capture_output=True, text=True, env=self.env, timeout=60, check=False)
        errors = [
            line for line in done.stderr.splitlines() if "[ERROR]" in line and not _ENVIRONMENT.search(line)
        ]
        if done.returncode == 0 and not errors:
            return None
        return (errors or done.stderr.strip().splitlines()[-1:] or [f"exit code {done.returncode}"])[0][-300:]


def _body(text: str) -> str:
    """What the server reads of the upload: `!include` lines left out (their targets are not here)."""
    return "".join(
        line for line in text.splitlines(keepends=True) if not line.lstrip().startswith("!include")
    )


def _own_release(inputs: Any, line: str) -> bool:
    """Was the input written for the binary's own release (5.7.42, 8.0.46)? A case for 8.0.2 may rightly
    keep query_cache_size, which 8.0.46 refuses: such refusals are listed apart."""
    return inputs.server_version is None or inputs.server_version.startswith(LINES[line])


def _find_servers(folder: Path) -> dict[str, Server]:
    found = {}
    for line in LINES:
        trees = sorted(folder.glob(f"innotune-mysql-{line}-*/tree"))
        if not trees:
            raise SystemExit(
                f"no mysql-{line} tree under {folder}: run fetch_server_help --keep {folder} first"
            )
        found[line] = Server(trees[-1])
    return found


def _fetch(folder: Path, mirror: str) -> None:
    for line in LINES:
        if not list(folder.glob(f"innotune-mysql-{line}-*/tree")):
            subprocess.run(
                [sys.executable, "-m", "advisor.optioncheck.fetch_server_help", "--ubuntu-mirror", mirror,
                 "--only", f"mysql-{line}", "--keep", str(folder)],
                check=True, cwd=ROOT,
            )  # fmt: skip


def _recommended_text(inputs: Any) -> tuple[str, str, str]:
    """(the version line, the user's files as the server reads them, the recommended ones)."""
    from advisor import engine

    captured: dict[str, str] = {}
    render = engine.render_recommendation

    def capture(ctx: Any, findings: Any) -> Any:
        result = render(ctx, findings)
        unread = set(ctx.options.unread) if ctx.options is not None else set()
        captured["line"] = ctx.version.line if ctx.version.is_mysql else ""
        captured["before"] = "".join(text for path, text in inputs.mycnf.items() if path not in unread)
        captured["after"] = "".join(file.recommended for file in result.files if file.path not in unread)
        return result

    engine.render_recommendation = capture
    try:
        engine.audit(inputs)
    finally:
        engine.render_recommendation = render
    return captured.get("line", ""), captured.get("before", ""), captured.get("after", "")


def _inputs() -> Iterator[tuple[str, Any]]:
    from advisor.audit import AuditInputs
    from tests.advisor.case_files import load_cases

    for case in load_cases():
        yield f"case {case.id} ({case.inputs.server_version or 'version from its dump'})", case.inputs
    for path in sorted(CORPUS_MYCNF.iterdir()):
        for version in LINES.values():
            for profile in ("production", "ci"):
                yield (
                    f"corpus {path.name} as MySQL {version}, {profile}",
                    AuditInputs(
                        mycnf={f"/etc/mysql/{path.name}": path.read_text(errors="replace")},
                        server_version=version,
                        memory="16G",
                        cpus=4,
                        storage="ssd",
                        profile=profile,
                    ),
                )


def run(servers: dict[str, Server], progress: Callable[[str], None] = print) -> dict[str, Any]:
    from advisor.errors import InputError

    verdicts: dict[tuple[str, str], str | None] = {}
    checked = mended = refused_before = skipped = 0
    defects: list[dict[str, str]] = []
    other_release: list[dict[str, str]] = []  # a case written for another patch release of the line
    with tempfile.TemporaryDirectory(prefix="innotune-mysql-") as scratch:
        folder = Path(scratch)

        def judge(line: str, text: str) -> str | None:
            key = (line, _body(text))
            if key not in verdicts:
                verdicts[key] = servers[line].refusal(text, folder)
            return verdicts[key]

        for name, inputs in _inputs():
            try:
                line, before, after = _recommended_text(inputs)
            except InputError:
                skipped += 1
                continue
            if line not in servers or not after:
                continue
            checked += 1
            was, now = judge(line, before), judge(line, after)
            refused_before += was is not None
            mended += was is not None and now is None
            if now is not None and not _own_release(inputs, line):
                other_release.append({"input": name, "server": servers[line].version, "error": now})
            elif now is not None:
                defects.append({"input": name, "server": servers[line].version, "error": now})
                progress(f"REFUSED {name}: {now}")
    return {
        "servers": {line: server.version for line, server in servers.items()},
        "recommended_files_checked": checked,
        "distinct_texts_run": len(verdicts),
        "user_files_refused": refused_before,
        "mended_by_the_advice": mended,
        "recommended_refused": len(defects),
        "inputs_refused_by_the_parser": skipped,
        "refusals": defects,
        "refused_written_for_another_release": other_release,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--servers", type=Path, required=True, help="folder of fetch_server_help --keep trees"
    )
    parser.add_argument("--ubuntu-mirror", help="fetch the packages first when they are not under --servers")
    args = parser.parse_args()
    args.servers.mkdir(parents=True, exist_ok=True)
    if args.ubuntu_mirror:
        _fetch(args.servers, args.ubuntu_mirror)
    figures = run(_find_servers(args.servers))
    RESULTS.write_text(json.dumps(figures, indent=2) + "\n")
    print(json.dumps({key: value for key, value in figures.items() if key != "refusals"}, indent=2))


if __name__ == "__main__":
    main()
