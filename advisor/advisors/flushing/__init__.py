"""Flushing: I/O capacity for the storage, neighbour flushing, the flush method and the LRU scan depth."""

from __future__ import annotations

from advisor.advisors.flushing.io import io_capacity, io_capacity_max
from advisor.advisors.flushing.method import data_file_buffering, flush_method
from advisor.advisors.flushing.pages import flush_neighbors, lru_scan_depth
from advisor.rules import Rule

RULES: tuple[Rule, ...] = (
    io_capacity,
    io_capacity_max,
    flush_neighbors,
    flush_method,
    data_file_buffering,
    lru_scan_depth,
)
