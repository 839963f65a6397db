"""SHOW ENGINE INNODB STATUS, 5.0 to 9.x and MariaDB 10.x–11.x, raw, `\\G`-wrapped or `-B`-escaped.

CONTRACT (fixed: the advisors rely on these names; add what you need, rename nothing). Every number
is None when the dump does not show it. Errors: `advisor.errors.InputError` only; a truncated dump
yields what is there, lists the sections it lacks in `missing_sections` and adds a warning.

Layouts: the raw text; the client's `\\G` row (`*** 1. row ***`, `Type:`, `Name:`, `Status:`) and the
table form (`| InnoDB | | ...`), whose wrapper lines are simply not section text; and `mysql -B`, where
the whole Status is one line with `\\n`, `\\t`, `\\\\` and `\\0` escaped, which is unescaped first.
A section starts at its title line right under a line of dashes; the text before the first one (the
wrapper, a `mysql>` prompt) is ignored. `missing_sections` lists the sections every version prints
(`CORE_SECTIONS`) that the dump lacks; version-dependent ones (BACKGROUND THREAD, absent before the
5.1 plugin; INSERT BUFFER AND ADAPTIVE HASH INDEX, gone in MariaDB 11) and the optional deadlock and
foreign-key reports are never reported missing. Query texts are never kept. Transaction ids: see
`advisor.inputs.innodb_transactions` (two-part, hex and decimal spellings, and how hex is decided).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from msgspec import Struct

from advisor.errors import InputError, InputWarning
from advisor.inputs.innodb_sections import (
    SectionReader,
    SectionValues,
    read_background_thread,
    read_buffer_pool,
    read_deadlock,
    read_file_io,
    read_foreign_key_error,
    read_insert_buffer,
    read_log,
    read_row_operations,
    read_semaphores,
)
from advisor.inputs.innodb_transactions import InnodbTransaction, parse_transactions
from advisor.inputs.text_encoding import refuse_utf16

__all__ = ["CORE_SECTIONS", "InnodbStatus", "InnodbTransaction", "parse_innodb_status"]

END_TITLE = "END OF INNODB MONITOR OUTPUT"
#: Printed by every server from 5.0 to 9.x and MariaDB 10.x–11.x (SEMAPHORES may be empty on MariaDB).
CORE_SECTIONS = ("SEMAPHORES", "TRANSACTIONS", "FILE I/O", "LOG", "BUFFER POOL AND MEMORY", "ROW OPERATIONS")
_READERS: dict[str, SectionReader | None] = {
    "BACKGROUND THREAD": read_background_thread,
    "SEMAPHORES": read_semaphores,
    "LATEST FOREIGN KEY ERROR": read_foreign_key_error,
    "LATEST DETECTED DEADLOCK": read_deadlock,
    "TRANSACTIONS": None,  # needs the dump's era for its ids: read by parse_transactions
    "FILE I/O": read_file_io,
    "INSERT BUFFER AND ADAPTIVE HASH INDEX": read_insert_buffer,
    "LOG": read_log,
    "BUFFER POOL AND MEMORY": read_buffer_pool,
    "INDIVIDUAL BUFFER POOL INFO": None,  # per-pool copies of the totals: the main section is used
    "ROW OPERATIONS": read_row_operations,
}
_TITLES = "|".join(re.escape(title) for title in (*_READERS, END_TITLE))
#: A title line under a line of dashes. Starting with a literal newline (not `^`) makes the scan a
#: fast substring search; a header at position 0 is matched separately.
_HEADER = re.compile(rf"\n-{{3,}}[ \t]*\n({_TITLES})[ \t]*$", re.M)
_HEADER_AT_START = re.compile(rf"-{{3,}}[ \t]*\n({_TITLES})[ \t]*$", re.M)
_BANNER = "INNODB MONITOR OUTPUT"
_WINDOW = re.compile(r"Per second averages calculated from the last (\d+) seconds", re.A)
_OLD_STAMP = re.compile(r"\d{6} [ \d]\d:\d\d:\d\d", re.A)  # 060815 22:00:08: 5.0–5.5, hex trx ids
_ISO_STAMP = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", re.A)  # 2018-10-12 19:11:10: 5.6+, decimal ids
_BATCH_ESCAPE = re.compile(r"\\([0nt\\])")
_BATCH_UNESCAPED = {"0": "\0", "n": "\n", "t": "\t", "\\": "\\"}


class InnodbStatus(Struct, frozen=True):
    """What one dump shows; a field the dump does not print is None (False/() for flags/tuples)."""

    file: str
    history_list_length: int | None = None
    transactions: tuple[InnodbTransaction, ...] = ()
    log_sequence_number: int | None = None
    log_flushed_up_to: int | None = None
    last_checkpoint: int | None = None
    free_buffers: int | None = None
    database_pages: int | None = None
    modified_db_pages: int | None = None
    buffer_pool_size_pages: int | None = None
    #: "Buffer pool hit rate N / 1000" as a fraction (0.998); None when the dump says no reads.
    buffer_pool_hit_rate: float | None = None
    pages_read_per_second: float | None = None
    pages_written_per_second: float | None = None
    os_reads_per_second: float | None = None
    os_fsyncs_per_second: float | None = None
    #: Sum of every "OS waits N" counter (mutex and RW-shared/excl/sx lines) since startup.
    semaphore_os_waits: int | None = None
    has_deadlock: bool = False
    sections_found: tuple[str, ...] = ()
    missing_sections: tuple[str, ...] = ()
    warnings: tuple[InputWarning, ...] = ()
    # ---- added beyond the contract
    #: The banner's timestamp as printed ("090220 12:36:43", "2018-10-12 19:11:10 0x7f1d8a1b6700").
    timestamp: str | None = None
    #: "Per second averages calculated from the last N seconds": the window of every */s figure.
    averages_window_seconds: int | None = None
    #: No END OF INNODB MONITOR OUTPUT line: the dump was cut (the last section may be partial).
    truncated: bool = False
    master_thread_active_loops: int | None = None
    master_thread_idle_loops: int | None = None
    semaphore_reservation_count: int | None = None
    semaphore_signal_count: int | None = None
    #: Threads waiting on a latch at the time of the dump ("--Thread N has waited at ...").
    semaphore_waiting_threads: int | None = None
    longest_semaphore_wait_seconds: float | None = None
    latest_deadlock_at: str | None = None
    has_foreign_key_error: bool = False
    trx_id_counter: int | None = None
    #: "Purge done for trx's n:o < N": every transaction numbered below N is purged; the purge lag is
    #: trx_id_counter minus this (transaction ids and numbers share one counter).
    purge_done_trx: int | None = None
    #: What purge was doing ("running", "running but idle", ...; 5.7+ and MariaDB 10.x print it).
    purge_state: str | None = None
    #: "two-part", "hex" or "decimal": how this dump's transaction ids were read (innodb_transactions).
    trx_id_format: str | None = None
    os_file_reads: int | None = None
    os_file_writes: int | None = None
    os_fsyncs: int | None = None
    os_writes_per_second: float | None = None
    ibuf_size_pages: int | None = None
    ibuf_free_list_len_pages: int | None = None
    ibuf_segment_size_pages: int | None = None
    ibuf_merges: int | None = None
    adaptive_hash_table_size_cells: int | None = None
    adaptive_hash_heap_buffers: int | None = None
    hash_searches_per_second: float | None = None
    non_hash_searches_per_second: float | None = None
    log_buffer_assigned_up_to: int | None = None
    log_buffer_completed_up_to: int | None = None
    log_written_up_to: int | None = None
    log_added_dirty_pages_up_to: int | None = None
    log_pages_flushed_up_to: int | None = None
    max_checkpoint_age: int | None = None
    checkpoint_age_target: int | None = None
    total_memory_allocated_bytes: int | None = None
    buffer_pool_size_bytes: int | None = None
    old_database_pages: int | None = None
    pages_read: int | None = None
    pages_created: int | None = None
    pages_written: int | None = None
    pages_created_per_second: float | None = None
    queries_inside_innodb: int | None = None
    queries_in_queue: int | None = None
    read_views_open: int | None = None
    rows_inserted: int | None = None
    rows_updated: int | None = None
    rows_deleted: int | None = None
    rows_read: int | None = None
    rows_inserted_per_second: float | None = None
    rows_updated_per_second: float | None = None
    rows_deleted_per_second: float | None = None
    rows_read_per_second: float | None = None

    @property
    def checkpoint_age(self) -> int | None:
        if self.log_sequence_number is None or self.last_checkpoint is None:
            return None
        return self.log_sequence_number - self.last_checkpoint


def parse_innodb_status(text: str, file: str) -> InnodbStatus:
    """Parse one SHOW ENGINE INNODB STATUS dump in any layout; InputError if it is not one at all."""
    refuse_utf16(text, file)
    unescaped = _unescape_batch(text)
    if unescaped is not None:
        text = unescaped
    elif "\r" in text:
        text = text.replace("\r\n", "\n")
    headers = _find_headers(text)
    first = headers[0].start if headers else len(text)
    stamp = _banner_stamp(text, first)
    if not headers and stamp is None:
        raise InputError(
            "not SHOW ENGINE INNODB STATUS output: no 'INNODB MONITOR OUTPUT' banner and no section "
            "title (SEMAPHORES, TRANSACTIONS, LOG, ...) under a line of dashes",
            file=file,
            line=1,
        )
    warnings: list[InputWarning] = []
    ranges = _section_ranges(text, headers, file, warnings)
    try:
        values = _read_sections(text, ranges, first, stamp or "")
    except ValueError:  # int() refuses numbers of over 4300 digits (sys.int_info.default_max_str_digits)
        raise InputError("a number thousands of digits long: not a real InnoDB counter", file=file) from None
    truncated = not any(header.title == END_TITLE for header in headers)
    missing = tuple(title for title in CORE_SECTIONS if title not in ranges)
    if truncated:
        warnings.append(_truncation_warning(text, ranges, file))
    if missing:
        message = f"InnoDB status lacks section(s) {', '.join(missing)}; their values are unknown"
        warnings.append(InputWarning(message, file))
    if unescaped is not None:  # line numbers would count lines of the unescaped text, not of the file
        warnings = [InputWarning(warning.message, file) for warning in warnings]
    return InnodbStatus(
        file=file,
        sections_found=tuple(ranges),
        missing_sections=missing,
        warnings=tuple(warnings),
        timestamp=stamp if stamp and stamp[0].isdigit() else None,
        truncated=truncated,
        **values,
    )


def _read_sections(text: str, ranges: dict[str, tuple[int, int]], first: int, stamp: str) -> SectionValues:
    """Run each section's reader over its range; the preamble before `first` gives the window."""
    values: SectionValues = {}
    if window := _WINDOW.search(text, 0, first):
        values["averages_window_seconds"] = int(window[1])
    hex_era = True if _OLD_STAMP.match(stamp) else False if _ISO_STAMP.match(stamp) else None
    for title, (start, end) in ranges.items():
        if title == "TRANSACTIONS":
            _read_transactions(text, start, end, hex_era, values)
        elif (reader := _READERS.get(title)) is not None:
            reader(text, start, end, values)
    return values


def _unescape_batch(text: str) -> str | None:
    """The Status field of `mysql -B` output (`InnoDB<TAB><TAB>\\n=====...` on one line), unescaped;
    None when the text is not in that layout (including `mysql -B -r`, whose newlines are real)."""
    at = text.find("InnoDB\t", 0, 400)
    if at < 0 or (at > 0 and text[at - 1] != "\n"):
        return None
    line_end = text.find("\n", at)
    fields = text[at : line_end if line_end >= 0 else len(text)].split("\t", 2)
    if len(fields) < 3 or "\\n" not in fields[2]:
        return None
    status = fields[2]
    if "\\\\" in status or "\\0" in status:
        # Decode escape by escape: `\\\\n` is an escaped backslash followed by "n", not a newline.
        return _BATCH_ESCAPE.sub(lambda m: _BATCH_UNESCAPED[m[1]], status)
    return status.replace("\\n", "\n").replace("\\t", "\t")


class _Header(NamedTuple):
    title: str
    start: int  # where the section's preamble (the newline before its dashes) begins: ends the previous
    title_at: int  # the title line itself (for line numbers)
    body_start: int  # end of the title line


def _find_headers(text: str) -> list[_Header]:
    """Section titles in dump order. The END line counts without its dashes too: pt-deadlock-logger's
    samples print it straight after the deadlock report."""
    found = [_Header(m[1], m.start(), m.start(1), m.end()) for m in _HEADER.finditer(text)]
    if at_start := _HEADER_AT_START.match(text):
        found.insert(0, _Header(at_start[1], 0, at_start.start(1), at_start.end()))
    if not any(header.title == END_TITLE for header in found) and (end := _bare_end_line(text)):
        found.append(end)
        found.sort(key=lambda header: header.start)
    return found


def _bare_end_line(text: str) -> _Header | None:
    """The END OF INNODB MONITOR OUTPUT line when no dashes precede it, if the text has one."""
    at = text.find("\n" + END_TITLE)
    if at < 0:
        return None
    title_end = at + 1 + len(END_TITLE)
    line_end = text.find("\n", title_end)
    if text[title_end : line_end if line_end >= 0 else len(text)].strip():
        return None
    return _Header(END_TITLE, at, at + 1, title_end)


def _banner_stamp(text: str, end: int) -> str | None:
    """What precedes INNODB MONITOR OUTPUT on the banner line (the timestamp, "" if nothing), or None
    when there is no banner line before `end`."""
    at = text.find(_BANNER, 0, end)
    if at < 0:
        return None
    line_end = text.find("\n", at)
    if text[at + len(_BANNER) : line_end if line_end >= 0 else len(text)].strip():
        return None  # the words inside some other line, not the banner
    return text[text.rfind("\n", 0, at) + 1 : at].strip()


def _section_ranges(
    text: str, headers: list[_Header], file: str, warnings: list[InputWarning]
) -> dict[str, tuple[int, int]]:
    """Title → (body start, body end), in dump order, up to the END line. A repeated title or a second
    dump after END is reported and skipped. Without END, a last line cut mid-way is left out."""
    found: dict[str, tuple[int, int]] = {}
    last_full_line = text.rfind("\n") + 1 if not text.endswith("\n") else len(text)
    for index, header in enumerate(headers):
        following = headers[index + 1] if index + 1 < len(headers) else None
        if header.title == END_TITLE:
            if following is not None:
                line = _line_of(text, following.title_at)
                warnings.append(
                    InputWarning("text after the END line (a second dump?) was ignored", file, line)
                )
            break
        if header.title in found:
            line = _line_of(text, header.title_at)
            message = f"section {header.title} appears twice; the first one is used"
            warnings.append(InputWarning(message, file, line))
            continue
        end = following.start if following is not None else max(last_full_line, header.body_start)
        found[header.title] = (header.body_start, end)
    return found


def _read_transactions(text: str, start: int, end: int, hex_era: bool | None, values: SectionValues) -> None:
    """Copy what the TRANSACTIONS section gave into the values."""
    section = parse_transactions(text, start, end, hex_era)
    values["transactions"] = section.transactions
    if section.trx_id_counter is not None:
        values["trx_id_counter"] = section.trx_id_counter
    if section.trx_id_format is not None:
        values["trx_id_format"] = section.trx_id_format
    if section.history_list_length is not None:
        values["history_list_length"] = section.history_list_length
    if section.purge_done_trx is not None:
        values["purge_done_trx"] = section.purge_done_trx
    if section.purge_state is not None:
        values["purge_state"] = section.purge_state


def _truncation_warning(text: str, ranges: dict[str, tuple[int, int]], file: str) -> InputWarning:
    """Say the dump was cut, and which section may be partial because of it."""
    where = f"; section {next(reversed(ranges))} may be incomplete" if ranges else ""
    return InputWarning(
        f"InnoDB status ends without '{END_TITLE}' (cut short){where}", file, _line_of(text, len(text))
    )


def _line_of(text: str, position: int) -> int:
    """1-based line number of a character position (only computed for warnings)."""
    return text.count("\n", 0, position) + 1
