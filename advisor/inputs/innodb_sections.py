"""Readers for the sections of SHOW ENGINE INNODB STATUS; used by `advisor.inputs.innodb_status`.

Each reader gets the whole dump and the [start, end) character range of one section's body and
writes what it finds into a `SectionValues` dict. Reading by compiled-regex searches bounded with
pos/endpos keeps it to a few C-level scans per section, with no slicing or per-line Python work.
All patterns are ASCII-only (`re.A`), so `int()`/`float()` on a match fail only on a number thousands
of digits long (the caller turns that ValueError into an InputError). They start
with a literal `\n` instead of `^`, which lets the regex engine jump between candidates by substring
search instead of trying every position (several times faster); every range starts on the newline
that ends its title line, so the first body line is still reachable.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypedDict

from advisor.inputs.innodb_transactions import InnodbTransaction

_M = re.M | re.A
_NUM = r"(\d+(?:\.\d+)?)"  # a per-second figure as printed ("45.39", "0")
#: A log position or trx id counter: one number, or the pre-5.1-plugin "high low" pair of 32-bit halves.
_TWO_PART = r"(\d+)(?:[ \t]+(\d+))?"


class SectionValues(TypedDict, total=False):
    """Everything the section readers can find; keys are `InnodbStatus` field names."""

    averages_window_seconds: int
    master_thread_active_loops: int
    master_thread_idle_loops: int
    semaphore_os_waits: int
    semaphore_reservation_count: int
    semaphore_signal_count: int
    semaphore_waiting_threads: int
    longest_semaphore_wait_seconds: float
    has_deadlock: bool
    latest_deadlock_at: str
    has_foreign_key_error: bool
    trx_id_counter: int
    trx_id_format: str
    purge_done_trx: int
    purge_state: str
    history_list_length: int
    transactions: tuple[InnodbTransaction, ...]
    os_file_reads: int
    os_file_writes: int
    os_fsyncs: int
    os_reads_per_second: float
    os_writes_per_second: float
    os_fsyncs_per_second: float
    ibuf_size_pages: int
    ibuf_free_list_len_pages: int
    ibuf_segment_size_pages: int
    ibuf_merges: int
    adaptive_hash_table_size_cells: int
    adaptive_hash_heap_buffers: int
    hash_searches_per_second: float
    non_hash_searches_per_second: float
    log_sequence_number: int
    log_buffer_assigned_up_to: int
    log_buffer_completed_up_to: int
    log_written_up_to: int
    log_flushed_up_to: int
    log_added_dirty_pages_up_to: int
    log_pages_flushed_up_to: int
    last_checkpoint: int
    max_checkpoint_age: int
    checkpoint_age_target: int
    total_memory_allocated_bytes: int
    buffer_pool_size_pages: int
    buffer_pool_size_bytes: int
    free_buffers: int
    database_pages: int
    old_database_pages: int
    modified_db_pages: int
    pages_read: int
    pages_created: int
    pages_written: int
    pages_read_per_second: float
    pages_created_per_second: float
    pages_written_per_second: float
    buffer_pool_hit_rate: float | None
    queries_inside_innodb: int
    queries_in_queue: int
    read_views_open: int
    rows_inserted: int
    rows_updated: int
    rows_deleted: int
    rows_read: int
    rows_inserted_per_second: float
    rows_updated_per_second: float
    rows_deleted_per_second: float
    rows_read_per_second: float


SectionReader = Callable[[str, int, int, SectionValues], None]


def _two_part(high_or_only: str, low: str | None) -> int:
    """A number printed as one value, or as two 32-bit halves by 5.0/5.1-builtin servers."""
    return int(high_or_only) if low is None else (int(high_or_only) << 32) + int(low)


# ---- BACKGROUND THREAD (5.1 plugin+); 5.6+ and MariaDB print srv_active/srv_idle counts.
_MASTER_LOOPS = re.compile(
    r"\nsrv_master_thread loops: (\d+) srv_active, (?:\d+ srv_shutdown, )?(\d+) srv_idle", _M
)


def read_background_thread(text: str, start: int, end: int, values: SectionValues) -> None:
    """Master thread loop counts (active vs idle)."""
    if m := _MASTER_LOOPS.search(text, start, end):
        values["master_thread_active_loops"] = int(m[1])
        values["master_thread_idle_loops"] = int(m[2])


# ---- SEMAPHORES: "OS waits N" appears on the mutex line (≤5.6) and once or twice per RW-lock line.
_OS_WAITS = re.compile(r"OS waits (\d+)", re.A)
_RESERVATION = re.compile(r"\nOS WAIT ARRAY INFO: reservation count (\d+)", _M)
_SIGNAL = re.compile(r"\nOS WAIT ARRAY INFO:[^\n]*?signal count (\d+)", _M)
_THREAD_WAIT = re.compile(
    r"\n--Thread \d+ has waited at [^\n]*? for (\d+(?:\.\d+)?) seconds the semaphore", _M
)


def read_semaphores(text: str, start: int, end: int, values: SectionValues) -> None:
    """OS waits (sum of every `OS waits N` counter), wait-array counts and threads waiting now."""
    waits = [int(m[1]) for m in _OS_WAITS.finditer(text, start, end)]
    if waits:
        values["semaphore_os_waits"] = sum(waits)
    if m := _RESERVATION.search(text, start, end):
        values["semaphore_reservation_count"] = int(m[1])
    if m := _SIGNAL.search(text, start, end):
        values["semaphore_signal_count"] = int(m[1])
    # Threads blocked on a latch right now: only meaningful when the section shows any counters,
    # so an empty MariaDB 10.6+ section stays None rather than a misleading 0.
    seconds = [float(m[1]) for m in _THREAD_WAIT.finditer(text, start, end)]
    if seconds or waits or "semaphore_reservation_count" in values:
        values["semaphore_waiting_threads"] = len(seconds)
    if seconds:
        values["longest_semaphore_wait_seconds"] = max(seconds)


# ---- LATEST DETECTED DEADLOCK / LATEST FOREIGN KEY ERROR: presence and time only, never the SQL.
_DEADLOCK_TIME = re.compile(r"\n(\d{6} [ \d]\d:\d\d:\d\d|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)", _M)


def read_deadlock(text: str, start: int, end: int, values: SectionValues) -> None:
    """Mark the deadlock and keep when it happened (the first timestamp line)."""
    values["has_deadlock"] = True
    if m := _DEADLOCK_TIME.search(text, start, min(end, start + 400)):
        values["latest_deadlock_at"] = m[1]


def read_foreign_key_error(text: str, start: int, end: int, values: SectionValues) -> None:
    """Mark that the dump carries a foreign key error."""
    values["has_foreign_key_error"] = True


# ---- FILE I/O
_IO_TOTALS = re.compile(r"\n(\d+) OS file reads, (\d+) OS file writes, (\d+) OS fsyncs", _M)
_IO_RATES = re.compile(rf"\n{_NUM} reads/s, \d+ avg bytes/read, {_NUM} writes/s, {_NUM} fsyncs/s", _M)


def read_file_io(text: str, start: int, end: int, values: SectionValues) -> None:
    """OS file reads/writes/fsyncs, totals and per second."""
    if m := _IO_TOTALS.search(text, start, end):
        values["os_file_reads"], values["os_file_writes"], values["os_fsyncs"] = map(int, m.groups())
    if m := _IO_RATES.search(text, start, end):
        reads, writes, fsyncs = map(float, m.groups())
        values["os_reads_per_second"] = reads
        values["os_writes_per_second"] = writes
        values["os_fsyncs_per_second"] = fsyncs


# ---- INSERT BUFFER AND ADAPTIVE HASH INDEX (absent from MariaDB 11)
_IBUF = re.compile(
    r"\nIbuf(?: for space \d+)?: size (\d+), free list len (\d+), seg size (\d+),(?: (\d+) merges)?", _M
)
_IBUF_OLD_MERGES = re.compile(r"\n\d+ inserts, \d+ merged recs, (\d+) merges", _M)
_HASH_TABLE = re.compile(r"\nHash table size (\d+),(?: used cells \d+,)? node heap has (\d+) buffer", _M)
_HASH_RATES = re.compile(rf"\n{_NUM} hash searches/s, {_NUM} non-hash searches/s", _M)


def read_insert_buffer(text: str, start: int, end: int, values: SectionValues) -> None:
    """Change-buffer size and merges; adaptive hash index size (summed over partitions) and use."""
    if m := _IBUF.search(text, start, end):
        values["ibuf_size_pages"] = int(m[1])
        values["ibuf_free_list_len_pages"] = int(m[2])
        values["ibuf_segment_size_pages"] = int(m[3])
        if m[4] is not None:
            values["ibuf_merges"] = int(m[4])
    if "ibuf_merges" not in values and (m := _IBUF_OLD_MERGES.search(text, start, end)):
        values["ibuf_merges"] = int(m[1])
    tables = [(int(m[1]), int(m[2])) for m in _HASH_TABLE.finditer(text, start, end)]
    if tables:
        values["adaptive_hash_table_size_cells"] = sum(size for size, _ in tables)
        values["adaptive_hash_heap_buffers"] = sum(buffers for _, buffers in tables)
    if m := _HASH_RATES.search(text, start, end):
        values["hash_searches_per_second"] = float(m[1])
        values["non_hash_searches_per_second"] = float(m[2])


# ---- LOG: one pattern for every "label   number" line (8.0 pads the labels, 5.0 prints two halves).
_LOG_FIELDS = {
    "Log sequence number": "log_sequence_number",
    "Log buffer assigned up to": "log_buffer_assigned_up_to",
    "Log buffer completed up to": "log_buffer_completed_up_to",
    "Log written up to": "log_written_up_to",
    "Log flushed up to": "log_flushed_up_to",
    "Added dirty pages up to": "log_added_dirty_pages_up_to",
    "Pages flushed up to": "log_pages_flushed_up_to",
    "Last checkpoint at": "last_checkpoint",
    "Max checkpoint age": "max_checkpoint_age",  # Percona Server / XtraDB
    "Checkpoint age target": "checkpoint_age_target",  # Percona Server / XtraDB
}
_LOG_LINE = re.compile(rf"\n({'|'.join(_LOG_FIELDS)})[ \t]+{_TWO_PART}[ \t]*$", _M)


def read_log(text: str, start: int, end: int, values: SectionValues) -> None:
    """Log sequence number, flushed, checkpoint and the 8.0+ / Percona extra positions."""
    for m in _LOG_LINE.finditer(text, start, end):
        key = _LOG_FIELDS[m[1]]
        if key not in values:
            values[key] = _two_part(m[2], m[3])  # type: ignore[literal-required]


# ---- BUFFER POOL AND MEMORY (the totals; INDIVIDUAL BUFFER POOL INFO is another section, skipped)
_BP_FIELDS = {
    "Buffer pool size": "buffer_pool_size_pages",
    "Buffer pool size, bytes": "buffer_pool_size_bytes",
    "Free buffers": "free_buffers",
    "Database pages": "database_pages",
    "Old database pages": "old_database_pages",
    "Modified db pages": "modified_db_pages",
}
_BP_LINE = re.compile(rf"\n({'|'.join(_BP_FIELDS)})[ \t]+(\d+)[ \t]*$", _M)
_TOTAL_MEMORY = re.compile(r"\nTotal (?:large )?memory allocated (\d+)", _M)
_PAGES = re.compile(r"\nPages read (\d+), created (\d+), written (\d+)", _M)
_PAGE_RATES = re.compile(rf"\n{_NUM} reads/s, {_NUM} creates/s, {_NUM} writes/s", _M)
_HIT_RATE = re.compile(
    r"\nBuffer pool hit rate (\d+) / (\d+)|\nNo buffer pool page gets since the last printout", _M
)


def read_buffer_pool(text: str, start: int, end: int, values: SectionValues) -> None:
    """Pool size, free/database/modified pages, page I/O and the hit rate (None when no page gets)."""
    for line in _BP_LINE.finditer(text, start, end):
        key = _BP_FIELDS[line[1]]
        if key not in values:
            values[key] = int(line[2])  # type: ignore[literal-required]
    if m := _TOTAL_MEMORY.search(text, start, end):
        values["total_memory_allocated_bytes"] = int(m[1])
    if m := _PAGES.search(text, start, end):
        values["pages_read"], values["pages_created"], values["pages_written"] = map(int, m.groups())
    if m := _PAGE_RATES.search(text, start, end):
        reads, creates, writes = map(float, m.groups())
        values["pages_read_per_second"] = reads
        values["pages_created_per_second"] = creates
        values["pages_written_per_second"] = writes
    if m := _HIT_RATE.search(text, start, end):
        # "No buffer pool page gets" means nothing was read in the window: no rate, not a perfect one.
        values["buffer_pool_hit_rate"] = int(m[1]) / int(m[2]) if m[1] is not None and int(m[2]) else None


# ---- ROW OPERATIONS: the per-second line right after "Number of rows" (not the "system rows" pair).
_QUERIES = re.compile(r"\n(\d+) queries inside InnoDB, (\d+) queries in queue", _M)
_READ_VIEWS = re.compile(r"\n(\d+) read views open inside InnoDB", _M)
_ROWS = re.compile(
    r"\nNumber of rows inserted (\d+), updated (\d+), deleted (\d+), read (\d+)[ \t]*\n"
    rf"(?:{_NUM} inserts/s, {_NUM} updates/s, {_NUM} deletes/s, {_NUM} reads/s)?",
    _M,
)


def read_row_operations(text: str, start: int, end: int, values: SectionValues) -> None:
    """Queries inside InnoDB and in queue, open read views, row counts and rates."""
    if m := _QUERIES.search(text, start, end):
        values["queries_inside_innodb"], values["queries_in_queue"] = int(m[1]), int(m[2])
    if m := _READ_VIEWS.search(text, start, end):
        values["read_views_open"] = int(m[1])
    if m := _ROWS.search(text, start, end):
        values["rows_inserted"], values["rows_updated"] = int(m[1]), int(m[2])
        values["rows_deleted"], values["rows_read"] = int(m[3]), int(m[4])
        if m[5] is not None:
            values["rows_inserted_per_second"], values["rows_updated_per_second"] = float(m[5]), float(m[6])
            values["rows_deleted_per_second"], values["rows_read_per_second"] = float(m[7]), float(m[8])
