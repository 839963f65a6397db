"""apt with a private state directory, and unpacking a server package with the libraries it lacks here.

Part of `fetch_server_help` (run by hand, never in CI): apt checks every downloaded file against the SHA256
of its package index (and the Debian indexes against the Debian archive keys); the machine's own apt
configuration and installed packages are not touched.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

DEBIAN_KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
HOST_LIBRARIES = ("libc6", "libgcc-s1", "libgcc1", "libstdc++6", "zlib1g", "debconf")


@dataclass(frozen=True)
class Target:
    """One server build: where its package lives and which file in it is the server."""

    label: str  # flavor-series, e.g. mariadb-10.6
    archive: str  # "debian" or "ubuntu"
    suites: tuple[str, ...]
    components: tuple[str, ...]
    package: str
    binary: str
    own_runtime: bool = False  # built against a newer C library than this machine's: bring the suite's own


class Apt:
    """apt-get/apt-cache over one archive's suites, with every state file under `root`."""

    def __init__(self, root: Path, target: Target, mirror: str) -> None:
        self.root = root
        for sub in ("state/lists/partial", "cache/archives/partial", "parts", "debs"):
            (root / sub).mkdir(parents=True, exist_ok=True)
        (root / "status").touch()
        trust = f"signed-by={DEBIAN_KEYRING}" if target.archive == "debian" else "trusted=yes"
        lines = [
            f"deb [arch=amd64 {trust}] {mirror} {suite} {' '.join(target.components)}"
            for suite in target.suites
        ]
        (root / "sources.list").write_text("\n".join(lines) + "\n")
        self.options = [
            f"-oDir::Etc::SourceList={root / 'sources.list'}", f"-oDir::Etc::SourceParts={root / 'parts'}",
            f"-oDir::State={root / 'state'}", f"-oDir::Cache={root / 'cache'}",
            f"-oDir::State::status={root / 'status'}", "-oAPT::Architecture=amd64", "-oAcquire::Languages=none",
            "-oDebug::NoLocking=1", "-oAPT::Sandbox::User=root",
        ]  # fmt: skip

    def run(self, tool: str, *args: str, cwd: Path | None = None) -> str:
        done = subprocess.run([tool, "-q", *self.options, *args], capture_output=True, text=True, cwd=cwd)
        if done.returncode != 0:
            raise SystemExit(f"{tool} {' '.join(args)} failed: {done.stderr.strip()[-400:]}")
        return done.stdout

    def show(self, package: str) -> dict[str, str]:
        """The index record apt would install (the candidate): Version, Filename, SHA256, Depends."""
        policy = self.run("apt-cache", "policy", package)
        found = re.search(r"Candidate: (\S+)", policy)
        if found is None or found.group(1) == "(none)":
            raise SystemExit(f"{package}: not in the index")
        for record in self.run("apt-cache", "show", f"{package}={found.group(1)}").split("\n\n"):
            fields = dict(re.findall(r"^([A-Za-z0-9-]+): (.*)$", record, re.M))
            if fields.get("Version") == found.group(1):
                return fields
        raise SystemExit(f"{package}: no record for {found.group(1)}")

    def download(self, package: str) -> tuple[dict[str, str], Path]:
        record = self.show(package)
        self.run("apt-get", "download", f"{package}={record['Version']}", cwd=self.root / "debs")
        deb = self.root / "debs" / Path(record["Filename"]).name.replace(":", "%3a")
        if not deb.exists():  # apt escapes the epoch colon in the saved name
            deb = next((self.root / "debs").glob(f"{package}_*.deb"))
        digest = hashlib.sha256(deb.read_bytes()).hexdigest()
        if digest != record["SHA256"]:
            raise SystemExit(f"{deb.name}: sha256 {digest} is not the index's {record['SHA256']}")
        return record, deb


def first_alternatives(depends: str) -> list[str]:
    """Package names of a Depends field, first alternative of each, without version or arch."""
    return [re.split(r"[\s(:]", part.split("|")[0].strip())[0] for part in depends.split(",") if part.strip()]


def installed_here(package: str) -> bool:
    done = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
    return done.returncode == 0 and "installed" in done.stdout


def missing_libraries(binary: Path, library_path: str) -> list[str]:
    done = subprocess.run(["ldd", str(binary)], capture_output=True, text=True,
                          env={**os.environ, "LD_LIBRARY_PATH": library_path})  # fmt: skip
    return re.findall(r"^\s*(\S+) => not found", done.stdout, re.M)


def unpack(apt: Apt, target: Target, tree: Path) -> tuple[dict[str, str], list[str]]:
    """Unpack the server package and every library package it needs that this machine lacks."""
    record, deb = apt.download(target.package)
    subprocess.run(["dpkg-deb", "-x", str(deb), str(tree)], check=True)
    extra: list[str] = []
    wanted = ("lib", "zlib1g") if target.own_runtime else ("lib",)
    queue = [name for name in first_alternatives(record.get("Depends", "")) if name.startswith(wanted)]
    seen: set[str] = set()
    while queue:
        name = queue.pop()
        if name in seen or (not target.own_runtime and (name in HOST_LIBRARIES or installed_here(name))):
            continue
        seen.add(name)
        try:
            library, library_deb = apt.download(name)
        except SystemExit as error:  # a virtual package or one this machine provides otherwise
            print(f"  skipped {name}: {error}", file=sys.stderr)
            continue
        subprocess.run(["dpkg-deb", "-x", str(library_deb), str(tree)], check=True)
        extra.append(f"{name} {library['Version']}")
        queue += [dep for dep in first_alternatives(library.get("Depends", "")) if dep.startswith(wanted)]
    return record, extra


def library_dirs(tree: Path) -> str:
    found = {str(path.parent) for path in tree.rglob("*.so*") if path.parent.name != "plugin"}
    return ":".join(sorted(found))


class UnpackedServer(NamedTuple):
    """The mysqld of a tree `fetch_server_help --keep` left, the environment it runs in (its unpacked
    libraries), and its `--version` line."""

    binary: Path
    env: dict[str, str]
    version: str


def unpacked_mysqld(tree: Path) -> UnpackedServer:
    binary = tree / "usr" / "sbin" / "mysqld"
    env = {"LD_LIBRARY_PATH": library_dirs(tree), "PATH": "/usr/bin:/bin"}
    shown = subprocess.run([binary, "--version"], capture_output=True, text=True, env=env, check=False)
    return UnpackedServer(binary, env, shown.stdout.strip())


def debian_mirror() -> str | None:
    """The Debian archive this machine's apt already uses (deb822 or one-line sources)."""
    for source in [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d").glob("*"))]:
        text = source.read_text() if source.is_file() else ""
        found = re.search(r"^(?:URIs:|deb(?:\s+\[[^]]*\])?)\s+(\S+/debian)(?=\s|$)", text, re.M)
        if found:
            return found.group(1)
    return None
