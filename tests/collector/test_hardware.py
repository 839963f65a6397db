"""This machine's hardware facts: /proc/meminfo from pt-summary's real samples, and cgroup limits,
mounts and block devices read from small trees laid out like /proc and /sys."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from advisor.inputs.hardware import HardwareSpec
from collector.hardware import (
    block_device_storage,
    cgroup_limits,
    datadir_storage,
    local_hardware,
)
from collector.hostfacts import (
    cfs_quota_cpus,
    cgroup_memberships,
    cpu_max_cpus,
    meminfo_total_bytes,
    memory_limit_bytes,
    mount_of,
    mounts,
    os_release_name,
)
from collector.procnet import socket_inode, tcp_listening_inodes, unix_listening_inodes
from collector.serverprocess import ServerIdentity, find_server_process
from tests.corpus import corpus_file

PT_SUMMARY = "percona-toolkit/t/pt-summary/samples/Linux/"
GIB = 1024**3
#: cgroup v1's "no limit" as this kernel prints it.
V1_UNLIMITED = "9223372036854771712\n"
MOUNTINFO = (
    "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw,discard\n"
    "30 22 0:44 / /var/lib/mysql rw,relatime shared:9 - nfs4 filer:/export/db rw,vers=4.2\n"
    "31 22 259:2 / /srv/my\\040data rw,relatime shared:10 - xfs /dev/nvme0n1p2 rw\n"
)


def _write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.mark.parametrize(("sample", "kib"), [("006", 32642588), ("007", 198017964)])
def test_memtotal_is_read_from_pt_summary_samples(sample: str, kib: int) -> None:
    """pt-summary's `memory` file (free -b output, then /proc/meminfo): MemTotal in bytes."""
    text = corpus_file(f"{PT_SUMMARY}{sample}/memory").read_text()
    assert meminfo_total_bytes(text) == kib * 1024


def test_meminfo_without_memtotal_gives_none() -> None:
    """A file without a MemTotal line says nothing about memory."""
    assert meminfo_total_bytes("MemFree:  100 kB\n") is None


def test_cgroup_lines_of_v1_v2_and_hybrid_are_split() -> None:
    """`id:controllers:path`, with `cpu,cpuacct` split and v2's empty controller list."""
    text = "4:memory:/process_api/abc\n2:cpu,cpuacct:/\n0::/system.slice/mariadb.service\nbroken\n"
    found = [(m.hierarchy, m.controllers, m.path) for m in cgroup_memberships(text)]
    assert found == [
        ("4", ("memory",), "/process_api/abc"),
        ("2", ("cpu", "cpuacct"), "/"),
        ("0", (), "/system.slice/mariadb.service"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("max\n", None), ("17179869184\n", 16 * GIB), (V1_UNLIMITED, None), ("0\n", None), ("", None)],
)
def test_memory_limit_files(text: str, expected: int | None) -> None:
    """memory.max / memory.limit_in_bytes: bytes, or None for `max` and v1's page-aligned 2**63."""
    assert memory_limit_bytes(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("max 100000\n", None), ("150000 100000\n", 2), ("400000 100000", 4), ("1000 100000", 1)],
)
def test_cpu_max_rounds_the_quota_up_to_whole_cpus(text: str, expected: int | None) -> None:
    """cpu.max `quota period`: 1.5 CPUs of quota need two cores; `max` is no quota."""
    assert cpu_max_cpus(text) == expected


def test_cfs_quota_minus_one_is_no_quota() -> None:
    """cgroup v1 cpu.cfs_quota_us of -1 means unlimited; 200000/100000 is two CPUs."""
    assert cfs_quota_cpus("-1\n", "100000\n") is None
    assert cfs_quota_cpus("200000\n", "100000\n") == 2


def test_mounts_find_the_file_system_under_a_path() -> None:
    """The longest mount point above the datadir wins; octal escapes in paths are decoded."""
    table = mounts(MOUNTINFO)
    assert [(m.mount_point, m.fstype, m.device) for m in table][1:] == [
        ("/var/lib/mysql", "nfs4", "0:44"),
        ("/srv/my data", "xfs", "259:2"),
    ]
    assert mount_of("/var/lib/mysql/ibdata1", table).fstype == "nfs4"  # type: ignore[union-attr]
    assert mount_of("/var/lib/mysqlx", table).fstype == "ext4"  # type: ignore[union-attr]
    assert mount_of("/srv/my data/db", table).device == "259:2"  # type: ignore[union-attr]


def test_os_release_pretty_name() -> None:
    """PRETTY_NAME wins; NAME and VERSION stand in without it."""
    assert os_release_name('NAME="Debian GNU/Linux"\nPRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n') == (
        "Debian GNU/Linux 12 (bookworm)"
    )
    assert os_release_name('NAME="Rocky Linux"\nVERSION="9.3 (Blue Onyx)"\n') == "Rocky Linux 9.3 (Blue Onyx)"
    assert os_release_name("") is None


def test_cgroup_v2_limits_are_the_lowest_along_the_path(tmp_path: Path) -> None:
    """A v2 service cgroup with 8 GiB and 3.5 CPUs under a slice capped at 12 GiB: 8 GiB, 4 CPUs."""
    _write(tmp_path, "proc/4242/cgroup", "0::/system.slice/mariadb.service\n")
    _write(tmp_path, "sys/fs/cgroup/cgroup.controllers", "cpu memory io\n")
    _write(tmp_path, "sys/fs/cgroup/system.slice/memory.max", f"{12 * GIB}\n")
    _write(tmp_path, "sys/fs/cgroup/system.slice/cpu.max", "max 100000\n")
    _write(tmp_path, "sys/fs/cgroup/system.slice/mariadb.service/memory.max", f"{8 * GIB}\n")
    _write(tmp_path, "sys/fs/cgroup/system.slice/mariadb.service/cpu.max", "350000 100000\n")
    assert cgroup_limits(tmp_path, 4242) == (8 * GIB, 4)


def test_hybrid_cgroups_read_the_v1_controllers(tmp_path: Path) -> None:
    """This machine's layout: v2 without controllers, v1 memory with a 2 GiB limit, cpu unlimited."""
    _write(tmp_path, "proc/self/cgroup", "4:memory:/process_api/abc\n2:cpu,cpuacct:/\n0::/\n")
    _write(tmp_path, "sys/fs/cgroup/unified/cgroup.controllers", "")
    _write(tmp_path, "sys/fs/cgroup/memory/memory.limit_in_bytes", V1_UNLIMITED)
    _write(tmp_path, "sys/fs/cgroup/memory/process_api/abc/memory.limit_in_bytes", f"{2 * GIB}\n")
    _write(tmp_path, "sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "-1\n")
    _write(tmp_path, "sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n")
    assert cgroup_limits(tmp_path, None) == (2 * GIB, None)


TCP = (
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
    "   0: 0100007F:0CEA 00000000:0000 0A 00000000:00000000 00:00000000 00000000   107        0 9686 1\n"
    "   1: 0100007F:84CF 00000000:0000 0A 00000000:00000000 00:00000000 00000000   107        0 22434 1\n"
    "   2: 0100007F:0CEA 0100007F:9C40 01 00000000:00000000 00:00000000 00000000   107        0 777 1\n"
)
UNIX = (
    "Num       RefCount Protocol Flags    Type St Inode Path\n"
    "00000000169ff7f0: 00000002 00000000 00010000 0001 01  4581 /var/run/postgresql/.s.PGSQL.5432\n"
    "00000000a8132f95: 00000002 00000000 00010000 0001 01  9687 /run/mysqld/mysqld.sock\n"
    "00000000a8132f96: 00000003 00000000 00000000 0001 03  9688 /run/mysqld/mysqld.sock\n"
)


def test_proc_net_lines_give_the_listening_inodes() -> None:
    """Real /proc/net lines of this machine: port 3306 (0x0CEA) listens on inode 9686 (the connected
    socket 777 is not listening); the server's Unix socket listens on 9687."""
    assert tcp_listening_inodes(TCP, 3306) == {9686}
    assert tcp_listening_inodes(TCP, 33999) == {22434}
    assert unix_listening_inodes(UNIX, "/run/mysqld/mysqld.sock") == {9687}
    assert socket_inode("socket:[9686]") == 9686 and socket_inode("/var/lib/mysql/ibdata1") is None


def _server(root: Path, pid: int, name: str, sockets: list[int], datadir: str) -> None:
    _write(root, f"proc/{pid}/comm", f"{name}\n")
    fd = root / "proc" / str(pid) / "fd"
    fd.mkdir(parents=True)
    for number, inode in enumerate(sockets):
        (fd / str(number)).symlink_to(f"socket:[{inode}]")
    (root / "proc" / str(pid) / "cwd").symlink_to(datadir)


def test_of_two_server_processes_the_one_listening_on_the_port_is_the_server(tmp_path: Path) -> None:
    """A system mariadbd (port 3306, /run/mysqld socket) and a second one on port 33999: each is found
    by its own port, socket or datadir; a server neither matches is not taken for either."""
    _write(tmp_path, "proc/net/tcp", TCP)
    _write(tmp_path, "proc/net/unix", UNIX)
    _server(tmp_path, 812, "mariadbd", [9686, 9687], "/var/lib/mysql")
    _server(tmp_path, 913, "mariadbd", [22434], "/srv/second/data")
    _write(tmp_path, "proc/1/comm", "systemd\n")
    system = find_server_process(tmp_path, ServerIdentity(3306, "/run/mysqld/mysqld.sock", "/var/lib/mysql/"))
    assert system.pid == 812 and "port 3306" in system.how and "datadir" in system.how
    second = find_server_process(tmp_path, ServerIdentity(33999, None, "/srv/second/data/"))
    assert second.pid == 913 and "port 33999" in second.how
    by_socket = find_server_process(tmp_path, ServerIdentity(None, "/run/mysqld/mysqld.sock", None))
    assert by_socket.pid == 812
    nobody = find_server_process(tmp_path, ServerIdentity(3307, None, "/elsewhere"))
    assert nobody.pid is None and "812, 913" in nobody.how


def test_without_matching_sockets_the_pid_file_decides(tmp_path: Path) -> None:
    """Candidates whose sockets and cwd say nothing: the server's pid_file names the one."""
    for pid in (812, 913):
        _write(tmp_path, f"proc/{pid}/comm", "mysqld\n")
    _write(tmp_path, "run/mysqld/mysqld.pid", "913\n")
    found = find_server_process(tmp_path, ServerIdentity(3306, None, None, "/run/mysqld/mysqld.pid"))
    assert found.pid == 913 and "pid file" in found.how


def _block_device(root: Path, number: str, target: str, rotational: str | None = None) -> Path:
    """/sys/dev/block/N:M → ../../devices/<target>, with queue/rotational on the disk."""
    device = root / "sys" / "devices" / target
    device.mkdir(parents=True, exist_ok=True)
    if rotational is not None:
        _write(device, "queue/rotational", rotational)
    link = root / "sys" / "dev" / "block" / number
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(os.path.relpath(device, link.parent))
    return device


def test_block_devices_map_to_storage_kinds(tmp_path: Path) -> None:
    """A partition answers for its disk: sda (rotational) is hdd, nvme is nvme, vda is unknown."""
    _block_device(tmp_path, "8:0", "pci0/host0/block/sda", "1\n")
    partition = _block_device(tmp_path, "8:1", "pci0/host0/block/sda/sda1")
    _write(partition, "partition", "1\n")
    _block_device(tmp_path, "259:0", "pci0/nvme/nvme0/block/nvme0n1", "0\n")
    _block_device(tmp_path, "8:16", "pci0/host1/block/sdb", "0\n")
    _block_device(tmp_path, "254:0", "pci0/virtio1/block/vda", "1\n")
    assert block_device_storage(tmp_path, 8, 1)[0] == "hdd"
    assert block_device_storage(tmp_path, 8, 16)[0] == "ssd"
    assert block_device_storage(tmp_path, 259, 0)[0] == "nvme"
    kind, note = block_device_storage(tmp_path, 254, 0)
    assert kind is None and "vda" in note
    assert block_device_storage(tmp_path, 7, 7)[0] is None  # not in /sys


def test_device_mapper_answers_for_its_members_when_they_agree(tmp_path: Path) -> None:
    """dm-0 over two SSDs is ssd; dm-1 over an SSD and an HDD is unknown."""
    for name, rotational in (("sdb", "0\n"), ("sdc", "0\n"), ("sdd", "1\n")):
        _block_device(tmp_path, f"8:{ord(name[-1])}", f"pci0/block/{name}", rotational)
    for dm, members in (("dm-0", ("sdb", "sdc")), ("dm-1", ("sdb", "sdd"))):
        device = _block_device(tmp_path, f"253:{dm[-1]}", f"virtual/block/{dm}", "0\n")
        (device / "slaves").mkdir()
        for member in members:
            (device / "slaves" / member).symlink_to(tmp_path / "sys" / "devices" / "pci0" / "block" / member)
    assert block_device_storage(tmp_path, 253, 0)[0] == "ssd"
    assert block_device_storage(tmp_path, 253, 1)[0] is None


def test_local_hardware_of_this_machine_is_a_valid_spec() -> None:
    """On the machine the tests run on: memory and CPUs known, and HardwareSpec accepts the result."""
    facts = local_hardware()
    spec = HardwareSpec.from_mapping(facts.spec)
    assert spec.memory == meminfo_total_bytes(Path("/proc/meminfo").read_text())
    assert spec.cpus is not None and 1 <= spec.cpus <= (os.cpu_count() or 1)
    assert spec.os


def test_a_datadir_on_nfs_is_network_storage(tmp_path: Path) -> None:
    """The mount holding the datadir decides first: NFS is network whatever the device numbers say."""
    _write(tmp_path, "proc/self/mountinfo", "22 1 0:44 / / rw - nfs4 filer:/export rw\n")
    assert datadir_storage(tmp_path, "/")[0] == "network"
    _write(tmp_path, "proc/self/mountinfo", MOUNTINFO)  # "/" is ext4 on a device this tree lacks
    kind, note = datadir_storage(tmp_path, "/")
    assert kind is None and note
    assert datadir_storage(tmp_path, str(tmp_path / "missing"))[0] is None


def test_storage_is_measured_when_the_datadir_is_local_and_writable(tmp_path: Path) -> None:
    """A writable datadir on a local disk: the probe's kind and figures replace the /sys guess (this
    disk, a virtio vda, gives none); --no-probe-storage leaves storage out with a note saying how to
    give it."""
    datadir = tmp_path / "data"
    datadir.mkdir()
    fake = tmp_path / "root"
    _write(fake, "proc/self/mountinfo", "22 1 254:0 / / rw - ext4 /dev/vda rw\n")
    measured = local_hardware(ServerIdentity(datadir=str(datadir)), fake, probe=True)
    assert measured.probe is not None and measured.spec["storage"] == measured.probe.kind
    assert measured.spec["read_latency_ms"] > 0 and measured.storage_how.startswith("measured: ")
    assert list(datadir.iterdir()) == []
    guessed = local_hardware(ServerIdentity(datadir=str(datadir)), fake, probe=False)
    assert "storage" not in guessed.spec and guessed.probe is None
    assert any(note.startswith("storage left out") and "--probe-storage" in note for note in guessed.notes)


def test_the_probe_never_runs_on_network_storage(tmp_path: Path) -> None:
    """A datadir on NFS is network storage; the probe is skipped with a note."""
    _write(tmp_path, "proc/self/mountinfo", "22 1 0:44 / / rw - nfs4 filer:/export rw\n")
    facts = local_hardware(ServerIdentity(datadir=str(tmp_path)), tmp_path, probe=True)
    assert facts.spec["storage"] == "network" and facts.probe is None
    assert "storage probe skipped: datadir is on nfs4" in facts.notes
