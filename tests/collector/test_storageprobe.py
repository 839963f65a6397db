"""The storage probe's arithmetic and its run on this machine's disk (a temporary directory)."""

from __future__ import annotations

from pathlib import Path

import pytest

from collector.storageprobe import FILE_BYTES, Latencies, classify, probe_storage


@pytest.mark.parametrize(
    ("median_ms", "kind"),
    [(0.02, "nvme"), (0.149, "nvme"), (0.15, "ssd"), (0.9, "ssd"), (2.5, "hdd"), (8.0, "hdd")],
)
def test_the_median_read_decides_the_kind(median_ms: float, kind: str) -> None:
    """Under 0.15 ms NVMe, under 2.5 ms flash, else a spinning disk."""
    assert classify(median_ms) == kind


def test_median_and_nearest_rank_p99() -> None:
    """1..100 ms: median 50.5, p99 the 99th sample; one sample is its own median and p99."""
    samples = Latencies(tuple(float(n) for n in range(1, 101)))
    assert (samples.median, samples.p99) == (50.5, 99.0)
    assert (Latencies((3.0,)).median, Latencies((3.0,)).p99) == (3.0, 3.0)


def test_the_probe_measures_within_its_budget_and_leaves_nothing(tmp_path: Path) -> None:
    """On this disk: both phases sampled, within the budget, the file gone afterwards."""
    result = probe_storage(tmp_path, budget_seconds=1.0)
    assert list(tmp_path.iterdir()) == []
    assert result.seconds < 1.0 + 0.5  # one last sample may end past the deadline
    assert result.fsync.samples and result.read.samples
    assert result.read.median <= result.read.p99 and result.fsync.median <= result.fsync.p99
    fields = result.spec_fields()
    assert fields["storage"] == classify(result.read.median)
    assert result.to_dict()["file_bytes"] == FILE_BYTES
    print(f"\nprobe: {result.describe()}")


def test_a_directory_it_cannot_write_to_is_a_probe_error(tmp_path: Path) -> None:
    """A missing directory: ProbeError naming it, nothing created."""
    from collector.storageprobe import ProbeError

    with pytest.raises(ProbeError, match="cannot create a file in"):
        probe_storage(tmp_path / "missing")
