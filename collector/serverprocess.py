"""Which mariadbd/mysqld process on this machine is the server the collector talked to.

A host may run several (a system server and a second instance, a test server beside production), so
the name alone does not tell. The server's own variables do: a candidate is the server when it holds
the socket listening on the server's `port` or at its `socket`, or runs in its `datadir` (mysqld
changes into the datadir at start). Reading another user's sockets and working directory needs root
or the same user; without that the server's `pid_file` decides, and a lone candidate is taken with a
note saying it was not proven.

Every path is taken under `root`, so tests can point it at a fake tree.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from collector.procnet import socket_inode, tcp_listening_inodes, unix_listening_inodes

SERVER_PROCESS_NAMES = ("mariadbd", "mysqld")


@dataclass(frozen=True)
class ServerIdentity:
    """What the server says about itself: SHOW GLOBAL VARIABLES port, socket, datadir, pid_file."""

    port: int | None = None
    socket: str | None = None
    datadir: str | None = None
    pid_file: str | None = None

    @classmethod
    def from_variables(cls, variables: dict[str, str]) -> ServerIdentity:
        port = variables.get("port", "")
        return cls(
            port=int(port) if port.isdigit() and int(port) > 0 else None,
            socket=variables.get("socket") or None,
            datadir=variables.get("datadir") or None,
            pid_file=variables.get("pid_file") or None,
        )


@dataclass(frozen=True)
class ServerProcess:
    """The server's pid (None when not found) and how it was decided, for the manifest."""

    pid: int | None
    how: str


def _read(path: Path) -> str | None:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return None


def _same_path(first: str, second: str) -> bool:
    return first.rstrip("/") == second.rstrip("/")


def server_candidates(root: Path) -> list[int]:
    """The pids of every mariadbd/mysqld process here, in pid order."""
    try:
        entries = list((root / "proc").iterdir())
    except OSError:
        return []
    return sorted(
        int(entry.name)
        for entry in entries
        if entry.name.isdigit() and (_read(entry / "comm") or "").strip() in SERVER_PROCESS_NAMES
    )


def _socket_inodes(root: Path, pid: int) -> set[int] | None:
    """The inodes of the process's sockets; None when its fds cannot be read (another user's)."""
    try:
        links = [os.readlink(fd) for fd in (root / "proc" / str(pid) / "fd").iterdir()]
    except OSError:
        return None
    return {inode for link in links if (inode := socket_inode(link)) is not None}


def _working_directory(root: Path, pid: int) -> str | None:
    """The process's working directory, else its --datadir= argument; None when unreadable."""
    try:
        return os.readlink(root / "proc" / str(pid) / "cwd")
    except OSError:
        pass
    arguments = (_read(root / "proc" / str(pid) / "cmdline") or "").split("\0")
    return next((arg.split("=", 1)[1] for arg in arguments if arg.startswith("--datadir=")), None)


def _listening(root: Path, identity: ServerIdentity) -> dict[str, set[int]]:
    """'port 3306' / 'socket /run/mysqld/mysqld.sock' → the inodes listening there."""
    found: dict[str, set[int]] = {}
    if identity.port is not None:
        found[f"port {identity.port}"] = _tcp(root, "tcp", identity.port) | _tcp(root, "tcp6", identity.port)
    if identity.socket is not None:
        unix = _read(root / "proc" / "net" / "unix") or ""
        found[f"socket {identity.socket}"] = unix_listening_inodes(unix, identity.socket)
    return found


def _tcp(root: Path, name: str, port: int) -> set[int]:
    return tcp_listening_inodes(_read(root / "proc" / "net" / name) or "", port)


def _evidence(root: Path, pid: int, identity: ServerIdentity, listening: dict[str, set[int]]) -> list[str]:
    """What ties this candidate to the server: its listening port/socket, its datadir."""
    found = []
    sockets = _socket_inodes(root, pid)
    if sockets:
        found += [where for where, inodes in listening.items() if inodes & sockets]
    directory = _working_directory(root, pid)
    if identity.datadir and directory and _same_path(directory, identity.datadir):
        found.append(f"datadir {identity.datadir}")
    return found


def _by_pid_file(root: Path, identity: ServerIdentity, candidates: list[int]) -> int | None:
    if not identity.pid_file:
        return None
    text = (_read(root / identity.pid_file.lstrip("/")) or "").strip()
    return int(text) if text.isdigit() and int(text) in candidates else None


def find_server_process(root: Path, identity: ServerIdentity) -> ServerProcess:
    """The server's process among the mariadbd/mysqld processes here, and how it was matched."""
    candidates = server_candidates(root)
    if not candidates:
        return ServerProcess(None, "no mariadbd or mysqld process runs on this machine")
    listening = _listening(root, identity)
    evidence = {pid: _evidence(root, pid, identity, listening) for pid in candidates}
    matched = [pid for pid in candidates if evidence[pid]]
    if len(matched) > 1:  # prefer the one holding the listening socket over a shared datadir
        matched = [pid for pid in matched if any(not e.startswith("datadir") for e in evidence[pid])]
    if len(matched) == 1:
        pid = matched[0]
        return ServerProcess(pid, f"pid {pid}, matched by its {' and '.join(evidence[pid])}")
    if (pid_from_file := _by_pid_file(root, identity, candidates)) is not None:
        return ServerProcess(pid_from_file, f"pid {pid_from_file}, from the pid file {identity.pid_file}")
    others = ", ".join(str(pid) for pid in candidates)
    wanted = " or ".join([*listening, *([f"datadir {identity.datadir}"] if identity.datadir else [])])
    if len(candidates) == 1 and _socket_inodes(root, candidates[0]) is None:
        return ServerProcess(
            candidates[0],
            f"pid {candidates[0]}, the only server process here (not proven: its sockets are not readable "
            "by this user; run the collector as root or as the server's user)",
        )
    return ServerProcess(None, f"no server process here ({others}) matches {wanted or 'the server'}")
