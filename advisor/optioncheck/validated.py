"""String options the server checks after parsing — my_getopt takes any text, startup does not.

Observed on mariadbd 10.11.19 (each refusal exits non-zero, `loose-` does not help, because the
check runs after option parsing): "Unknown collation", "Unknown locale", an unknown character set,
"Could not add do table rule" (no `db.table`), "Bad syntax in replicate-rewrite-db" (no `->`),
"Unknown system variable" in session_track_system_variables, "Invalid ft-boolean-syntax string",
a date/time format without a `%` directive, an empty or dotted --log-basename, and a
secure_file_priv directory that does not exist (which depends on the host: judged by its form).
"""

from __future__ import annotations

from advisor.optioncheck.values import ValueCheck

DEFAULT_FTB_SYNTAX = '+ -><()~*:""&|'


def _ft_boolean_syntax_ok(text: str) -> bool:
    """ft_boolean_check_syntax_string(): 14 ASCII non-alphanumerics, a space first or second, no repeats
    except the two quote characters (positions 10 and 11)."""
    if len(text) != len(DEFAULT_FTB_SYNTAX) or (text[0] != " " and text[1] != " "):
        return False
    for i, char in enumerate(text):
        if ord(char) > 127 or char.isalnum():
            return False
        if any(char == text[j] and (i, j) != (11, 10) for j in range(i)):
            return False
    return True


def _table_rule_ok(text: str) -> bool:
    database, dot, table = text.partition(".")
    return bool(dot and database and table)


def check_validated(
    kind: str, name: str, text: str | None, known: dict[str, frozenset[str]]
) -> ValueCheck | None:
    """The post-parse check for `kind`; None when the value passes (or there is nothing to check)."""
    if text is None:
        return None
    lowered = text.lower()
    refusals = {
        "charset": (lowered not in known["charsets"], f"'{text}' is not a character set this server knows"),
        "collation": (lowered not in known["collations"], f"'{text}' is not a collation this server knows ('Unknown collation')"),
        "locale": (text not in known["locales"] and lowered not in {n.lower() for n in known["locales"]},
                   f"'{text}' is not a locale this server knows ('Unknown locale')"),
        "table_rule": (not _table_rule_ok(text), f"'{text}' is not db_name.table_name ('Could not add table rule')"),
        "rewrite_db": ("->" not in text, f"'{text}' is not from_db->to_db ('Bad syntax in replicate-rewrite-db')"),
        "sysvar_list": (any(item.strip().lower() not in known["variables"] and item.strip() != "*"
                            for item in text.split(",") if item.strip()),
                        f"'{text}' names a variable this server does not have"),
        "ft_boolean_syntax": (not _ft_boolean_syntax_ok(text), f"'{text}' is not a valid ft_boolean_syntax (14 operators)"),
        "date_format": ("%" not in text, f"'{text}' is not a date/time format (no % directive)"),
        "base_name": (text == "" or "." in text or "/" in text, f"'{text}' is not a plain file base name"),
        "directory": (text != "" and not text.startswith("/"),
                      f"'{text}' is a relative directory; the server refuses to start unless it exists"),
    }  # fmt: skip
    refused, words = refusals.get(kind, (False, ""))
    return ValueCheck("fatal", f"{name}: {words}") if refused else None
