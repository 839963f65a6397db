"""SHOW ENGINE INNODB STATUS from 5.0 to 9.x and MariaDB 10.x–11.x, read from real dumps of the corpus."""

from __future__ import annotations

import contextlib
import re
from typing import cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec import Struct

from advisor.errors import InputError
from advisor.inputs.innodb_status import InnodbStatus, parse_innodb_status
from tests.corpus import CORPUS, corpus_file

RW = "realworld/innodb_status/"
PT = "percona-toolkit/"
SYSBENCH = "mariadb-10.11-sysbench/"

#: Every percona-toolkit file holding an InnoDB status (a monitor banner or a deadlock section).
PERCONA_TOOLKIT_DUMPS = (
    "src/go/pt-secure-collect/testdata/2018_03_05_13_24_55-innodbstatus1",
    "src/go/pt-secure-collect/testdata/2018_03_05_13_24_55-innodbstatus2",
    "t/lib/samples/is001.txt",
    "t/pt-deadlock-logger/samples/bug_1082104.txt",
    "t/pt-deadlock-logger/samples/bug_1195034.txt",
    "t/pt-deadlock-logger/samples/bug_903443.txt",
    "t/pt-fk-error-logger/samples/is001.txt",
    "t/pt-fk-error-logger/samples/is002.txt",
    "t/pt-fk-error-logger/samples/is003.txt",
    "t/pt-fk-error-logger/samples/is004.txt",
    "t/pt-fk-error-logger/samples/is005.txt",
    "t/pt-mysql-summary/samples/innodb-status.001.txt",
    "t/pt-mysql-summary/samples/innodb-status.002.txt",
    "t/pt-mysql-summary/samples/innodb-status.003.txt",
    "t/pt-mysql-summary/samples/innodb-status.004.txt",
    "t/pt-mysql-summary/samples/temp002/innodb-status",
    "t/pt-mysql-summary/samples/temp003/innodb-status",
    "t/pt-mysql-summary/samples/temp005/innodb-status",
    "t/pt-mysql-summary/samples/temp006/innodb-status",
    "t/pt-mysql-summary/samples/temp_enc008/innodb-status",
    "t/pt-mysql-summary/samples/temp_enc009/innodb-status",
    "t/pt-mysql-summary/samples/tempdir/innodb-status",
)
#: Dumps that end properly but hold only some sections: a buffer-pool excerpt and deadlock-only samples.
FRAGMENTS = {
    RW + "kjellm_munin-mysql__innodb-status-5.5-multiple-buffer-pools.txt",
    PT + "t/pt-deadlock-logger/samples/bug_1082104.txt",
    PT + "t/pt-deadlock-logger/samples/bug_903443.txt",
}
#: Dumps cut before the END line by their source (a 64 KB limit, an excerpt).
CUT_SHORT = {
    RW + "kjellm_munin-mysql__innodb-status-truncated.txt",
    RW + "percona_percona-monitoring-plugins__cacti-innodb-010.txt",
    PT + "t/pt-mysql-summary/samples/innodb-status.002.txt",
    PT + "t/pt-deadlock-logger/samples/bug_1195034.txt",
}


def _all_dumps() -> list[str]:
    realworld = sorted(RW + path.name for path in (CORPUS / RW).glob("*.txt"))
    sysbench = sorted(SYSBENCH + path.name for path in (CORPUS / SYSBENCH).glob("*innodb_status.txt"))
    return realworld + sysbench + [PT + path for path in PERCONA_TOOLKIT_DUMPS]


def _read(relative: str) -> str:
    return corpus_file(relative).read_bytes().decode("utf-8", errors="surrogateescape")


def _parse(relative: str) -> InnodbStatus:
    return parse_innodb_status(_read(relative), relative)


def _asdict(value: object) -> object:
    """A Struct as nested dicts, containers kept as they are (what `dataclasses.asdict` did)."""
    if isinstance(value, Struct):
        return {name: _asdict(getattr(value, name)) for name in value.__struct_fields__}
    if isinstance(value, (list, tuple)):
        return type(value)(_asdict(item) for item in value)
    if isinstance(value, dict):
        return {key: _asdict(item) for key, item in value.items()}
    return value


def _fields_without_file(status: InnodbStatus) -> dict[str, object]:
    fields = cast(dict[str, object], _asdict(status))
    del fields["file"]
    fields["warnings"] = [warning.message for warning in status.warnings]
    return fields


# ---- the whole corpus


def test_the_corpus_lists_are_complete() -> None:
    """Every percona-toolkit and sysbench file carrying an InnoDB status is in the parametrised list."""
    banner = re.compile(r"INNODB MONITOR OUTPUT|^LATEST DETECTED DEADLOCK$", re.M)
    carrying = {
        str(path.relative_to(CORPUS))
        for folder in (PT, SYSBENCH)
        for path in (CORPUS / folder).rglob("*")
        if path.is_file() and banner.search(path.read_bytes().decode("utf-8", errors="surrogateescape"))
    }
    assert len(_all_dumps()) == 61
    assert carrying <= set(_all_dumps())


@pytest.mark.parametrize("relative", _all_dumps())
def test_every_real_dump_parses(relative: str) -> None:
    """Each real dump parses; complete ones lack no core section and carry no warning."""
    status = _parse(relative)
    assert status.sections_found
    assert status.truncated == (relative in CUT_SHORT)
    assert bool(status.warnings) == (relative in FRAGMENTS | CUT_SHORT)
    assert all(warning.file == relative for warning in status.warnings)
    if relative in FRAGMENTS:
        assert status.missing_sections
    if relative not in FRAGMENTS | CUT_SHORT:
        assert status.missing_sections == ()
        assert status.log_sequence_number is not None
        assert status.free_buffers is not None


def test_percona_prints_transactions_last_so_a_cut_loses_only_them() -> None:
    """Percona Server moves TRANSACTIONS to the end: a 64 KB cut leaves every other section whole."""
    status = _parse(PT + "t/pt-mysql-summary/samples/innodb-status.002.txt")
    assert status.truncated and status.missing_sections == ()
    assert status.sections_found[-1] == "TRANSACTIONS"
    assert status.history_list_length == 426
    assert len(status.transactions) == 71
    assert status.free_buffers == 1_759_475


# ---- values read from named files


def test_mariadb_1011_under_load() -> None:
    """MariaDB 10.11 under sysbench (`\\G`): history, checkpoint age, hit rate, free buffers, I/O rates."""
    status = _parse(SYSBENCH + "s02_load_rw_default.innodb_status.txt")
    assert status.history_list_length == 212
    # Log sequence number 582919240 - Last checkpoint at 530621965 = 52297275
    assert status.checkpoint_age == 52_297_275
    assert status.buffer_pool_hit_rate == pytest.approx(0.836)  # "Buffer pool hit rate 836 / 1000"
    assert status.free_buffers == 1450
    assert status.database_pages == 6662
    assert status.modified_db_pages == 2616
    assert status.buffer_pool_size_pages == 8112
    assert status.os_reads_per_second == pytest.approx(8613.47)
    assert status.os_fsyncs_per_second == pytest.approx(547.59)
    assert status.pages_written_per_second == pytest.approx(2838.32)
    assert status.read_views_open == 16
    assert status.timestamp == "2026-11-22 11:32:41 0x7f1b344716c0"
    assert status.averages_window_seconds == 50


def test_mariadb_1011_transactions_with_ids_and_addresses() -> None:
    """MariaDB 10.6+ prints an address for id-less transactions; the real ones keep their numbers."""
    status = _parse(SYSBENCH + "s02_load_rw_default.innodb_status.txt")
    assert len(status.transactions) == 16
    first = status.transactions[
        0
    ]  # ---TRANSACTION 43367, ACTIVE 0 sec / 4 lock struct(s), ... undo log entries 2
    assert (first.id, first.state, first.active_seconds) == ("43367", "ACTIVE", 0)
    assert (first.lock_structs, first.row_locks, first.undo_entries) == (4, 2, 2)
    assert (first.thread_id, first.read_view, first.id_is_address) == (24, True, False)
    second = status.transactions[1]  # ---TRANSACTION (0x7f1b4c0ec580), ACTIVE 0 sec
    assert (second.id, second.id_is_address, second.undo_entries) == ("0x7f1b4c0ec580", True, 0)
    assert status.trx_id_format == "decimal"


def test_mariadb_empty_semaphores_and_no_page_gets() -> None:
    """Idle MariaDB 10.11: an empty SEMAPHORES section gives None, "No buffer pool page gets" no hit rate."""
    status = _parse(SYSBENCH + "s01_idle_default.innodb_status.txt")
    assert "SEMAPHORES" in status.sections_found
    assert status.semaphore_os_waits is None
    assert status.semaphore_waiting_threads is None
    assert status.buffer_pool_hit_rate is None
    assert status.history_list_length == 0
    assert status.transactions == ()


def test_mysql_50_two_part_numbers() -> None:
    """5.0 prints LSNs and trx ids as two 32-bit halves: `257 1596200561` = 257 * 2**32 + 1596200561."""
    status = _parse(RW + "kjellm_munin-mysql__innodb-status-5.0.68-percona-highperf.txt")
    assert status.log_sequence_number == 257 * 2**32 + 1_596_200_561 == 1_105_402_795_633
    assert status.last_checkpoint == 257 * 2**32 + 1_595_039_957
    # both share the high half 257: 1596200561 - 1595039957 = 1160604
    assert status.checkpoint_age == 1_160_604
    assert status.trx_id_counter == 1 * 2**32 + 2_601_507_487  # Trx id counter 1 2601507487
    assert status.trx_id_format == "two-part"
    assert status.history_list_length == 17
    assert status.transactions[0].id == "0"  # ---TRANSACTION 0 0, not started
    last = status.transactions[-1]  # ---TRANSACTION 1 2601507477, not started, ... / MySQL thread id 160526
    assert (last.id, last.state, last.thread_id) == (str(2**32 + 2_601_507_477), "not started", 160526)
    assert status.free_buffers == 47895
    assert status.buffer_pool_hit_rate == 1.0


def test_mysql_50_semaphores_rows_and_io() -> None:
    """5.0 SEMAPHORES: the mutex and both RW OS-wait counters add up; row and file I/O rates read."""
    status = _parse(RW + "kjellm_munin-mysql__innodb-status-5.0.68-percona-highperf.txt")
    assert status.semaphore_os_waits == 26_634_117 + 3_989_532 + 751_502
    assert status.semaphore_reservation_count == 32_353_502
    assert status.semaphore_signal_count == 3_140_950
    assert status.rows_inserted_per_second == pytest.approx(45.39)
    assert status.rows_deleted_per_second == pytest.approx(44.59)
    assert status.rows_read_per_second == pytest.approx(522149.57)
    assert status.rows_read == 4_003_866_740
    assert status.os_reads_per_second == 0.0
    assert status.os_fsyncs_per_second == pytest.approx(8.0)
    assert status.ibuf_merges == 3048  # "3735 inserts, 3735 merged recs, 3048 merges"


def test_deadlock_is_noted_but_its_sql_is_not_kept() -> None:
    """The deadlock and foreign-key reports are flagged; none of their query text survives parsing."""
    status = _parse(RW + "kjellm_munin-mysql__innodb-status-5.0.68-percona-highperf.txt")
    assert status.has_deadlock
    assert status.latest_deadlock_at == "090220  8:23:00"
    assert status.has_foreign_key_error
    kept = repr(status)
    for sql in ("article_list_view", "eceCatalog", "alter table", "SHOW ENGINE INNODB STATUS"):
        assert sql not in kept


def test_long_transaction_with_undo() -> None:
    """A 5.1 built-in dump: ACTIVE 254 sec, 2850 lock structs, 581344 row locks, 153341 undo entries."""
    status = _parse(PT + "t/pt-mysql-summary/samples/innodb-status.004.txt")
    (trx,) = [
        t for t in status.transactions if t.id == "94892591"
    ]  # ---TRANSACTION 0 94892591, ACTIVE 254 sec
    assert (trx.state, trx.active_seconds, trx.thread_id) == ("ACTIVE", 254, 391236)
    assert (trx.lock_structs, trx.row_locks, trx.undo_entries) == (2850, 581344, 153341)
    assert trx.read_view
    assert status.history_list_length == 1282
    assert status.buffer_pool_hit_rate == pytest.approx(0.999)


def test_mysql_55_hex_transaction_ids() -> None:
    """5.5 prints ids in hex: `B0049C63` is 2953092195, ACTIVE 354 sec with 63 undo entries."""
    status = _parse(RW + "innotop_innotop__innodb-status-007.txt")
    assert status.trx_id_format == "hex"
    assert status.trx_id_counter == 0xB0055592
    (trx,) = [t for t in status.transactions if t.id == str(0xB0049C63)]
    assert (trx.active_seconds, trx.undo_entries, trx.row_locks, trx.lock_structs) == (
        354,
        63,
        4093569,
        24834,
    )
    assert trx.thread_id == 406073
    assert status.history_list_length == 2496


def test_digits_only_ids_of_the_hex_era_are_hex() -> None:
    """A 5.1-plugin dump (banner `100904 10:24:51`): `907` and counter `908` are hex, like `3EA5449`."""
    status = _parse(RW + "innotop_innotop__innodb-status-001.txt")
    assert status.trx_id_counter == 0x908 == 2312
    assert [t.id for t in status.transactions] == [str(0x907), str(0x3EA5449)]
    assert status.transactions[0].active_seconds == 35
    assert status.max_checkpoint_age == 7_782_360  # Percona's extra LOG lines
    assert status.checkpoint_age_target == 7_539_162


def test_mysql_81_log_lines_semaphore_waits_and_system_rows() -> None:
    """8.x: padded LOG labels and their new lines, threads waiting on latches, user (not system) row rates."""
    status = _parse(RW + "innotop_innotop__innodb-status-011.txt")
    assert status.log_sequence_number == 20_847_697
    assert status.log_buffer_assigned_up_to == 20_847_697
    assert status.log_written_up_to == 20_847_697
    assert status.log_pages_flushed_up_to == 19_699_957
    assert status.checkpoint_age == 20_847_697 - 19_699_957
    assert status.semaphore_waiting_threads == 9
    assert status.longest_semaphore_wait_seconds == 0.0
    assert status.semaphore_reservation_count == 8133
    assert status.rows_inserted_per_second == pytest.approx(31.72)  # not the system rows' 8.39
    assert status.rows_read_per_second == pytest.approx(24824.07)
    assert status.transactions[0].id == "421260532587336"
    assert (status.master_thread_active_loops, status.master_thread_idle_loops) == (47, 951972)


def test_insert_buffer_and_partitioned_adaptive_hash_index() -> None:
    """8.x prints one `Hash table size` line per AHI partition: sizes and heap buffers are summed."""
    status = _parse(RW + "innotop_innotop__innodb-status-011.txt")
    assert status.adaptive_hash_table_size_cells == 8 * 17393
    assert status.adaptive_hash_heap_buffers == 3 + 1
    assert status.hash_searches_per_second == 0.0
    assert status.non_hash_searches_per_second == pytest.approx(62.66)
    assert (status.ibuf_size_pages, status.ibuf_free_list_len_pages, status.ibuf_segment_size_pages) == (
        1,
        0,
        2,
    )
    assert status.ibuf_merges == 0


def test_prepared_xa_transaction_state() -> None:
    """An XA transaction in PREPARED state keeps its state text and its ACTIVE seconds."""
    status = _parse(RW + "innotop_innotop__innodb-status-010.txt")
    (trx,) = [
        t for t in status.transactions if t.id == "8885"
    ]  # ---TRANSACTION 8885, ACTIVE (PREPARED) 0 sec
    assert (trx.state, trx.active_seconds, trx.lock_structs, trx.undo_entries) == (
        "ACTIVE (PREPARED)",
        0,
        1,
        1,
    )


def test_multiple_buffer_pools_use_the_totals() -> None:
    """With INDIVIDUAL BUFFER POOL INFO, the main section's totals are used, not BUFFER POOL 0's."""
    status = _parse(RW + "kjellm_munin-mysql__innodb-status-5.5-multiple-buffer-pools.txt")
    assert status.buffer_pool_size_pages == 1_769_468  # not 442367
    assert status.buffer_pool_size_bytes == 28_990_963_712
    assert status.free_buffers == 1
    assert status.database_pages == 1_672_426
    assert status.modified_db_pages == 2923
    assert status.pages_read_per_second == pytest.approx(7.40)
    assert "INDIVIDUAL BUFFER POOL INFO" in status.sections_found
    assert status.missing_sections == ("SEMAPHORES", "TRANSACTIONS", "FILE I/O", "LOG", "ROW OPERATIONS")
    assert not status.truncated


def test_truncated_dump_keeps_what_is_there() -> None:
    """A dump cut at 64000 bytes inside the deadlock report: semaphores read, the rest listed as missing."""
    relative = RW + "kjellm_munin-mysql__innodb-status-truncated.txt"
    status = _parse(relative)
    assert status.truncated
    assert status.semaphore_os_waits == 391_344_272 + 100_492_735 + 24_015_785
    assert status.has_deadlock
    assert status.latest_deadlock_at == "090322 22:01:14"
    assert status.missing_sections == (
        "TRANSACTIONS",
        "FILE I/O",
        "LOG",
        "BUFFER POOL AND MEMORY",
        "ROW OPERATIONS",
    )
    assert status.log_sequence_number is None and status.checkpoint_age is None
    messages = [warning.describe() for warning in status.warnings]
    assert any(m.startswith(f"{relative}:167: ") and "LATEST DETECTED DEADLOCK" in m for m in messages)
    assert any(m.startswith(f"{relative}: ") and "TRANSACTIONS" in m for m in messages)


def test_end_line_without_dashes_still_ends_the_dump() -> None:
    """pt-deadlock-logger's sample puts END right after the deadlock: complete, but a deadlock-only fragment."""
    status = _parse(PT + "t/pt-deadlock-logger/samples/bug_903443.txt")
    assert not status.truncated
    assert status.sections_found == ("LATEST DETECTED DEADLOCK",)
    assert status.latest_deadlock_at == "111212 22:52:42"


def test_batch_escaped_dump() -> None:
    """`mysql -B` output (the Status on one line, `\\n` escaped) reads like the raw text."""
    status = _parse(RW + "gajoed237-git_sni-betta-flare__innodb_status.txt")
    assert status.log_sequence_number == 98_025_810
    assert status.checkpoint_age == 98_025_810 - 98_025_801  # = 9
    assert status.free_buffers == 7183
    assert status.semaphore_os_waits == 71 + 3 + 11
    assert status.history_list_length == 0
    assert status.timestamp == "2026-01-08 17:30:34 0x50d8"


def _mysql_batch_unescape(field: str) -> str:
    """The test's own decoding of a `mysql -B` field, one character at a time."""
    out, chars = [], iter(field)
    for char in chars:
        if char == "\\":
            escaped = next(chars, "")
            out.append({"n": "\n", "t": "\t", "0": "\0", "\\": "\\"}.get(escaped, "\\" + escaped))
        else:
            out.append(char)
    return "".join(out)


@pytest.mark.parametrize(
    "relative",
    [RW + "gajoed237-git_sni-betta-flare__innodb_status.txt", RW + "idara-me_POS-Awesome__innodb.txt"],
)
def test_batch_escaped_equals_its_decoded_text(relative: str) -> None:
    """Parsing the escaped file gives the same result as parsing its Status decoded by hand (incl. `\\\\`)."""
    status_field = _read(relative).split("\n")[1].split("\t", 2)[2]
    decoded = parse_innodb_status(_mysql_batch_unescape(status_field), relative)
    assert _fields_without_file(_parse(relative)) == _fields_without_file(decoded)


def test_client_table_form_reads_like_the_raw_text() -> None:
    """The mysql client's table (`| InnoDB |  | ` then the multi-line cell) reads like the raw dump."""
    relative = RW + "percona_percona-monitoring-plugins__cacti-innodb-001.txt"
    raw = _read(relative)
    rule = "+--------+------+--------+"
    table = f"{rule}\n| Type   | Name | Status |\n{rule}\n| InnoDB |      | \n{raw} |\n{rule}\n1 row in set (0.01 sec)\n"
    assert _fields_without_file(parse_innodb_status(table, relative)) == _fields_without_file(
        _parse(relative)
    )
    assert _parse(relative).history_list_length == 9


@pytest.mark.parametrize(
    ("relative", "history"),
    [
        (RW + "innotop_innotop__innodb-status-002.txt", 1067),  # `mysql>` prompt line before the \G row
        (RW + "innotop_innotop__innodb-status-003.txt", 2402),  # garbled `Type Name Status InnoDB` header
        (RW + "percona_percona-monitoring-plugins__cacti-innodb-002.txt", 132),  # CRLF line ends
        (RW + "DataDog_integrations-core__innodb_status_mysql_84.txt", 19),  # no ===== line above the banner
    ],
)
def test_wrapper_oddities(relative: str, history: int) -> None:
    """Prompts, garbled headers, CRLF and a missing banner rule do not disturb the sections."""
    status = _parse(relative)
    assert status.history_list_length == history
    assert status.missing_sections == ()
    assert status.checkpoint_age is not None


def test_crlf_does_not_hide_line_end_values() -> None:
    """In the CRLF dump, values matched up to the line end (LSN, Trx id counter) still read."""
    status = _parse(RW + "percona_percona-monitoring-plugins__cacti-innodb-002.txt")
    assert status.trx_id_counter == 0xEF861B144C
    assert status.log_sequence_number == 13_093_949_495_856
    assert status.buffer_pool_hit_rate == pytest.approx(0.994)


def test_mariadb_11_without_insert_buffer_section_is_complete() -> None:
    """MariaDB 11.1 drops INSERT BUFFER AND ADAPTIVE HASH INDEX and srv_shutdown: not reported missing."""
    status = _parse(RW + "DataDog_integrations-core__innodb_status_mariadb_111.txt")
    assert "INSERT BUFFER AND ADAPTIVE HASH INDEX" not in status.sections_found
    assert status.missing_sections == () and status.warnings == ()
    assert (status.master_thread_active_loops, status.master_thread_idle_loops) == (0, 974)
    assert status.history_list_length == 53


def test_excerpt_without_banner() -> None:
    """A deadlock excerpt with no banner and no END still parses, flagged as cut short."""
    status = _parse(PT + "t/pt-deadlock-logger/samples/bug_1195034.txt")
    assert status.sections_found == ("LATEST DETECTED DEADLOCK",)
    assert status.timestamp is None
    assert status.latest_deadlock_at == "130624 17:39:24"
    assert status.truncated


def test_a_dump_inside_a_perl_heredoc_is_read() -> None:
    """The munin Perl fixture holds a verbatim 5.1 dump in a heredoc; text around a dump is ignored."""
    status = _parse("realworld/other/kjellm_munin-mysql__mysql_51_data.pm")
    assert status.missing_sections == ()
    assert status.semaphore_os_waits == 93073 + 30531 + 575


# ---- refusals


@pytest.mark.parametrize(
    "relative",
    [
        "realworld/variables/percona_percona-monitoring-plugins__global-variables-001.txt",
        "realworld/other/ltangvald_mysql__mylogin-bad-cipher.cnf",  # binary
        "realworld/variables/ltangvald_mysql__mysqld--help-notwin-5.7.result",  # mentions InnoDB words
        SYSBENCH + "s02_load_rw_default.innodb_trx.tsv",
    ],
)
def test_other_files_are_refused_at_line_1(relative: str) -> None:
    """A file that is not an InnoDB status at all is an InputError naming the file and line 1."""
    with pytest.raises(InputError) as caught:
        _parse(relative)
    assert (caught.value.file, caught.value.line) == (relative, 1)


def test_absurdly_long_number_is_refused_not_crashed() -> None:
    """A 5000-digit counter would make int() raise ValueError; it becomes an InputError instead."""
    text = _read(SYSBENCH + "s01_idle_default.innodb_status.txt").replace(
        "History list length 0", "History list length " + "9" * 5000
    )
    with pytest.raises(InputError, match="digits"):
        parse_innodb_status(text, "long.txt")


def test_empty_text_is_refused() -> None:
    """Empty input is not a dump."""
    with pytest.raises(InputError):
        parse_innodb_status("", "empty.txt")


# ---- properties and speed


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_arbitrary_text_parses_or_is_refused(text: str) -> None:
    """Any text gives a parse or an InputError, nothing else."""
    with contextlib.suppress(InputError):
        assert isinstance(parse_innodb_status(text, "random.txt"), InnodbStatus)


_PIECES = [
    "----------",
    "---",
    "SEMAPHORES",
    "TRANSACTIONS",
    "LOG",
    "FILE I/O",
    "BUFFER POOL AND MEMORY",
    "ROW OPERATIONS",
    "LATEST DETECTED DEADLOCK",
    "END OF INNODB MONITOR OUTPUT",
    "090220 12:36:43 INNODB MONITOR OUTPUT",
    "InnoDB\t\t\\n----\\nLOG\\n---\\nLog sequence number 1 2\\\\",
    "---TRANSACTION {n} {n}, ACTIVE {n} sec",
    "---TRANSACTION {x}, not started",
    "---TRANSACTION (0x{x}), ACTIVE {n} sec",
    "LOCK WAIT {n} lock struct(s), heap size {n}, {n} row lock(s), undo log entries {n}",
    ", undo log entries {n}",
    "MariaDB thread id {n}, OS thread handle {n}",
    "Trx id counter {x}",
    "History list length {n}",
    "Log sequence number {n} {n}",
    "Last checkpoint at  {n}",
    "Buffer pool hit rate {n} / {n}",
    "Buffer pool hit rate {n} / 0",
    "{f} reads/s, {n} avg bytes/read, {f} writes/s, {f} fsyncs/s",
    "Number of rows inserted {n}, updated {n}, deleted {n}, read {n}",
    "{f} inserts/s, {f} updates/s, {f} deletes/s, {f} reads/s",
    "Mutex spin waits {n}, rounds {n}, OS waits {n}",
    "--Thread {n} has waited at x.cc line 1 for {f} seconds the semaphore:",
    "Hash table size {n}, node heap has {n} buffer(s)",
    "Ibuf: size {n}, free list len {n}, seg size {n}, {n} merges",
]


@st.composite
def _dump_like(draw: st.DrawFn) -> str:
    lines = []
    for piece in draw(st.lists(st.sampled_from(_PIECES), max_size=40)):
        numbers = st.integers(min_value=0, max_value=2**70)
        lines.append(
            piece.replace("{n}", str(draw(numbers)))
            .replace("{x}", format(draw(numbers), "X"))
            .replace("{f}", draw(st.sampled_from(["0.00", "12.5", "1e5", "nan", "1.2.3"])))
        )
    return draw(st.sampled_from(["\n", "\r\n"])).join(lines)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_dump_like())
def test_dump_shaped_text_parses_or_is_refused(text: str) -> None:
    """Shuffled real line shapes with odd numbers give a parse (ids as digits or 0x addresses) or an InputError."""
    try:
        status = parse_innodb_status(text, "shaped.txt")
    except InputError:
        return
    for trx in status.transactions:
        assert trx.id.isdigit() or (trx.id_is_address and trx.id.startswith("0x"))


_FULL_DUMP = RW + "kjellm_munin-mysql__innodb-status-5.0.68-percona-highperf.txt"


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_a_dump_cut_anywhere_after_its_first_section_never_raises(data: st.DataObject) -> None:
    """Cutting a real dump at any point after its first section title yields a result, flagged as cut."""
    text = _read(_FULL_DUMP)
    first_title = text.index("\nSEMAPHORES\n") + len("\nSEMAPHORES")
    end_line = text.index("\nEND OF INNODB MONITOR OUTPUT")
    cut = data.draw(st.integers(min_value=first_title, max_value=end_line))
    status = parse_innodb_status(text[:cut], _FULL_DUMP)
    assert status.truncated
    assert any("cut short" in warning.message for warning in status.warnings)


# ---- purge progress (issue 16: the purge lag from one dump)


def test_purge_done_in_each_id_spelling() -> None:
    """`Purge done for trx's n:o < N` is read like the ids of its dump: decimal with the 10.x state,
    5.5 hex, 5.0 two halves; the purge lag is the counter minus it."""
    mariadb = _parse(SYSBENCH + "s02_load_rw_default.innodb_status.txt")
    assert (mariadb.purge_done_trx, mariadb.purge_state) == (42954, "running")
    assert mariadb.trx_id_counter is not None and mariadb.trx_id_counter - 42954 == 418
    hex_era = _parse(RW + "innotop_innotop__innodb-status-007.txt")
    assert (hex_era.purge_done_trx, hex_era.purge_state) == (0xB00554DC, None)
    two_part = _parse(RW + "kjellm_munin-mysql__innodb-status-5.0.68-percona-highperf.txt")
    assert two_part.purge_done_trx == 1 * 2**32 + 2_601_499_335
    idle = _parse(SYSBENCH + "s01_idle_default.innodb_status.txt")
    assert (idle.purge_done_trx, idle.purge_state) == (1337, "running but idle")


def test_read_view_low_limit() -> None:
    """`Trx read view will not see trx with id >= X`: X is the view's low limit, in the dump's spelling."""
    mariadb = _parse(SYSBENCH + "s02_load_rw_default.innodb_status.txt")
    assert mariadb.transactions[0].read_view_low_limit == 43345
    hex_era = _parse(RW + "innotop_innotop__innodb-status-007.txt")
    (trx,) = [t for t in hex_era.transactions if t.id == str(0xB0055559)]  # the view under its query
    assert (trx.read_view, trx.read_view_low_limit) == (True, 0xB005555A)
    assert all(t.read_view_low_limit is None for t in hex_era.transactions if not t.read_view)
