"""Readers of the Linux files that describe the machine: /proc/meminfo, /proc/PID/cgroup, the cgroup
limit files, /proc/self/mountinfo and /etc/os-release. They take texts and return numbers (None when
the text does not say), so they are tested on real files without touching this machine."""

from __future__ import annotations

import math
from dataclasses import dataclass

#: cgroup v1 writes "no limit" as the largest page-aligned 64-bit value, e.g. 9223372036854771712.
_V1_UNLIMITED_BYTES = 2**62
#: File systems whose blocks live on another machine.
NETWORK_FILESYSTEMS = frozenset(
    {"nfs", "nfs4", "cifs", "smb3", "smbfs", "ceph", "glusterfs", "fuse.glusterfs", "fuse.sshfs", "lustre"}
)

#: File systems held in memory: nothing to measure there.
MEMORY_FILESYSTEMS = frozenset({"tmpfs", "ramfs"})


@dataclass(frozen=True)
class CgroupMembership:
    """One line of /proc/PID/cgroup: `hierarchy-id:controllers:path` (v2 is `0::/path`)."""

    hierarchy: str
    controllers: tuple[str, ...]
    path: str


@dataclass(frozen=True)
class Mount:
    """One line of /proc/self/mountinfo: where a file system is mounted, its type and device."""

    mount_point: str
    fstype: str
    device: str  # major:minor


def meminfo_total_bytes(text: str) -> int | None:
    """MemTotal of /proc/meminfo in bytes (the file counts kB, which are KiB)."""
    for line in text.splitlines():
        if line.startswith("MemTotal:"):
            fields = line.split()
            if len(fields) >= 2 and fields[1].isdigit():
                scale = 1024 if len(fields) > 2 and fields[2].lower() == "kb" else 1
                return int(fields[1]) * scale
    return None


def cgroup_memberships(text: str) -> list[CgroupMembership]:
    """The lines of /proc/PID/cgroup; malformed lines are skipped."""
    found = []
    for line in text.splitlines():
        parts = line.split(":", 2)
        if len(parts) == 3:
            controllers = tuple(name for name in parts[1].split(",") if name)
            found.append(CgroupMembership(parts[0], controllers, parts[2]))
    return found


def memory_limit_bytes(text: str) -> int | None:
    """memory.max (v2: a byte count or `max`) or memory.limit_in_bytes (v1); None for no limit."""
    value = text.strip()
    if not value.isdigit():
        return None
    limit = int(value)
    return None if limit <= 0 or limit >= _V1_UNLIMITED_BYTES else limit


def cpu_max_cpus(text: str) -> int | None:
    """cpu.max of cgroup v2 (`quota period`, or `max period`) as whole CPUs, rounded up."""
    fields = text.split()
    if len(fields) != 2 or not (fields[0].isdigit() and fields[1].isdigit()):
        return None
    return _quota_cpus(int(fields[0]), int(fields[1]))


def cfs_quota_cpus(quota_text: str, period_text: str) -> int | None:
    """cpu.cfs_quota_us / cpu.cfs_period_us of cgroup v1 as whole CPUs; quota -1 means none."""
    quota, period = quota_text.strip(), period_text.strip()
    if not (quota.isdigit() and period.isdigit()):
        return None  # "-1": no quota
    return _quota_cpus(int(quota), int(period))


def _quota_cpus(quota: int, period: int) -> int | None:
    # 150000/100000 lets the group run 1.5 CPUs' worth: it needs two cores to use it.
    return max(1, math.ceil(quota / period)) if quota > 0 and period > 0 else None


def mounts(text: str) -> list[Mount]:
    """The mounts of /proc/self/mountinfo (`id parent major:minor root mount-point opts ... - type src`)."""
    found = []
    for line in text.splitlines():
        head, separator, tail = line.partition(" - ")
        fields, rest = head.split(), tail.split()
        if separator and len(fields) >= 5 and rest:
            found.append(Mount(_unescape_octal(fields[4]), rest[0], fields[2]))
    return found


def mount_of(path: str, table: list[Mount]) -> Mount | None:
    """The mount holding `path` (an absolute, resolved path): the longest mount point above it; the
    last one listed wins among equals, as a later mount hides an earlier one at the same place."""
    best: Mount | None = None
    for mount in table:
        point = mount.mount_point.rstrip("/") or "/"
        inside = point == "/" or path == point or path.startswith(point + "/")
        if inside and (best is None or len(point) >= len(best.mount_point.rstrip("/") or "/")):
            best = mount
    return best


def _unescape_octal(field: str) -> str:
    """mountinfo writes space, tab, newline and backslash in paths as \\040, \\011, \\012, \\134."""
    if "\\" not in field:
        return field
    out, index = [], 0
    while index < len(field):
        chunk = field[index + 1 : index + 4]
        if field[index] == "\\" and len(chunk) == 3 and all(c in "01234567" for c in chunk):
            out.append(chr(int(chunk, 8)))
            index += 4
        else:
            out.append(field[index])
            index += 1
    return "".join(out)


def os_release_name(text: str) -> str | None:
    """PRETTY_NAME of /etc/os-release (`Debian GNU/Linux 12 (bookworm)`), else NAME and VERSION."""
    values: dict[str, str] = {}
    for line in text.splitlines():
        key, equals, value = line.partition("=")
        if equals:
            values[key.strip()] = value.strip().strip("\"'")
    if values.get("PRETTY_NAME"):
        return values["PRETTY_NAME"]
    name = " ".join(part for part in (values.get("NAME"), values.get("VERSION")) if part)
    return name or None
