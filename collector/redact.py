"""What never leaves the server: passwords in variables, statements and row data in InnoDB status.

SHOW ENGINE INNODB STATUS quotes the statement each listed transaction runs (TRANSACTIONS, LATEST
DETECTED DEADLOCK), the host and user of its connection, and dumps whole index records (column values
in hex and ASCII) for the locks of a deadlock or a foreign key error. The audit needs none of that:
it reads the transaction headers (ACTIVE seconds), the lock lines (row locks, undo entries), History
list length and that a deadlock or foreign key error happened (with its time). So:

* after a `MySQL thread id N, OS thread handle H, query id Q ...` line, the host, user and state are
  cut off the line, and every following line is dropped until one InnoDB itself writes (a
  `---TRANSACTION`, `*** (1) WAITING ...`, `RECORD LOCKS ...`, a lock or read-view line, a section
  border): whatever is between is the statement, however many lines it spans;
* record fields (`0: len 4; hex 80000001; asc     ;;`, `1: SQL NULL;`) are cut wherever they appear;
* LATEST FOREIGN KEY ERROR keeps only its first line (the time): the rest quotes the statement, the
  constraint's DDL and both records.

The collector passes the raw text PyMySQL returns; a `mysql -B` dump (the whole status on one line,
newlines escaped) is unescaped first, so the result is always the raw layout.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from advisor.redact import holds_no_secret

REDACTED = "********"
#: Variable names whose values may be credentials: wsrep_sst_auth, report_password, the key
#: management plugins' secrets and tokens — and names the core knows to be policy switches that merely
#: share a word (advisor.redact.holds_no_secret: max_password_errors, old_passwords, secure_auth), which
#: stay readable: a masked value says nothing, and the audit compares them with the option file.
_SECRET_NAME = re.compile(r"password|passwd|secret|auth|credential|filekey|_token$", re.I)

_THREAD_LINE = re.compile(
    r"((?:MySQL|MariaDB) thread id \d+(?:, OS thread handle [^,\s]+)?(?:, query id \d+)?)"
)
#: Lines InnoDB writes after a statement: they end the statement that began below a thread line.
_INNODB_LINE = re.compile(
    r"-{3}|\*{3} |={5}|Trx |TABLE LOCK |RECORD LOCKS |Record lock, |Foreign key constraint |"
    r"(?:MySQL|MariaDB) thread id \d|mysql tables in use |LOCK WAIT |\d+ lock struct\(s\)|"
    r"END OF INNODB MONITOR OUTPUT"
)
_RECORD_FIELD = re.compile(r" ?\d+: (?:len \d+; hex |SQL NULL)")
_FOREIGN_KEY_TITLE = "LATEST FOREIGN KEY ERROR"
_SECTION_TITLE = re.compile(r"[A-Z][A-Z/ ]+")
_BATCH_ESCAPE = re.compile(r"\\([0nt\\])")
_BATCH_UNESCAPED = {"0": "\0", "n": "\n", "t": "\t", "\\": "\\"}
FOREIGN_KEY_NOTE = "(the statement, constraint and records of this error were removed by innotune collect)"


def redact_variables(rows: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """The variables with the value of every credential-like name replaced by ********.

    Empty values stay empty: they show that nothing is set, and hide nothing. A name that merely shares
    a word with secrets (`max_password_errors`) keeps its value; an unknown one is masked.
    """
    return [
        (name, REDACTED if value and _SECRET_NAME.search(name) and not holds_no_secret(name) else value)
        for name, value in rows
    ]


def _is_border(line: str) -> bool:
    return len(line) >= 3 and line.strip("-") == ""


def strip_innodb_status(text: str) -> tuple[str, int]:
    """The dump without statements, connection hosts/users and row data; and how many lines went.

    A line that was only cut (a thread line, a record header with fields after it) is not counted.
    """
    lines = _unescape_batch(text).split("\n")
    kept: list[str] = []
    dropped = 0
    in_statement = False
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if in_statement:
            if not _INNODB_LINE.match(line):
                dropped += 1
                continue
            in_statement = False
        if thread := _THREAD_LINE.match(line):
            kept.append(thread[1])
            in_statement = True
            continue
        if field := _RECORD_FIELD.search(line):
            line = line[: field.start()].rstrip()
            if not line:
                dropped += 1
                continue
        kept.append(line)
        if line.strip() == _FOREIGN_KEY_TITLE and index >= 2 and _is_border(lines[index - 2]):
            index, skipped = _keep_foreign_key_time(lines, index, kept)
            dropped += skipped
    return "\n".join(kept), dropped


def _keep_foreign_key_time(lines: list[str], index: int, kept: list[str]) -> tuple[int, int]:
    """Inside LATEST FOREIGN KEY ERROR (`index` is below its title): copy the underline and the
    error's first line, which carries its time, and skip the rest of the section.

    Returns where the next section's border is and how many lines were skipped.
    """
    if index < len(lines) and _is_border(lines[index]):
        kept.append(lines[index])
        index += 1
    if index < len(lines):
        kept.append(lines[index])
        index += 1
    skipped = 0
    while index < len(lines):
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if _is_border(lines[index]) and _SECTION_TITLE.fullmatch(following.strip()):
            break
        skipped += 1
        index += 1
    kept.append(FOREIGN_KEY_NOTE)
    return index, skipped


def _unescape_batch(text: str) -> str:
    """The Status column of a `mysql -B` dump (`InnoDB<TAB><TAB>\\n====...` on one line), unescaped;
    any other text as it is."""
    at = text.find("InnoDB\t", 0, 400)
    if at < 0 or (at > 0 and text[at - 1] != "\n"):
        return text
    line_end = text.find("\n", at)
    fields = text[at : line_end if line_end >= 0 else len(text)].split("\t", 2)
    if len(fields) < 3 or "\\n" not in fields[2]:
        return text
    return _BATCH_ESCAPE.sub(lambda m: _BATCH_UNESCAPED[m[1]], fields[2])
