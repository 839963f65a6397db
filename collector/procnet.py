"""Readers of /proc/net/tcp, /proc/net/tcp6 and /proc/net/unix: the inodes of listening sockets.

They take texts and return inode numbers, so they are tested on real lines without touching this
machine. A process owns a socket when one of its /proc/PID/fd links reads `socket:[INODE]`.
"""

from __future__ import annotations

_TCP_LISTEN = "0A"
#: /proc/net/unix: flag __SO_ACCEPTCON marks a listening socket; state 01 is SS_UNCONNECTED.
_UNIX_ACCEPTCON = 0x10000


def tcp_listening_inodes(text: str, port: int) -> set[int]:
    """Inodes of the TCP sockets listening on `port` (any address), from /proc/net/tcp or tcp6."""
    found = set()
    for line in text.splitlines()[1:]:
        fields = line.split()
        if len(fields) < 10 or fields[3] != _TCP_LISTEN:
            continue
        _, _, hex_port = fields[1].rpartition(":")
        try:
            if int(hex_port, 16) == port:
                found.add(int(fields[9]))
        except ValueError:
            continue
    return found


def unix_listening_inodes(text: str, path: str) -> set[int]:
    """Inodes of the Unix sockets listening at `path`, from /proc/net/unix."""
    found = set()
    for line in text.splitlines()[1:]:
        fields = line.split(maxsplit=7)
        if len(fields) < 8 or fields[7].strip() != path:
            continue
        try:
            if int(fields[3], 16) & _UNIX_ACCEPTCON:
                found.add(int(fields[6]))
        except ValueError:
            continue
    return found


def socket_inode(link: str) -> int | None:
    """The inode of an fd link `socket:[12345]`; None for any other kind of file."""
    if link.startswith("socket:[") and link.endswith("]"):
        digits = link[len("socket:[") : -1]
        return int(digits) if digits.isdigit() else None
    return None
