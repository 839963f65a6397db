"""Measure the storage under the datadir instead of guessing it from /sys.

Virtio and most cloud disks report rotational=1 whatever backs them, so the kernel's flag cannot
tell an SSD from a spinning disk. The probe asks the disk itself, in at most three seconds and a
4 MiB file in the datadir's file system (removed at the end, also on error):

* fsync latency: rewrite one 4 KiB block at a random offset and time `fsync` (what a commit waits for
  with innodb_flush_log_at_trx_commit=1 and sync_binlog=1);
* 16 KiB random-read latency at queue depth 1 (one InnoDB page, one read at a time), with O_DIRECT so
  no read is a page-cache hit; where O_DIRECT is refused, the file's cached pages are dropped with
  posix_fadvise(DONTNEED) before every read.

The kind follows the median read: under 0.15 ms only NVMe answers (SATA SSDs take 0.1–0.3 ms, their
AHCI queue adds the rest), under 2.5 ms flash of some kind (local SATA/SAS SSD, cloud block storage),
a seek of a spinning disk takes 4 ms and more.
"""

from __future__ import annotations

import mmap
import os
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FILE_BYTES = 4 * 1024 * 1024
READ_BYTES = 16 * 1024
WRITE_BYTES = 4 * 1024
BUDGET_SECONDS = 3.0
#: Share of the budget for the fsync phase; the reads get the rest (the 4 MiB fill is quick).
_FSYNC_SHARE = 0.45
_MAX_FSYNCS = 1000
_MAX_READS = 4000
NVME_READ_MS = 0.15
FLASH_READ_MS = 2.5


class ProbeError(Exception):
    """The probe could not run (the message says why); nothing is left behind."""


@dataclass(frozen=True)
class Latencies:
    """Sorted samples in milliseconds, summarised as median and 99th percentile."""

    samples: tuple[float, ...]

    @property
    def median(self) -> float:
        count = len(self.samples)
        middle = count // 2
        return self.samples[middle] if count % 2 else (self.samples[middle - 1] + self.samples[middle]) / 2

    @property
    def p99(self) -> float:
        # nearest rank: the smallest sample with at least 99 % of the samples at or below it
        rank = max(1, -(-99 * len(self.samples) // 100))
        return self.samples[rank - 1]


@dataclass(frozen=True)
class ProbeResult:
    fsync: Latencies
    read: Latencies
    read_method: str
    seconds: float

    @property
    def kind(self) -> str:
        return classify(self.read.median)

    def spec_fields(self) -> dict[str, float | str]:
        """The hardware.json fields the probe provides."""
        return {
            "storage": self.kind,
            "fsync_latency_ms": round(self.fsync.median, 3),
            "fsync_latency_p99_ms": round(self.fsync.p99, 3),
            "read_latency_ms": round(self.read.median, 3),
            "read_latency_p99_ms": round(self.read.p99, 3),
        }

    def to_dict(self) -> dict[str, Any]:
        """What the manifest records: every figure and how it was measured."""
        return {
            "kind": self.kind,
            "fsync_ms": {"median": round(self.fsync.median, 3), "p99": round(self.fsync.p99, 3)},
            "fsyncs": len(self.fsync.samples),
            "fsync_write_bytes": WRITE_BYTES,
            "read_ms": {"median": round(self.read.median, 3), "p99": round(self.read.p99, 3)},
            "reads": len(self.read.samples),
            "read_bytes": READ_BYTES,
            "read_queue_depth": 1,
            "read_method": self.read_method,
            "file_bytes": FILE_BYTES,
            "seconds": round(self.seconds, 2),
        }

    def describe(self) -> str:
        return (
            f"16 KiB random reads median {self.read.median:.3f} ms, p99 {self.read.p99:.3f} ms "
            f"({len(self.read.samples)} reads, {self.read_method}); fsync median {self.fsync.median:.3f} ms, "
            f"p99 {self.fsync.p99:.3f} ms ({len(self.fsync.samples)} fsyncs): {self.kind}"
        )


def classify(read_median_ms: float) -> str:
    """hdd / ssd / nvme from the median 16 KiB random-read latency at queue depth 1."""
    if read_median_ms < NVME_READ_MS:
        return "nvme"
    return "ssd" if read_median_ms < FLASH_READ_MS else "hdd"


def _timed(action: Callable[[], object]) -> float:
    began = time.perf_counter()
    action()
    return (time.perf_counter() - began) * 1000


def _fill(fd: int) -> None:
    """Random bytes (nothing to compress or deduplicate), flushed, so reads come from the disk."""
    written = 0
    while written < FILE_BYTES:
        written += os.write(fd, os.urandom(min(1024 * 1024, FILE_BYTES - written)))
    os.fsync(fd)


def _fsyncs(fd: int, until: float, rng: random.Random) -> Latencies:
    block, samples = os.urandom(WRITE_BYTES), list[float]()
    while len(samples) < _MAX_FSYNCS and (not samples or time.monotonic() < until):
        os.pwrite(fd, block, rng.randrange(FILE_BYTES // WRITE_BYTES) * WRITE_BYTES)
        samples.append(_timed(lambda: os.fsync(fd)))
    return Latencies(tuple(sorted(samples)))


def _open_uncached(path: Path) -> tuple[int, str]:
    """The file opened for reads that bypass the page cache, and how."""
    direct = getattr(os, "O_DIRECT", 0)
    if direct:
        try:
            return os.open(path, os.O_RDONLY | direct), "O_DIRECT"
        except OSError:
            pass  # tmpfs and some FUSE file systems refuse O_DIRECT
    return os.open(path, os.O_RDONLY), "posix_fadvise DONTNEED"


def _reads(path: Path, until: float, rng: random.Random) -> tuple[Latencies, str]:
    fd, method = _open_uncached(path)
    buffer = mmap.mmap(-1, READ_BYTES)  # page-aligned, as O_DIRECT requires
    samples: list[float] = []
    try:
        while len(samples) < _MAX_READS and (not samples or time.monotonic() < until):
            offset = rng.randrange(FILE_BYTES // READ_BYTES) * READ_BYTES
            if method != "O_DIRECT":
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            began = time.perf_counter()
            os.preadv(fd, [buffer], offset)
            samples.append((time.perf_counter() - began) * 1000)
    finally:
        os.close(fd)
        buffer.close()
    return Latencies(tuple(sorted(samples))), method


def probe_storage(directory: Path, budget_seconds: float = BUDGET_SECONDS) -> ProbeResult:
    """Measure fsync and 16 KiB random-read latency on a 4 MiB file in `directory`, then remove it."""
    began = time.monotonic()
    rng = random.Random()
    path = directory / f".innotune-probe-{os.getpid()}-{secrets.token_hex(4)}"
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600)
    except OSError as exc:
        raise ProbeError(f"cannot create a file in {directory} ({exc.strerror})") from None
    try:
        try:
            _fill(fd)
            fsync = _fsyncs(fd, began + budget_seconds * _FSYNC_SHARE, rng)
        finally:
            os.close(fd)
        read, method = _reads(path, began + budget_seconds * 0.95, rng)
    except OSError as exc:
        raise ProbeError(f"the probe failed in {directory} ({exc.strerror})") from None
    finally:
        path.unlink(missing_ok=True)
    return ProbeResult(fsync, read, method, time.monotonic() - began)
