"""One redactor for everything a user sends: each input kind in each of its layouts, and the messages
that quote them. The service runs it before anything is stored, logged or echoed.

* option files — `advisor.redact.redact_option_text` (option lines, `password hunter2`, comments);
* variables and status dumps — every layout the parsers read: the client's table, TSV, `\\G`,
  columns, CSV (`advisor.redact.redact_variables_text`), and JSON, parsed and walked, so a
  `{"report_password": …}` member or a `{"Variable_name": "report_password", "Value": …}` row is
  found however the document is laid out (compact, nested, one document per line);
* SHOW ENGINE INNODB STATUS and schema facts — the statement text a transaction runs:
  `IDENTIFIED BY '…'`, `IDENTIFIED WITH plugin AS '…'`, `SET PASSWORD … = '…'`, `PASSWORD('…')`,
  `MASTER_PASSWORD = '…'` and the like (a query cut off inside its literal loses the rest of the line);
* messages (parser errors quote the line they stop at) — all of the above, plus any secret name
  followed by a value anywhere in the text.

Redacting never fails and never changes text without a secret; redacting twice changes nothing.
"""

from __future__ import annotations

import json
import re
from enum import StrEnum
from typing import Any, Final

from advisor.redact import (
    REDACTED,
    SECRET_TRIGGER,
    is_secret_option,
    redact_option_text,
    redact_variables_text,
)


class InputKind(StrEnum):
    MYCNF = "mycnf"
    VARIABLES = "variables"
    STATUS = "status"
    INNODB_STATUS = "innodb_status"
    SCHEMA = "schema"
    HARDWARE = "hardware"
    PERSISTED = "persisted"


# A quoted SQL string (doubled quotes and backslash escapes inside), or its start when cut off.
_LITERAL: Final = r"(?:'(?:[^'\\\n]|\\.|'')*(?:'|$)|\"(?:[^\"\\\n]|\\.|\"\")*(?:\"|$))"
_SQL_SECRET_RE: Final = re.compile(
    r"(?P<lead>"
    r"\bIDENTIFIED\s+(?:WITH\s+(?:'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`|\w+)\s+)?(?:BY|AS)\s+(?:PASSWORD\s+)?"
    r"|\bSET\s+PASSWORD\b[^=\n]*=\s*(?:(?:OLD_)?PASSWORD\s*\(\s*)?"
    r"|\b(?:OLD_)?PASSWORD\s*\(\s*"
    r"|\b\w*(?:PASSWORD|PASSWD|SECRET\w*|_TOKEN)\s*=\s*"
    r"|\bPASSWORD\s+(?=['\"])"
    r")(?P<literal>" + _LITERAL + r")",
    re.IGNORECASE | re.MULTILINE,
)
# `"name": value` in JSON-like text (also when the whole document does not parse).
_JSON_PAIR_RE: Final = re.compile(
    r"\"(?P<name>[A-Za-z][A-Za-z0-9_.\-]*)\"\s*:\s*"
    r"(?P<value>\"(?:[^\"\\\n]|\\.)*\"|-?[0-9][0-9.eE+\-]*|true|false)"
)
# In a message: a word, and after a secret name a separator and the value (up to a quote, space,
# `|` or `,`). Each word is tried, so a name never hides inside the value of the word before it.
_MESSAGE_WORD_RE: Final = re.compile(r"[A-Za-z\-][A-Za-z0-9_.\-]*")
_MESSAGE_VALUE_RE: Final = re.compile(r"[\"']?[ \t]*(?:[=:|,\t][ \t]*|[ \t]+)[\"']?(?P<value>[^\s'\"|,]+)")
_TRIGGER_RE: Final = re.compile(SECRET_TRIGGER + "|identified", re.I)
_NAME_KEYS: Final = frozenset({"variable_name", "name"})
_VALUE_KEYS: Final = frozenset({"value", "variable_value"})


def _redact_literal(match: re.Match[str]) -> str:
    literal = match.group("literal")
    quote = literal[0]
    inner = literal[1:-1] if len(literal) > 1 and literal.endswith(quote) else literal[1:]
    if inner in ("", REDACTED):
        return match.group(0)
    closing = quote if len(literal) > 1 and literal.endswith(quote) else ""
    return f"{match.group('lead')}{quote}{REDACTED}{closing}"


def redact_sql(text: str) -> str:
    """Statement text with the literal of every password clause replaced by `[REDACTED]`."""
    if not text or _TRIGGER_RE.search(text) is None:
        return text
    return _SQL_SECRET_RE.sub(_redact_literal, text)


def _redact_json_pairs(text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        value = match.group("value")
        if not is_secret_option(match.group("name")) or value in ('""', f'"{REDACTED}"'):
            return match.group(0)
        return match.group(0)[: match.start("value") - match.start()] + f'"{REDACTED}"'

    return _JSON_PAIR_RE.sub(replace, text)


def _is_secret_value(value: Any) -> bool:
    return value not in (None, "", REDACTED) and not isinstance(value, (dict, list))


def _walk(node: Any) -> bool:
    """Redact secrets inside a parsed JSON node in place; True when something changed."""
    changed = False
    if isinstance(node, list):
        for item in node:
            changed = _walk(item) or changed
    elif isinstance(node, dict):
        lowered = {str(key).lower(): key for key in node}
        names = [node[lowered[key]] for key in _NAME_KEYS if key in lowered]
        row_secret = any(isinstance(name, str) and is_secret_option(name) for name in names)
        for key in list(node):
            value = node[key]
            secret = is_secret_option(str(key)) or (row_secret and str(key).lower() in _VALUE_KEYS)
            if secret and _is_secret_value(value):
                node[key] = REDACTED
                changed = True
            else:
                changed = _walk(value) or changed
    return changed


def _json_documents(text: str) -> list[Any] | None:
    decoder = json.JSONDecoder()
    documents: list[Any] = []
    position = len(text) - len(text.lstrip())
    try:
        while position < len(text):
            document, position = decoder.raw_decode(text, position)
            documents.append(document)
            position += len(text[position:]) - len(text[position:].lstrip())
    except (ValueError, RecursionError):
        return None
    return documents


def redact_json(text: str) -> str:
    """JSON text with every secret-named member and every secret `{Variable_name, Value}` row
    redacted; rewritten (one document per line, or indented when it was one document) only when
    something was found. Text that is not JSON only has its `"secret": value` pairs redacted."""
    if not text or _TRIGGER_RE.search(text) is None:
        return text
    stripped = text.lstrip().removeprefix("\ufeff")
    documents = _json_documents(stripped) if stripped[:1] in ("{", "[") else None
    if documents is None:
        return _redact_json_pairs(text)
    if not any([_walk(document) for document in documents]):
        return text
    if len(documents) == 1:
        return json.dumps(documents[0], indent=2, ensure_ascii=False) + "\n"
    return "\n".join(json.dumps(document, ensure_ascii=False) for document in documents) + "\n"


def redact_input(kind: InputKind | str, text: str) -> str:
    """An uploaded text of this kind with every secret it holds, in any of its layouts, redacted."""
    if not text or _TRIGGER_RE.search(text) is None:
        return text
    match InputKind(kind):
        case InputKind.MYCNF:
            return redact_sql(redact_option_text(text))
        case InputKind.VARIABLES | InputKind.STATUS | InputKind.PERSISTED:
            return redact_sql(redact_variables_text(redact_json(text)))
        case InputKind.INNODB_STATUS:
            return redact_sql(text)
        case InputKind.SCHEMA:
            return redact_sql(redact_json(text))
        case InputKind.HARDWARE:
            return redact_json(text)


def redact_message(text: str) -> str:
    """A message (an error quoting a line of any input) with every value after a secret name, and
    every password clause, redacted. May hide more than a secret: messages are for reading."""
    if not text or _TRIGGER_RE.search(text) is None:
        return text

    text = redact_sql(_redact_json_pairs(text))
    pieces: list[str] = []
    done = 0
    for word in _MESSAGE_WORD_RE.finditer(text):
        if word.start() < done or not is_secret_option(word.group()):
            continue
        value = _MESSAGE_VALUE_RE.match(text, word.end())
        if value is None or value.group("value") == REDACTED:
            continue
        pieces += [text[done : value.start("value")], REDACTED]
        done = value.end("value")
    return "".join(pieces) + text[done:]
