"""The hardware facts of this machine, for a collector running on the database server itself.

Memory is MemTotal; the container limit is the lowest memory limit on the server process's cgroup
and its ancestors (v2 memory.max, v1 memory.limit_in_bytes); CPUs are the CPUs the server may run on
(its affinity), lowered by a CPU quota (cpu.max, cpu.cfs_quota_us). The server process is matched
by its listening port or socket and its datadir (collector.serverprocess); when none matches, the
collector's own cgroup stands in. Storage: network for NFS-like file systems; else measured by the
storage probe (collector.storageprobe) when allowed; else read from the block device holding the
datadir (NVMe by name, HDD or SSD by the rotational flag) and left out whenever that is a guess
(virtio and Xen disks report rotational=1 whatever backs them, loop and RAM disks, mixed RAID members).

Every path is taken under `root`, so tests can point it at a fake tree.
"""

from __future__ import annotations

import os
import platform
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from collector.hostfacts import (
    MEMORY_FILESYSTEMS,
    NETWORK_FILESYSTEMS,
    CgroupMembership,
    cfs_quota_cpus,
    cgroup_memberships,
    cpu_max_cpus,
    meminfo_total_bytes,
    memory_limit_bytes,
    mount_of,
    mounts,
    os_release_name,
)
from collector.serverprocess import ServerIdentity, ServerProcess, find_server_process
from collector.storageprobe import ProbeError, ProbeResult, probe_storage

STORAGE_KINDS = ("hdd", "ssd", "nvme", "network")

#: Block devices whose rotational flag does not describe the storage behind them.
_UNSURE_DEVICES = ("vd", "xvd", "loop", "zram", "ram", "nbd", "sr", "fd")
_NETWORK_DEVICES = ("rbd",)  # Ceph block devices
_MAX_STACK_DEPTH = 4  # dm on md on disks is three levels


@dataclass
class LocalFacts:
    """The hardware spec (HardwareSpec field → value) and one note per fact left out, with why;
    for the manifest also the server process found, how storage was decided and the probe's figures."""

    process: ServerProcess
    spec: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    storage_how: str | None = None
    probe: ProbeResult | None = None


def _read(path: Path) -> str | None:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return None


def _ancestors(base: Path, cgroup_path: str) -> list[Path]:
    """The cgroup's directory and every parent up to the hierarchy's root, leaf first."""
    parts = [part for part in cgroup_path.split("/") if part and part not in (".", "..")]
    return [base.joinpath(*parts[:depth]) for depth in range(len(parts), -1, -1)]


def _lowest(values: list[int | None]) -> int | None:
    known = [value for value in values if value is not None]
    return min(known) if known else None


def _v1_base(cgroup_root: Path, membership: CgroupMembership) -> Path | None:
    """Where a v1 hierarchy is mounted: `cpu,cpuacct` or one of its controllers' names."""
    for name in (",".join(membership.controllers), *membership.controllers):
        if name and (cgroup_root / name).is_dir():
            return cgroup_root / name
    return None


def cgroup_limits(root: Path, pid: int | None) -> tuple[int | None, int | None]:
    """(memory limit in bytes, CPU quota in whole CPUs) of the process's cgroups; None where unlimited."""
    text = _read(root / "proc" / (str(pid) if pid else "self") / "cgroup") or ""
    cgroup_root = root / "sys" / "fs" / "cgroup"
    memory: list[int | None] = []
    cpus: list[int | None] = []
    for membership in cgroup_memberships(text):
        if membership.hierarchy == "0" and not membership.controllers:
            if not (cgroup_root / "cgroup.controllers").exists():
                continue  # hybrid layout: the v2 tree has no controllers, v1 lines below hold them
            for directory in _ancestors(cgroup_root, membership.path):
                memory.append(memory_limit_bytes(_read(directory / "memory.max") or ""))
                cpus.append(cpu_max_cpus(_read(directory / "cpu.max") or ""))
        elif (base := _v1_base(cgroup_root, membership)) is not None:
            for directory in _ancestors(base, membership.path):
                if "memory" in membership.controllers:
                    memory.append(memory_limit_bytes(_read(directory / "memory.limit_in_bytes") or ""))
                if "cpu" in membership.controllers:
                    quota = _read(directory / "cpu.cfs_quota_us") or ""
                    cpus.append(cfs_quota_cpus(quota, _read(directory / "cpu.cfs_period_us") or ""))
    return _lowest(memory), _lowest(cpus)


def _affinity_cpus(pid: int | None) -> int | None:
    try:
        return len(os.sched_getaffinity(pid or 0))
    except (AttributeError, OSError):  # not Linux, or the process is gone
        return os.cpu_count()


def block_device_storage(root: Path, major: int, minor: int, depth: int = 0) -> tuple[str | None, str]:
    """The storage kind of a block device by its numbers, and a note saying how it was decided."""
    device = (root / "sys" / "dev" / "block" / f"{major}:{minor}").resolve()
    if not device.is_dir():
        return None, f"no block device {major}:{minor} in /sys"
    return _disk_storage(device.parent if (device / "partition").exists() else device, depth)


def _disk_storage(disk: Path, depth: int) -> tuple[str | None, str]:
    name = disk.name
    members = sorted((disk / "slaves").iterdir()) if (disk / "slaves").is_dir() else []
    if members and depth < _MAX_STACK_DEPTH:
        kinds = {_disk_storage(member.resolve(), depth + 1)[0] for member in members}
        kind = kinds.pop() if len(kinds) == 1 else None
        return kind, f"{name} stacks {', '.join(m.name for m in members)}" + ("" if kind else ": mixed")
    if name.startswith("nvme"):
        return "nvme", f"{name} is an NVMe device"
    if name.startswith(_NETWORK_DEVICES):
        return "network", f"{name} is a network block device"
    if name.startswith(_UNSURE_DEVICES):
        return None, f"{name} is a virtual device whose rotational flag says nothing"
    rotational = (_read(disk / "queue" / "rotational") or "").strip()
    if rotational in ("0", "1"):
        kind = "hdd" if rotational == "1" else "ssd"
        return kind, f"{name} has rotational={rotational}"
    return None, f"{name} has no rotational flag"


def datadir_storage(root: Path, datadir: str) -> tuple[str | None, str]:
    """The storage kind under the server's datadir, and a note saying how it was decided."""
    try:
        resolved = os.path.realpath(datadir)
        device = os.stat(resolved).st_dev
    except OSError as exc:
        return None, f"datadir {datadir} is not visible here ({exc.strerror})"
    mount = mount_of(resolved, mounts(_read(root / "proc" / "self" / "mountinfo") or ""))
    if mount is not None and mount.fstype in NETWORK_FILESYSTEMS:
        return "network", f"datadir is on {mount.fstype}"
    if mount is not None and mount.fstype in MEMORY_FILESYSTEMS:
        return "ram", f"datadir is on {mount.fstype}, in memory"
    if os.major(device) == 0:
        fstype = mount.fstype if mount else "a virtual file system"
        return None, f"datadir is on {fstype}, not directly on a block device"
    return block_device_storage(root, os.major(device), os.minor(device))


def _probe_refusal(kind: str | None, how: str, datadir: str) -> str | None:
    """Why the probe must not run here (None when it may): nothing to measure in memory or across
    the network, a datadir elsewhere, or one this user may not write to."""
    if kind in ("network", "ram"):
        return how
    if not os.path.isdir(datadir):
        return f"datadir {datadir} is not on this machine"
    if not os.access(datadir, os.W_OK):
        return f"datadir {datadir} is not writable by this user (run as root or the server's user)"
    return None


def _storage(facts: LocalFacts, root: Path, datadir: str, probe: bool) -> None:
    """Storage: the file system first (network), then the probe's measurement, else /sys."""
    kind, how = datadir_storage(root, datadir)
    facts.storage_how = how
    refusal = _probe_refusal(kind, how, datadir) if probe else None
    if refusal is not None:
        facts.notes.append(f"storage probe skipped: {refusal}")
    elif probe:
        try:
            result = probe_storage(Path(datadir))
        except ProbeError as exc:
            facts.notes.append(f"storage probe: {exc}")
        else:
            facts.probe = result
            facts.spec.update(result.spec_fields())
            facts.storage_how = f"measured: {result.describe()} (/sys: {how})"
            return
    if kind in STORAGE_KINDS:
        facts.spec["storage"] = kind
    else:
        facts.notes.append(
            f"storage left out: {how}; pass --storage to the audit or collect with --probe-storage"
        )


def local_hardware(
    identity: ServerIdentity | None = None, root: Path = Path("/"), *, probe: bool = False
) -> LocalFacts:
    """What this machine offers the server: memory, container limit, CPUs, storage and OS name.

    `probe`: measure the storage when the datadir is here, writable and on a local disk.
    """
    identity = identity or ServerIdentity()
    facts = LocalFacts(process=find_server_process(root, identity))
    pid = facts.process.pid
    if pid is None:
        facts.notes.append(
            f"server process not found: {facts.process.how}; cgroup limits are the collector's own"
        )
    if (memory := meminfo_total_bytes(_read(root / "proc" / "meminfo") or "")) is not None:
        facts.spec["memory"] = memory
    limit, quota_cpus = cgroup_limits(root, pid)
    if limit is not None and (memory is None or limit < memory):
        facts.spec["memory_limit"] = limit
    cpus = _lowest([_affinity_cpus(pid), quota_cpus])
    if cpus:
        facts.spec["cpus"] = cpus
    if identity.datadir:
        _storage(facts, root, identity.datadir, probe)
    facts.spec["os"] = os_release_name(_read(root / "etc" / "os-release") or "") or (
        f"{platform.system()} {platform.release()}".strip()
    )
    return facts
