"""Texts that arrive in UTF-16: Windows PowerShell's `>` writes it (with a byte-order mark), other tools
without one. Read as UTF-8 every other character is a NUL, and no line reads as anything.

They are refused with a message that says so rather than decoded here: the CLI and the API have already
turned the bytes into text (the API replacing what is not UTF-8), so a character outside ASCII is lost
by the time a parser sees it, and a value silently changed is worse than a file to save again.
"""

from __future__ import annotations

from advisor.errors import InputError

UTF16_ADVICE = (
    "the file is UTF-16 (as PowerShell's `>` writes it): save it as UTF-8 "
    "(`... | Out-File -Encoding utf8 FILE`, or redirect in cmd.exe) and give it again"
)
_SAMPLE_CHARS = 400
#: Share of one parity's characters that must be NUL: ASCII in UTF-16 has every other byte NUL.
_NUL_SHARE = 0.9


def looks_utf16(text: str) -> bool:
    """True for UTF-16 text read as UTF-8 (little- or big-endian, with or without a byte-order mark)."""
    sample = text[:_SAMPLE_CHARS]
    if "\x00" not in sample:
        return False
    for start in (0, 1):
        chars = sample[start::2]
        if len(chars) >= 4 and chars.count("\x00") >= _NUL_SHARE * len(chars):
            return True
    return False


def refuse_utf16(text: str, file: str) -> None:
    """InputError naming the file when the text is UTF-16 (at line 1: the whole file is, from its start)."""
    if looks_utf16(text):
        raise InputError(UTF16_ADVICE, file=file, line=1)
