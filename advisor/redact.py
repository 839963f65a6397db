"""Replace secrets (passwords, tokens, keys) in uploaded texts by `[REDACTED]`, keeping every other byte.

The service runs this over option files (and variables dumps) before it stores, logs or returns
anything, so a `[client] password = ...` line never reaches the database. It works line by line and
never fails: a line it cannot read is left as it is, so redacting arbitrary text is safe and
redacting twice changes nothing.

What counts as a secret is decided by the option's name, normalised as the server reads names
(lower case, `-` = `_`, a `loose-` prefix and command-line dashes removed):

* `password`, `passwd`, `pass`, `pwd`, and names ending in `_password`, `_passwd`, `_pass`, `_pwd`,
  `_passphrase` (`report_password`, `master-password`, `ssl-passphrase`, `keyring_..._password`);
* names containing `secret` or ending in `_token` (`aws_key_management_secret_access_key`,
  `keyring_hashicorp_secret_id`, `hashicorp_key_management_token`);
* `wsrep_sst_auth` (`user:password`: only the part after the colon goes) and MariaDB's
  `file_key_management_filekey`;
* minus settings that merely mention passwords: plugin switches such as `mysql_native_password = ON`
  and policies such as `disconnect_on_expired_password`;
* any abbreviation the server or a client could take for one of these (`is_secret_option`): my_getopt
  accepts a unique prefix of an option name (`[client] passw = x` logs the mariadb client in with
  password x, `file_key_management_filek` sets the file key), and a `maximum-` prefix names the option
  too. Which prefix is unique depends on the program (`pa` is `--password` to mariadb-admin and
  mariadb-dump, ambiguous with `--pager` in mariadb), so every prefix that reaches into the secret word
  of a known secret option counts, ambiguous ones included: hiding `file_key_management_f`'s value
  (`_filename` shares it) is harmless, leaking `report_pa`'s (mariadbd 10.11.19 reads it as
  `report_password`) is not. A password word takes two letters at least (`pa`, `report_pa`): `p` is
  ambiguous in every MariaDB client and in mariadbd (`port`, `plugin-dir`, `protocol`), so never a
  password. A stem alone (`ssl`, `file_key_management`) is an ordinary option, never a secret.

A misspelt secret option is a secret too (`pasword = x`, `wsrep_sst_auht = user:pw`,
`master_pasword`): a name no server version knows, one edit (an adjacent swap counts once) from a secret
name or from a secret last word, is read as that secret (`misspelt_secret`). The server refuses the line,
but the value is the password the user meant, and it must not be stored.

Option lines lose the value of a secret option (quotes kept); comments — whole-line or inline — lose
the value of any `secret_name = value` they contain (`#password = x`, `MASTER_PASSWORD='x'`), because a
commented-out password is still a password.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Final

from advisor.inputs.optionsyntax import WHITESPACE, cut_comment, option_spans, quote_of
from advisor.patterns import lazy

REDACTED: Final = "[REDACTED]"

_SECRET_NAMES: Final = frozenset(
    {"password", "passwd", "pass", "pwd", "wsrep_sst_auth", "file_key_management_filekey"}
)
_SECRET_SUFFIXES: Final = ("_password", "_passwd", "_pass", "_pwd", "_passphrase", "_token")
# Names that end like a secret but hold a switch, a policy or a plugin name.
_NOT_SECRETS: Final = frozenset(
    {
        "ask_pass",
        "caching_sha2_password",
        "connect_expired_password",  # the mariadb client's switch
        "disconnect_on_expired_password",
        "log_builtin_as_identified_by_password",
        "mysql_native_password",
        "sha256_password",
        "strict_password_validation",
        "validate_password",
        "old_password",
        "old_passwords",
        "default_password_lifetime",
        "max_password_errors",
        "password_reuse_check",
        "password_reuse_check_interval",
        "simple_password_check",
        "secure_auth",  # MariaDB's switch refusing old-style password hashes
        "innodb_ft_max_token_size",  # sizes whose abbreviations end in `_token`
        "innodb_ft_min_token_size",
        "ngram_token_size",
    }
)
# Known secret options as (stem, secret word): a name is one of them when it starts with the stem and
# goes on with at least the first letter of the word (`wsrep_sst_a` is `wsrep_sst_auth` to mariadbd
# 10.11.19). Other names ending in a password word are handled by `_PASSWORD_WORDS`.
_SECRET_STEMS: Final = (
    ("report_", "password"),  # mariadbd 10.11.19 takes `report_pa` for it
    ("wsrep_sst_", "auth"),
    ("file_key_management_", "filekey"),
    ("hashicorp_key_management_", "token"),
    ("aws_key_management_", "secret_access_key"),
    ("keyring_hashicorp_", "secret_id"),
)
# A name (or its last `_` word) that is an abbreviation of one of these is a password: `pa`, `passw`,
# `report_pa`, `ssl_passp`. MySQL 8.0's clients have `password1` to `password3` (multi-factor) too.
_PASSWORD_WORDS: Final = ("password", "passwd", "passphrase", "password1", "password2", "password3")
# The shortest abbreviation a real program takes for a password: `pa` (mariadb-admin, mariadb-dump,
# mariadb-import, mariadb-show, mariadb-upgrade 10.11.19 have no other option starting with `pa`).
_MIN_ABBREVIATION: Final = 2
# The last word of a name no table here knows (`ssl_passp`, `keyring_file_passw`): from `pass` on, as the
# `_pass` suffix; `_pa` ends ordinary abbreviations too (`max_allowed_pa` is max_allowed_packet).
_GENERIC_ABBREVIATION: Final = 4
# Prefixes the server reads in front of an option's name (`maximum-` is refused for a string
# option, but the value written after it is still the secret).
_NAME_PREFIXES: Final = ("loose_", "maximum_")
# Options whose value is `user:password`: the user is worth keeping, the password is not.
_USER_COLON_SECRET: Final = frozenset({"wsrep_sst_auth"})

# `name = value` inside free text (comments): a quoted value, or a run up to a space, `,`, `;` or `#`.
_COMMENT_ASSIGNMENT_RE: Final = lazy(
    r"(?P<name>[A-Za-z][A-Za-z0-9_.\-]*)[ \t]*=[ \t]*(?P<value>\"[^\"\n]*\"|'[^'\n]*'|[^\s,;#]+)"
)
# A mysql client's password on its command line, quoted in a comment (`# mysql -uroot -phunter2`): `-p` with the
# value attached (a `-p` alone asks for it), after a space, a quote or the start of the text, on a line that names
# a client (mysql, mysqldump, mariadb-admin...) before it.
_CLI_PASSWORD_RE: Final = lazy(r"(?<![^\s\"'`(])-p(?P<value>'[^'\n]*'|\"[^\"\n]*\"|[^\s'\"`;|&)]+)")
_CLIENT_RE: Final = lazy(r"(?:mysql|mariadb)[\w-]*[^\n]*?\s-p", re.I)
# A word followed by a space or a colon and more text, on a line that is not `name = value`.
_PROSE_NAME_RE: Final = lazy(r"(?P<name>[A-Za-z\-][A-Za-z0-9_.\-]*)(?:[ \t]*:[ \t]*|[ \t]+)(?=\S)")
# A variables dump row: `| name | value |`, `name<TAB>value`, `name   value`, CSV or JSON pairs.
#: `key=value` pairs inside one option's value: Galera's `wsrep_provider_options = "gcache.size=1G;
#: socket.ssl_password=…"` (the key's last dotted part names the secret)
_PAIR_RE: Final = lazy(r"(?P<name>[A-Za-z][\w.\-]*)[ \t]*=[ \t]*(?P<value>[^;\s\"']*)")
_VARIABLE_ROW_RE: Final = lazy(
    r"(?P<lead>[ \t|\"']*)(?P<name>[A-Za-z][A-Za-z0-9_.\-]*)"
    r"(?P<sep>[\"']?(?:[ \t]*\|[ \t]*|[ \t]*[,:=][ \t]*|[ \t]+)[\"']?)"
    r"(?P<value>.*?)(?P<tail>[\"']?[ \t]*[|,]?[ \t]*\r?)\Z"
)
_VERTICAL_NAME_RE: Final = lazy(r"[ \t]*variable_name:[ \t]*(?P<name>\S+)[ \t]*\r?\Z", re.I)
_VERTICAL_VALUE_RE: Final = lazy(r"(?P<lead>[ \t]*value:[ \t]*)(?P<value>.*?)(?P<tail>[ \t]*\r?)\Z", re.I)
# Text every secret name holds, abbreviations included (`pa` ending a name, `sst_a`, `management_f`):
# lines without any are skipped without a closer look. `SECRET_TRIGGER` is shared with redact_inputs.
_STEM_TRIGGERS: Final = {
    stem.rstrip("_").rpartition("_")[2] + "[-_]" + word[0] for stem, word in _SECRET_STEMS
}
SECRET_TRIGGER: Final = "|".join([r"pas|pa(?![a-z0-9])|pwd|secret|token|auth", *sorted(_STEM_TRIGGERS)])
_TRIGGER_RE: Final = lazy(SECRET_TRIGGER, re.I)


def normalise_option_name(raw: str) -> str:
    """`--Loose-Report-Password` → `report_password`, `maximum-passw` → `passw`: the name a secret
    check compares."""
    name = raw.strip(WHITESPACE).lstrip("-").lower().replace("-", "_")
    while name.startswith(_NAME_PREFIXES):
        name = name.partition("_")[2]
    return name


def _full_name(key: str) -> str:
    """The known secret option `key` abbreviates (`wsrep_sst_a` → `wsrep_sst_auth`), else `key`."""
    for stem, word in _SECRET_STEMS:
        if key.startswith(stem) and len(key) > len(stem) and word.startswith(key[len(stem) :]):
            return stem + word
    return key


def _password_word(word: str, shortest: int) -> bool:
    return len(word) >= shortest and any(known.startswith(word) for known in _PASSWORD_WORDS)


def holds_no_secret(name: str) -> bool:
    """Is this a name known to share a word with secrets but hold none (`max_password_errors`)?"""
    return normalise_option_name(name) in _NOT_SECRETS


@lru_cache(maxsize=8192)  # names repeat across files and audits; bounded: they come from uploads
def is_secret_option(name: str) -> bool:
    """Does an option or variable of this name carry a secret (see the module docstring)?"""
    key = normalise_option_name(name)
    if key in _NOT_SECRETS or _TRIGGER_RE().search(key) is None:
        return False  # most names: none of the text every secret name holds
    if key in _SECRET_NAMES or _full_name(key) != key or _password_word(key, _MIN_ABBREVIATION):
        return True  # a secret option or its own prefix, even when an ordinary option shares it
    if any(other.startswith(key) for other in _NOT_SECRETS):
        return False  # `connect_expired_pass`, `old_passw`: an ordinary option's prefix
    head, _, last = key.rpartition("_")
    return (
        key.endswith(_SECRET_SUFFIXES)
        or "secret" in key
        or (bool(head) and _password_word(last, _GENERIC_ABBREVIATION))
    )


# What a typo may have meant: whole secret names, and secret last words of longer names (`master_pasword`).
# Short words (`pass`, `pwd`) are one edit from too many ordinary words (`pid`, `path`) to guess from.
_TYPO_NAMES: Final = ("wsrep_sst_auth", "file_key_management_filekey", "password", "passwd", "passphrase")
_TYPO_WORDS: Final = ("password", "passwd", "passphrase", "secret")
# Letters every near miss of a _TYPO_NAMES/_TYPO_WORDS entry keeps some of: lines without them are skipped.
_TYPO_TRIGGER_RE: Final = lazy(r"p\w?a|p\w?s|a\w?s|s\w?w|s\w?e|e\w?c|a\w?u|u\w?t|u\w?h|f\w?i", re.I)


@lru_cache(maxsize=4096)  # every audit asks about each option line's name; fleets repeat the same names
def misspelt_secret(name: str) -> str | None:
    """The secret option a misspelt name means (`pasword` → `password`, `wsrep_sst_auht` →
    `wsrep_sst_auth`, `master_pasword` → `master_password`); None for a secret spelt right, a name
    some server version knows (`old_passwords`), or a name one edit from no secret."""
    key = normalise_option_name(name)
    if len(key) < 5 or is_secret_option(key) or key in _NOT_SECRETS or _TYPO_TRIGGER_RE().search(key) is None:
        return None
    from rapidfuzz.distance import OSA  # only for names that got this far

    head, _, last = key.rpartition("_")
    meant = next((target for target in _TYPO_NAMES if _one_edit(key, target, OSA.distance)), None)
    if meant is None and head:
        word = next((w for w in _TYPO_WORDS if _one_edit(last, w, OSA.distance)), None)
        meant = f"{head}_{word}" if word else None
    if meant is None or not is_secret_option(meant) or _known_option(key):
        return None
    return meant


def _one_edit(word: str, target: str, distance: Callable[..., float]) -> bool:
    """One edit apart (lengths first: most names are far longer or shorter than any secret word)."""
    return abs(len(word) - len(target)) <= 1 and distance(word, target, score_cutoff=1) <= 1


def _known_option(key: str) -> bool:
    """Does some MySQL or MariaDB version have an option of this name (then it is no typo)?"""
    from advisor.optioncheck.versions import history

    return any(
        (found := history(flavor)) is not None and found.seen_in(key) for flavor in ("mariadb", "mysql")
    )


def _secret_name(name: str) -> str | None:
    """The secret option `name` is or misspells; None when it is neither."""
    return name if is_secret_option(name) else misspelt_secret(name)


def _redacted_value(name: str, raw_value: str) -> str:
    """The replacement for one secret value as written: quotes kept, `user:` kept for user:password."""
    quote = quote_of(raw_value)
    inner = raw_value[1:-1] if quote else raw_value
    if not inner or inner == REDACTED or inner.strip("*") == "":
        return raw_value  # nothing to hide (empty, already redacted, or masked by the server)
    key = _full_name(normalise_option_name(name))
    if key == "file_key_management_filekey" and inner.startswith("FILE:"):
        return raw_value  # a path to the key, not the key
    if key in _USER_COLON_SECRET and ":" in inner:
        user, _, secret = inner.partition(":")
        if not secret or secret == REDACTED:
            return raw_value
        return f"{quote}{user}:{REDACTED}{quote}"
    return f"{quote}{REDACTED}{quote}"


def _redact_pairs(value: str) -> str:
    """Hide the value of every secret `key=value` pair inside a value (`socket.ssl_password=x`)."""

    def replace(match: re.Match[str]) -> str:
        name = match.group("name").rsplit(".", 1)[-1]
        if not match.group("value") or not is_secret_option(name):
            return match.group(0)
        start = match.start("value") - match.start()
        return match.group(0)[:start] + _redacted_value(name, match.group("value"))

    return _PAIR_RE().sub(replace, value)


def holds_secret_pair(value: str | None) -> bool:
    """Whether a value holds a secret `key=value` pair (`wsrep_provider_options`' `socket.ssl_password`)."""
    return value is not None and "=" in value and _redact_pairs(value) != value


def _redact_comment(text: str) -> str:
    """Hide the value of every `secret_name = value` in free text, and of a client's `-psecret`."""
    if "-p" in text and _CLIENT_RE().search(text):  # `-port`, `-pid` in prose are no passwords
        text = _CLI_PASSWORD_RE().sub(_redacted_cli_password, text)
    if "=" not in text:
        return text

    def replace(match: re.Match[str]) -> str:
        name, value = match.group("name"), match.group("value")
        if not is_secret_option(name):
            return match.group(0)
        start = match.start("value") - match.start()
        return match.group(0)[:start] + _redacted_value(name, value)

    return _COMMENT_ASSIGNMENT_RE().sub(replace, text)


def _redacted_cli_password(match: re.Match[str]) -> str:
    return "-p" + _redacted_value("password", match.group("value"))


def _redact_option_body(body: str) -> str:
    """Hide the value of an option line's body (the line before its inline comment)."""
    spans = option_spans(body)
    if spans.equals < 0:
        # `password hunter2` is not option syntax (the parser refuses the line and quotes it in its
        # error), but a secret all the same: hide what follows the first secret name.
        for match in _PROSE_NAME_RE().finditer(body, spans.name_start, spans.name_end):
            if is_secret_option(match.group("name")):
                value = body[match.end() : spans.name_end]
                return (
                    body[: match.end()] + _redacted_value(match.group("name"), value) + body[spans.name_end :]
                )
        return body
    name = body[spans.name_start : spans.name_end]
    raw_value = body[spans.value_start : spans.value_end]
    if normalise_option_name(name) == "set_variable":  # MySQL 4 style: set-variable = name=value
        replaced = _redact_option_body(raw_value)
    elif (secret := _secret_name(name)) is not None:
        replaced = _redacted_value(secret, raw_value)
    elif "=" in raw_value:
        replaced = _redact_pairs(raw_value)
    else:
        return body
    return body[: spans.value_start] + replaced + body[spans.value_end :]


def _redact_option_line(line: str) -> str:
    stripped = line.lstrip(WHITESPACE)
    if not stripped:
        return line
    if stripped[0] in "#;[!":  # comments, group headers and directives: only `name = value` in them
        return _redact_comment(line)
    body = cut_comment(line)
    comment = line[len(body) :]
    return _redact_option_body(body) + (_redact_comment(comment) if comment else "")


def redact_option_text(text: str) -> str:
    """An option file's text with the value of every secret-bearing option replaced by `[REDACTED]`.

    Every other byte (line endings, comments, spacing, quotes) is kept, so line numbers and the
    file's layout stay as uploaded. Never raises; redacting twice gives the same text.
    """
    if not text:
        return text
    if _TRIGGER_RE().search(text) is None and _TYPO_TRIGGER_RE().search(text) is None and "-p" not in text:
        return text  # the common case: nothing that could be a secret, nothing to scan
    return "\n".join(
        _redact_option_line(line)
        if _TRIGGER_RE().search(line) or _TYPO_TRIGGER_RE().search(line) or "-p" in line
        else line
        for line in text.split("\n")
    )


def _redact_variable_row(line: str) -> str:
    match = _VARIABLE_ROW_RE().match(line)
    if match is None:
        return line
    if not is_secret_option(match.group("name")):
        value = match.group("value")
        return line[: match.start("value")] + _redact_pairs(value) + line[match.end("value") :]
    value = match.group("value")
    replaced = _redacted_value(match.group("name"), value.strip(WHITESPACE))
    if replaced == value.strip(WHITESPACE):
        return line
    return line[: match.start("value")] + replaced + line[match.end("value") :]


def redact_variables_text(text: str) -> str:
    """A SHOW VARIABLES dump with the value of secret variables (e.g. `report_password`) redacted.

    Handles the mysql client's table, tab- and space-separated rows, `\\G` output and one-pair-per-
    line CSV/JSON; a value the server already masks (`wsrep_sst_auth` shows `********`) stays. Never
    raises; redacting twice gives the same text.
    """
    if not text:
        return text
    if _TRIGGER_RE().search(text) is None:
        return text
    lines = text.split("\n")
    secret_name = ""  # `\G` output: the previous `Variable_name:` line named this secret
    for index, line in enumerate(lines):
        vertical = _VERTICAL_NAME_RE().match(line)
        if vertical is not None:
            secret_name = vertical.group("name") if is_secret_option(vertical.group("name")) else ""
            continue
        value = _VERTICAL_VALUE_RE().match(line) if secret_name else None
        if value is not None:
            replaced = _redacted_value(secret_name, value.group("value"))
            lines[index] = line[: value.start("value")] + replaced + line[value.end("value") :]
            secret_name = ""
        elif _TRIGGER_RE().search(line):
            lines[index] = _redact_variable_row(line)
    return "\n".join(lines)


#: The name the service's brief used for the dump redaction.
redact_text_values = redact_variables_text
