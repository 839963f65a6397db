"""The three workloads and the reference configurations (bench/reference/*.cnf) put on the base."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .sysbench import Load

REFERENCE = Path(__file__).resolve().parents[1] / "reference"
_UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


@dataclass(frozen=True)
class Workload:
    name: str
    title: str
    load: Load
    binlog: bool = False
    memory_limit: str | None = None

    def budget_bytes(self, host_memory: int) -> int:
        """The memory the instance may use: the limit when there is one, else the host's."""
        return parse_size(self.memory_limit) if self.memory_limit else host_memory


def workloads(memory_limit: str) -> dict[str, Workload]:
    return {
        "a": Workload("a", "oltp_read_write, data fits in memory", Load("oltp_read_write", 8, 200_000, 16)),
        "b": Workload(
            "b",
            "write-heavy: oltp_update_index, binary log on with sync_binlog=1",
            Load("oltp_update_index", 8, 200_000, 32),
            binlog=True,
        ),
        "c": Workload(
            "c",
            f"data larger than memory: oltp_read_write under a {memory_limit} memory limit",
            Load("oltp_read_write", 16, 1_200_000, 16, rand_type="uniform"),
            memory_limit=memory_limit,
        ),
    }


def parse_size(text: str) -> int:
    match = re.fullmatch(r"(\d+)\s*([KMGT]?)i?B?", text.strip(), re.I)
    if not match:
        raise ValueError(f"not a size: {text!r}")
    return int(match.group(1)) * _UNITS.get(match.group(2).upper(), 1)


def pool_for(budget: int) -> str:
    """~70% of the budget, rounded down to whole GiB from 8 GiB up, else to 128 MiB chunks."""
    target = budget * 7 // 10
    if target >= 8 << 30:
        return f"{target >> 30}G"
    return f"{max(1, target // (128 << 20)) * 128}M"


def reference_cnf(base: str, reference: str, budget: int) -> str:
    """The base configuration with the reference group appended (later options win), its buffer
    pool sized to the instance's memory budget."""
    text = (REFERENCE / reference).read_text()
    text, count = re.subn(
        r"^innodb_buffer_pool_size(\s*)=.*$",
        lambda m: f"innodb_buffer_pool_size{m.group(1)}= {pool_for(budget)}",
        text,
        flags=re.M,
    )
    if count != 1:
        raise ValueError(f"{reference}: expected one innodb_buffer_pool_size line")
    return f"{base.rstrip()}\n\n# ---- bench/reference/{reference} ----\n{text}"
