"""Unified diffs (`patch -p1` applies them) from an edited copy that knows where each line came from.

The edited copy records, for each new line, the old line it is an unchanged copy of, so the changed
stretches are read off directly: no search. Some old lines may be *protected* — lines holding a
secret, which a diff must never carry, not even as context. A hunk's context stops short of them
(the same number of lines on both sides, so `patch` still anchors the hunk by its line numbers rather
than at the start or end of the file), and two changes with a protected line between them become
two hunks.
"""

from __future__ import annotations

import posixpath
from collections.abc import Collection, Sequence

CONTEXT_LINES = 3

Block = tuple[int, int, int, int]  # old[from:to] became new[from:to]


def _line(sign: str, text: str) -> str:
    return f"{sign}{text}" if text.endswith("\n") else f"{sign}{text}\n\\ No newline at end of file\n"


def _blocks(old_count: int, new_count: int, origins: Sequence[int | None]) -> list[Block]:
    """The changed stretches, read off the origins of the unchanged lines (they keep their order)."""
    blocks: list[Block] = []
    old_at = new_at = 0
    for index, origin in enumerate(origins):
        if origin is None:
            continue
        if origin - 1 > old_at or index > new_at:
            blocks.append((old_at, origin - 1, new_at, index))
        old_at, new_at = origin, index + 1
    if old_at < old_count or new_at < new_count:
        blocks.append((old_at, old_count, new_at, new_count))
    return blocks


def _unchanged_rewrites(old: list[str], new: list[str], origins: Sequence[int | None]) -> list[int | None]:
    """Origins with each edited line that reads exactly as the old line in its place taken as that
    line: a value written back unchanged is no change, never a `-x` / `+x` pair."""
    restored = list(origins)
    previous = 0
    for index, origin in enumerate(restored):
        if origin is None:
            following = next((later for later in restored[index + 1 :] if later is not None), len(old) + 1)
            candidate = previous + 1
            if candidate < following and candidate <= len(old) and old[candidate - 1] == new[index]:
                restored[index] = origin = candidate
        if origin is not None:
            previous = origin
    return restored


def _context(blocks: list[Block], old_count: int, protected: Collection[int]) -> int:
    """Lines of context around a hunk: at most CONTEXT_LINES, and none that is protected."""
    size = CONTEXT_LINES
    start, end = blocks[0][0], blocks[-1][1]
    for index in protected:
        if index < start:
            size = min(size, start - index - 1)
        elif index >= end:
            size = min(size, index - end)
    return max(size, 0)


def _hunk(old: list[str], new: list[str], blocks: list[Block], context: int) -> list[str]:
    """One hunk: the blocks with `context` unchanged lines around them."""
    old_start = max(0, blocks[0][0] - context)
    old_end = min(len(old), blocks[-1][1] + context)
    new_start = blocks[0][2] - (blocks[0][0] - old_start)
    new_end = blocks[-1][3] + (old_end - blocks[-1][1])
    old_size, new_size = old_end - old_start, new_end - new_start
    out = [f"@@ -{old_start + bool(old_size)},{old_size} +{new_start + bool(new_size)},{new_size} @@\n"]
    at = old_start
    for old_from, old_to, new_from, new_to in blocks:
        out.extend(_line(" ", text) for text in old[at:old_from])
        out.extend(_line("-", text) for text in old[old_from:old_to])
        out.extend(_line("+", text) for text in new[new_from:new_to])
        at = old_to
    out.extend(_line(" ", text) for text in old[at:old_end])
    return out


def _joinable(previous: Block, block: Block, protected: Collection[int]) -> bool:
    """Two changes share a hunk when close, and no protected line sits between them."""
    gap_from, gap_to = previous[1], block[0]
    if gap_to - gap_from > 2 * CONTEXT_LINES:
        return False
    return not any(gap_from <= index < gap_to for index in protected)


def relative_path(path: str) -> str | None:
    """Where a file goes under an output folder or in a zip: its path normalised, forward slashes, no
    leading `/`; None when it would climb out with `..`."""
    name = posixpath.normpath(label(path))
    return None if name == ".." or name.startswith("../") else name


def label(path: str) -> str:
    """The path as a diff names it: forward slashes, no leading `/` (`patch -p1` from `/` finds it)."""
    return path.replace("\\", "/").lstrip("/")


def unified_diff(
    path: str,
    old: list[str],
    new: list[str],
    origins: Sequence[int | None],
    protected: Collection[int] = (),
) -> str:
    """A unified diff of `old` → `new` (lines with their endings), given for each new line the old
    line number it is an unchanged copy of (None: added or edited). `protected` holds 0-based indexes
    of old lines the diff must not show. Linear: no search needed."""
    hunks: list[list[Block]] = []
    for block in _blocks(len(old), len(new), _unchanged_rewrites(old, new, origins)):
        if hunks and _joinable(hunks[-1][-1], block, protected):
            hunks[-1].append(block)
        else:
            hunks.append([block])
    if not hunks:
        return ""
    out = [f"--- a/{label(path)}\n", f"+++ b/{label(path)}\n"]
    for blocks in hunks:
        out.extend(_hunk(old, new, blocks, _context(blocks, len(old), protected)))
    return "".join(out)
