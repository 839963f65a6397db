"""Comparing what `patch` makes of a user's file with the recommended copy we hand back."""

from __future__ import annotations

from advisor.redact import REDACTED, is_secret_option

KEPT_OUT = "# innotune: a line holding a secret is kept out of this copy; keep your own"
#: the comment standing in for a secret line a finding refuses or respells: the user edits their own.
EDIT_YOUR_OWN = "# innotune: a line holding a secret is kept out of this copy; "


def assert_same_but_secrets(patched: str, recommended: str) -> None:
    """The patched original is the recommended copy, except that the copy holds a comment where the
    original has a secret (the diff never touches those lines)."""
    patched_lines, recommended_lines = patched.splitlines(), recommended.splitlines()
    assert len(patched_lines) == len(recommended_lines)
    for ours, theirs in zip(recommended_lines, patched_lines, strict=True):
        if ours == KEPT_OUT:
            assert is_secret_option(theirs.split("=", 1)[0]) or REDACTED in theirs, theirs
        elif ours.startswith(EDIT_YOUR_OWN):
            assert "=" in theirs and not theirs.lstrip().startswith("#"), theirs  # their option line
        else:
            assert ours == theirs
