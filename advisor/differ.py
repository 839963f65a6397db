"""The my.cnf differ: write the accepted changes into the uploaded option files, keep every other byte.

* `set` findings edit the value where the server reads it (the effective entry's line, in whatever file
  and server group it is, keeping its spelling such as `loose-`); a `skip-`/`disable-`/`enable-` line is
  rewritten as `name = value`. Unset variables are added at the end of the main (first) file's last
  server-only group (`[mysqld]`, `[mariadb]`, `[mysqld-8.0]`…) under a comment naming the rule, or in
  a new `[mysqld]` at the end. `[mysqld_safe]` options go to `[mysqld_safe]`.
* `comment_out` findings turn the line into a comment with a note; the successor, if any, is a
  separate `set` finding.
* The result is a unified diff per changed file (`--- a/path`, `+++ b/path`, for `patch -p1`) and the
  main file's new text. Without an uploaded file, a minimal `[mysqld]` file is built, diffed from
  /dev/null.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from advisor.catalog import normalize_name
from advisor.inputs.optiongroups import MYSQLD_SAFE_GROUPS, is_server_only_group
from advisor.inputs.optionsyntax import encode_value

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.findings import Finding
    from advisor.inputs.optionfiles import OptionFile, OptionFileSet

CONTEXT_LINES = 3
FRESH_PATH = "my.cnf"
_REWRITTEN_PREFIXES = frozenset({"skip", "disable", "enable", "autoset"})


def _note(finding: Finding) -> str:
    return f"innotune {finding.rule}: {finding.title}"


def _spelling(ctx: AuditContext, name: str) -> tuple[str, str]:
    """How to write `name` in a my.cnf, and the group it belongs in (`mysqld` or `mysqld_safe`)."""
    facts = ctx.catalog.lookup(name, ctx.version)
    spelled = ctx.catalog.option_file_name(name, ctx.version) or name
    return spelled, "mysqld_safe" if facts is not None and facts.option_group == "mysqld_safe" else "mysqld"


def _target_group(main: OptionFile, groups: frozenset[str]) -> str:
    """The last server-only group the main file opens, or a new `[mysqld]`."""
    found = [group for _, group in main.headers if is_server_only_group(group, groups)]
    return found[-1] if found else "mysqld"


class _Edits:
    """Copies of the uploaded files, edited as the findings say."""

    def __init__(self, ctx: AuditContext, options: OptionFileSet) -> None:
        self.ctx = ctx
        self.files = options.files
        self.edited: dict[str, OptionFile] = {}
        self.commented: set[tuple[str, int]] = set()
        self.effective = {
            "mysqld": options.effective(ctx.groups_read),
            "mysqld_safe": options.effective(MYSQLD_SAFE_GROUPS),
        }
        self.additions: list[tuple[str, str, str, Finding]] = []

    def file(self, path: str) -> OptionFile:
        if path not in self.edited:
            self.edited[path] = self.files[path].copy()
        return self.edited[path]

    def comment_out(self, finding: Finding) -> None:
        path, line = finding.option_file, finding.option_line
        if path is None or line is None or path not in self.files:
            return
        if any(entry.line == line for entry in self.files[path].entries()):
            self.file(path).comment_out(line, _note(finding))
            self.commented.add((path, line))

    def set(self, finding: Finding, variable: str, value: str) -> None:
        name = normalize_name(variable)
        spelled, group = _spelling(self.ctx, name)
        effective = self.effective[group]
        current = effective.get(name) or effective.get(normalize_name(spelled))
        if current is None or (current.entry.file, current.entry.line) in self.commented:
            self.additions.append((group, spelled, value, finding))
            return
        entry = current.entry
        if entry.prefix in _REWRITTEN_PREFIXES:
            loose = entry.raw_name[:6] if entry.loose else ""
            self.file(entry.file).replace_option(entry.line, loose + spelled, value)
        else:
            self.file(entry.file).set_value(entry.line, value)

    def add(self) -> None:
        """Append the settings no file has yet to the main file, in the order the findings came."""
        if not self.additions:
            return
        main_path = next(iter(self.files))
        server_group = _target_group(self.files[main_path], self.ctx.groups_read)
        main = self.file(main_path)
        for group, spelled, value, finding in self.additions:
            main.add_option(server_group if group == "mysqld" else group, spelled, value, _note(finding))


def _apply(ctx: AuditContext, options: OptionFileSet, findings: Sequence[Finding]) -> dict[str, OptionFile]:
    """Edited copies of the uploaded files that change, by path: comment-outs first, so a setting whose
    only line is commented out is added anew; in-place edits next; additions last (they add lines)."""
    edits = _Edits(ctx, options)
    for finding in findings:
        if finding.change == "comment_out":
            edits.comment_out(finding)
    for finding in findings:
        if finding.change == "set" and finding.variable and finding.recommended is not None:
            edits.set(finding, finding.variable, finding.recommended)
    edits.add()
    return edits.edited


def _fresh(ctx: AuditContext, findings: Sequence[Finding]) -> tuple[str, str]:
    """A minimal my.cnf holding the recommended settings, and its diff from /dev/null."""
    sections: dict[str, list[str]] = {}
    for finding in findings:
        if finding.change == "set" and finding.variable and finding.recommended is not None:
            spelled, group = _spelling(ctx, normalize_name(finding.variable))
            setting = f"{spelled} = {encode_value(finding.recommended)}"
            sections.setdefault(group, []).extend([f"# {_note(finding)}", setting])
    if not sections:
        return "", ""
    lines: list[str] = []
    for group, body in sections.items():
        lines.extend([*([""] if lines else []), f"[{group}]", *body])
    text = "".join(f"{line}\n" for line in lines)
    header = f"--- /dev/null\n+++ b/{FRESH_PATH}\n@@ -0,0 +1,{len(lines)} @@\n"
    return header + "".join(f"+{line}\n" for line in lines), text


def _label(path: str) -> str:
    return path.replace("\\", "/").lstrip("/")


def _line(sign: str, text: str) -> str:
    return f"{sign}{text}" if text.endswith("\n") else f"{sign}{text}\n\\ No newline at end of file\n"


Block = tuple[int, int, int, int]  # old[from:to] became new[from:to]


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


def _hunk(old: list[str], new: list[str], blocks: list[Block]) -> list[str]:
    """One hunk: the blocks with CONTEXT_LINES of unchanged lines around them."""
    old_start = max(0, blocks[0][0] - CONTEXT_LINES)
    old_end = min(len(old), blocks[-1][1] + CONTEXT_LINES)
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


def unified_diff(path: str, old: list[str], new: list[str], origins: Sequence[int | None]) -> str:
    """A unified diff of `old` → `new` (lines with their endings), given for each new line the old
    line number it is an unchanged copy of (None: added or edited). Linear: no search needed."""
    hunks: list[list[Block]] = []
    for block in _blocks(len(old), len(new), origins):
        if hunks and block[0] - hunks[-1][-1][1] <= 2 * CONTEXT_LINES:
            hunks[-1].append(block)
        else:
            hunks.append([block])
    if not hunks:
        return ""
    out = [f"--- a/{_label(path)}\n", f"+++ b/{_label(path)}\n"]
    for blocks in hunks:
        out.extend(_hunk(old, new, blocks))
    return "".join(out)


def render_changes(ctx: AuditContext, findings: Sequence[Finding]) -> tuple[str, str]:
    """Return (unified diff, recommended my.cnf): every changed uploaded file is diffed, in upload
    order; the recommended text is the main (first) file's. ("", main text) when nothing changes."""
    if ctx.options is None:
        return _fresh(ctx, findings)
    edited = _apply(ctx, ctx.options, findings)
    files = ctx.options.files
    diff = "".join(
        unified_diff(path, files[path].lines(), edited[path].lines(), edited[path].origins())
        for path in files
        if path in edited
    )
    main_path = next(iter(files), None)
    if main_path is None:
        return diff, ""
    main = edited.get(main_path, files[main_path])
    return diff, main.serialise()
