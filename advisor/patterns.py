"""Regular expressions compiled on first use.

Compiling one costs about as much as importing a small module (~0.7 M instructions, pure Python in
`re`), and most of a module's patterns serve inputs an audit may not have: the API's redaction, option
file oddities, CSV or JSON dumps. `innotune audit` starts faster when each compiles only if it is used.
Patterns that serve every audit in a loop stay plain `re.compile` constants.
"""

from __future__ import annotations

import re
from collections.abc import Callable


def lazy(pattern: str, flags: int = 0) -> Callable[[], re.Pattern[str]]:
    """A getter returning `re.compile(pattern, flags)`, compiled on the first call and kept."""
    compiled: re.Pattern[str] | None = None

    def get() -> re.Pattern[str]:
        nonlocal compiled
        if compiled is None:
            compiled = re.compile(pattern, flags)
        return compiled

    return get
