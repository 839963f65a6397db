"""The TRANSACTIONS section of SHOW ENGINE INNODB STATUS: counters and the per-session transaction list.

Transaction ids come in three spellings, decided per dump:

* two 32-bit halves, `0 80157601` (5.0 and the 5.1 built-in InnoDB): combined as high * 2**32 + low;
* hexadecimal, `2B4E9` (the 5.1 InnoDB plugin, 5.5, Percona/XtraDB and MariaDB 5.5 print `%llX`);
* decimal, `421342425` (MySQL 5.6+, MariaDB 10.0+).

A single-token id is hex when it contains a letter A–F. A digits-only token is ambiguous (`3405` is
valid in both), so the dump's era decides: the hex-printing servers are also the ones whose banner
timestamp is `YYMMDD HH:MM:SS`, while 5.6+ print `YYYY-MM-DD HH:MM:SS`. Without a banner, the token
is hex if any id or the `Trx id counter` of the same dump has a letter, else decimal. This is a
heuristic: a digits-only id in a banner-less 5.5 fragment whose ids happen to lack letters is read
as decimal.
"""

from __future__ import annotations

import re

from msgspec import Struct

_M = re.M | re.A
_HEX_LETTER = re.compile(r"[A-Fa-f]")
_TRX_HEAD = re.compile(
    r"\n---TRANSACTION (?:(\d+) (\d+)|\((0x[0-9A-Fa-f]+)\)|([0-9A-Fa-f]+))"
    r"(?:, (ACTIVE \(PREPARED\)|ACTIVE|not started|COMMITTED IN MEMORY|forced rollback|state \d+)"
    r"(?: (\d+) sec)?)?",
    _M,
)
#: "[LOCK WAIT ]N lock struct(s), heap size H[, R row lock(s)][, undo log entries U]"; 5.0 may print
#: ", undo log entries U" alone when the transaction holds no locks.
_TRX_LOCKS = re.compile(
    r"\n(LOCK WAIT )?(?=\d+ lock struct\(s\)|, undo log entries)"
    r"(?:(\d+) lock struct\(s\), heap size \d+(?:, (\d+) row lock\(s\))?)?"
    r"(?:[^\n]*?, undo log entries (\d+))?",
    _M,
)
_TRX_THREAD = re.compile(r"\n(?:MySQL|MariaDB) thread id (\d+)", _M)
_TRX_COUNTER = re.compile(r"\nTrx id counter (?:(\d+) (\d+)|([0-9A-Fa-f]+))[ \t]*$", _M)
_HISTORY = re.compile(r"\nHistory list length (\d+)", _M)
#: "Purge done for trx's n:o < N undo n:o < M[ state: running but idle]": the transaction number purge
#: has reached (same counter and spelling as the ids) and, from 5.7/10.x, what purge is doing.
_PURGE_DONE = re.compile(
    r"\nPurge done for trx's n:o < (?:(\d+) (\d+)|([0-9A-Fa-f]+)) undo n:o < (?:\d+ \d+|[0-9A-Fa-f]+)"
    r"(?: state: ([^\n]*?))?[ \t]*$",
    _M,
)
_READ_VIEW = "\nTrx read view will not see"
#: "Trx read view will not see trx with id >= X, sees < Y": X is the view's low limit; purge cannot
#: pass the oldest view's low limit.
_READ_VIEW_LIMIT = re.compile(
    r"\nTrx read view will not see trx with id >= (?:(\d+) (\d+)|([0-9A-Fa-f]+))", _M
)
_WAITING = "\n------- TRX HAS BEEN WAITING"


class InnodbTransaction(Struct, frozen=True):
    """One transaction from the TRANSACTIONS section (query texts are never kept).

    `id` is a normalized decimal string (see the module docstring for two-part and hex ids). For
    MariaDB 10.6+ transactions that have no id yet the dump prints an address, `(0x7f1b4c0ec580)`;
    then `id` is that address (`0x7f1b4c0ec580`) and `id_is_address` is True. The counts come from
    the `N lock struct(s), heap size H, R row lock(s), undo log entries U` line; InnoDB leaves out the
    undo part when it is 0, so `undo_entries` is 0 there, and None only when the line is absent (5.0
    leaves it out for lock-free transactions; the 5.0 dumps of the corpus print no row-lock count).
    """

    id: str
    state: str | None = None
    active_seconds: int | None = None
    row_locks: int | None = None
    lock_structs: int | None = None
    undo_entries: int | None = None
    thread_id: int | None = None
    read_view: bool = False
    lock_wait: bool = False
    id_is_address: bool = False
    #: The read view's low limit ("will not see trx with id >= X"); None without a read view.
    read_view_low_limit: int | None = None


class TransactionsSection(Struct, frozen=True):
    """What the TRANSACTIONS section gave; None where it did not show the value."""

    trx_id_counter: int | None
    #: "two-part", "hex" or "decimal": how the ids of this dump were read; None with no id at all.
    trx_id_format: str | None
    history_list_length: int | None
    transactions: tuple[InnodbTransaction, ...]
    #: "Purge done for trx's n:o < N": purge has processed every transaction numbered below N.
    purge_done_trx: int | None = None
    #: "running", "running but idle", "stopped", ... (5.7+, MariaDB 10.x); None where not printed.
    purge_state: str | None = None


def parse_transactions(text: str, start: int, end: int, hex_era: bool | None) -> TransactionsSection:
    """Read text[start:end] (the section body). `hex_era` is True for a `YYMMDD` banner, False for an
    ISO-date banner, None when the dump has no banner."""
    heads = list(_TRX_HEAD.finditer(text, start, end))
    header_end = heads[0].start() if heads else end
    counter = _TRX_COUNTER.search(text, start, header_end)
    history = _HISTORY.search(text, start, header_end)
    purge = _PURGE_DONE.search(text, start, header_end)
    hex_ids = _reads_hex(hex_era, counter, heads)
    id_format = None
    if (counter is not None and counter[2] is not None) or any(m[2] is not None for m in heads):
        id_format = "two-part"
    elif counter is not None or heads:
        id_format = "hex" if hex_ids else "decimal"
    transactions = tuple(
        _transaction(text, head, heads[i + 1].start() if i + 1 < len(heads) else end, hex_ids)
        for i, head in enumerate(heads)
    )
    return TransactionsSection(
        trx_id_counter=None if counter is None else _trx_id(counter[1], counter[2], counter[3], hex_ids),
        trx_id_format=id_format,
        history_list_length=None if history is None else int(history[1]),
        transactions=transactions,
        purge_done_trx=None if purge is None else _trx_id(purge[1], purge[2], purge[3], hex_ids),
        purge_state=None if purge is None or not purge[4] else purge[4],
    )


def _reads_hex(hex_era: bool | None, counter: re.Match[str] | None, heads: list[re.Match[str]]) -> bool:
    """Whether digits-only single-token ids of this dump are hexadecimal (see the module docstring)."""
    if hex_era is not None:
        return hex_era
    tokens = [m[4] for m in heads if m[4] is not None]
    if counter is not None and counter[3] is not None:
        tokens.append(counter[3])
    return any(_HEX_LETTER.search(token) for token in tokens)


def _trx_id(high: str | None, low: str | None, single: str | None, hex_ids: bool) -> int:
    """A transaction id as a number from its two-part or single-token spelling."""
    if low is not None and high is not None:
        return (int(high) << 32) + int(low)
    token = single or "0"
    return int(token, 16) if hex_ids or _HEX_LETTER.search(token) else int(token)


def _transaction(text: str, head: re.Match[str], end: int, hex_ids: bool) -> InnodbTransaction:
    """One transaction from its `---TRANSACTION` line up to the next one (or the section end)."""
    start = head.end()
    address = head[3]
    locks = _TRX_LOCKS.search(text, start, end)
    thread = _TRX_THREAD.search(text, start, end)
    lock_wait = (locks is not None and locks[1] is not None) or text.find(_WAITING, start - 1, end) >= 0
    view = _READ_VIEW_LIMIT.search(text, start - 1, end)
    return InnodbTransaction(
        id=address if address is not None else str(_trx_id(head[1], head[2], head[4], hex_ids)),
        state=head[5],
        active_seconds=None if head[6] is None else int(head[6]),
        lock_structs=None if locks is None or locks[2] is None else int(locks[2]),
        row_locks=None if locks is None or locks[3] is None else int(locks[3]),
        # InnoDB prints the undo count only when it is non-zero, on the lock line: absent there means 0.
        undo_entries=None if locks is None else int(locks[4] or 0),
        thread_id=None if thread is None else int(thread[1]),
        read_view=view is not None or text.find(_READ_VIEW, start - 1, end) >= 0,
        lock_wait=lock_wait,
        id_is_address=address is not None,
        read_view_low_limit=None if view is None else _trx_id(view[1], view[2], view[3], hex_ids),
    )
