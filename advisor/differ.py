"""The my.cnf differ: write the accepted changes into the uploaded option files, keep every other byte.

* `set` findings edit the value where the server reads it (the effective entry's line, in whatever file
  and server group it is, keeping its spelling such as `loose-`); a `skip-`/`disable-`/`enable-` line is
  rewritten as `name = value`. Unset variables are added under a comment naming the rule to the group
  that every version of the flavor reads — `[mysqld]`, or `[mariadbd]`/`[mariadb]`/`[server]` where the
  files use those instead — in the main file, or the last file (read order) holding such a group; never to a
  version-specific group such as `[mariadb-10.11]`, which the next major upgrade stops reading. Without
  one, a new `[mysqld]` goes at the end of the main file. `[mysqld_safe]` options go to `[mysqld_safe]`.
* `comment_out` findings turn the line into a comment with a note; the successor, if any, is a
  separate `set` finding.
* A UTF-8 byte-order mark is left out of the copy (the server refuses a file that starts with one,
  config_validity.byte_order_mark), so the diff rewrites line 1 without it.
* Secrets stay where they are: lines holding a secret (`advisor.secret_findings`) are never shown in
  a diff, not even as context or when a finding comments them out, and the recommended copies hold a
  comment in their place saying what to do with the user's own line (keep it, or comment it out).
* The result is one recommended file per uploaded file (path, text, unified diff for `patch -p1`) and
  a combined diff. Without an uploaded file, a minimal `[mysqld]` file is built, diffed from /dev/null.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from msgspec import Struct

from advisor.catalog import normalize_name
from advisor.inputs.optiongroups import MYSQLD_SAFE_GROUPS
from advisor.inputs.optionsyntax import encode_value
from advisor.redact import REDACTED, is_secret_option
from advisor.secret_findings import Location, secret_locations
from advisor.unidiff import unified_diff

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.findings import Finding
    from advisor.inputs.optionfiles import OptionFile, OptionFileSet

FRESH_PATH: Final = "my.cnf"
_REWRITTEN_PREFIXES: Final = frozenset({"skip", "disable", "enable", "autoset"})
# Groups every version of a flavor reads, in the order we prefer to write new settings into.
_WHOLE_FLAVOR_GROUPS: Final = ("mysqld", "mariadbd", "mariadb", "server")


class RecommendedFile(Struct, frozen=True):
    """One option file as we hand it back: its path, the recommended text and its diff ("" unchanged);
    `installed_path` where the server reads an upload given by a relative path (the diff names that)."""

    path: str
    recommended: str
    diff: str
    installed_path: str | None = None

    def to_dict(self) -> dict[str, str | None]:
        return {
            "path": self.path,
            "recommended": self.recommended,
            "diff": self.diff,
            "installed_path": self.installed_path,
        }


class Recommendation(Struct, frozen=True):
    """Every recommended file (upload order), the combined diff, and the secret lines kept out."""

    files: tuple[RecommendedFile, ...]
    diff: str
    #: `path:line` of each line holding a secret: never in a diff, replaced by a comment in `files`.
    secrets_kept_out: tuple[str, ...] = ()

    @property
    def main_text(self) -> str:
        return self.files[0].recommended if self.files else ""


def note(finding: Finding) -> str:
    """The comment naming a finding in a file: its rule alone when the title had a secret redacted
    (no placeholder ever lands in a file)."""
    if REDACTED in finding.title:
        return f"innotune {finding.rule}"
    return f"innotune {finding.rule}: {finding.title}"


def spelling(ctx: AuditContext, name: str) -> tuple[str, str]:
    """How to write `name` in a my.cnf, and the group it belongs in (`mysqld` or `mysqld_safe`)."""
    facts = ctx.catalog.lookup(name, ctx.version)
    spelled = ctx.catalog.option_file_name(name, ctx.version) or name
    return spelled, "mysqld_safe" if facts is not None and facts.option_group == "mysqld_safe" else "mysqld"


def addition_target(options: OptionFileSet, groups: frozenset[str]) -> tuple[str, str]:
    """(path, group) where new server settings go: the main file when it opens a group the whole flavor
    reads, else the last file in read order that does (Debian's `my.cnf` only includes others); in it
    the preferred such group. Else a new `[mysqld]` in the main file."""
    main = next(iter(options.files))
    for path in (main, *reversed(options.paths_read)):
        opened = {group for _, group in options.files[path].headers}
        for group in _WHOLE_FLAVOR_GROUPS:
            if group in opened and group in groups:
                return path, group
    return next(iter(options.files)), "mysqld"


class _Edits:
    """Copies of the uploaded files, edited as the findings say."""

    def __init__(self, ctx: AuditContext, options: OptionFileSet, secrets: frozenset[Location]) -> None:
        self.ctx = ctx
        self.secrets = secrets
        self.options = options
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
        if (path, line) in self.secrets:  # the user comments it out: the copy says so in its place
            self.commented.add((path, line))
        elif any(entry.line == line for entry in self.files[path].entries()):
            self.file(path).comment_out(line, note(finding))
            self.commented.add((path, line))

    def set(self, finding: Finding, variable: str, value: str) -> None:
        name = normalize_name(variable)
        if is_secret_option(name):
            return  # a secret is never written by us (advisor.secret_findings)
        spelled, group = spelling(self.ctx, name)
        effective = self.effective[group]
        current = effective.get(name) or effective.get(normalize_name(spelled))
        if current is None or (current.entry.file, current.entry.line) in self.commented:
            self.additions.append((group, spelled, value, finding))
            return
        entry = current.entry
        if entry.prefix in _REWRITTEN_PREFIXES:
            loose = entry.raw_name[:6] if entry.loose else ""
            self.file(entry.file).replace_option(entry.line, loose + spelled, value)
        elif entry.value != value:
            self.file(entry.file).set_value(entry.line, value)

    def add(self) -> None:
        """Append the settings no file has yet, in the order the findings came (see the module doc)."""
        if not self.additions:
            return
        server_path, server_group = addition_target(self.options, self.ctx.groups_read)
        main_path = next(iter(self.files))
        runs: list[tuple[str, str, list[tuple[str, str | None, str | None]]]] = []
        for group, spelled, value, finding in self.additions:
            path, group = (server_path, server_group) if group == "mysqld" else (main_path, group)
            if not runs or runs[-1][:2] != (path, group):  # a run for one section is added in one go
                runs.append((path, group, []))
            runs[-1][2].append((spelled, value, note(finding)))
        for path, group, options in runs:
            self.file(path).add_options(group, options)


def _apply(
    ctx: AuditContext, options: OptionFileSet, findings: Sequence[Finding], secrets: frozenset[Location]
) -> dict[str, OptionFile]:
    """Edited copies of the uploaded files that change, by path: comment-outs first, so a setting whose
    only line is commented out is added anew; in-place edits next; additions last (they add lines)."""
    edits = _Edits(ctx, options, secrets)
    for path, file in options.files.items():  # the server refuses a file starting with one
        if file.has_bom and (path, 1) not in secrets:
            edits.file(path).drop_bom()
    for finding in findings:
        if finding.change == "comment_out":
            edits.comment_out(finding)
    for finding in findings:
        if finding.change == "set" and finding.variable and finding.recommended is not None:
            edits.set(finding, finding.variable, finding.recommended)
    edits.add()
    return edits.edited


def _fresh(ctx: AuditContext, findings: Sequence[Finding]) -> Recommendation:
    """A minimal my.cnf holding the recommended settings, and its diff from /dev/null."""
    sections: dict[str, list[str]] = {}
    for finding in findings:
        if finding.change == "set" and finding.variable and finding.recommended is not None:
            spelled, group = spelling(ctx, normalize_name(finding.variable))
            setting = f"{spelled} = {encode_value(finding.recommended)}"
            sections.setdefault(group, []).extend([f"# {note(finding)}", setting])
    if not sections:
        return Recommendation((), "")
    lines: list[str] = []
    for group, body in sections.items():
        lines.extend([*([""] if lines else []), f"[{group}]", *body])
    text = "".join(f"{line}\n" for line in lines)
    header = f"--- /dev/null\n+++ b/{FRESH_PATH}\n@@ -0,0 +1,{len(lines)} @@\n"
    diff = header + "".join(f"+{line}\n" for line in lines)
    return Recommendation((RecommendedFile(FRESH_PATH, text, diff),), diff)


KEPT_OUT: Final = "# innotune: a line holding a secret is kept out of this copy"


def _kept_out_notes(path: str, findings: Sequence[Finding], protected: frozenset[int]) -> dict[int, str]:
    """For each protected line (0-based), the comment standing in for it: keep your own, comment it
    out when a finding says the server refuses it, or rename it when a finding respells a secret."""
    notes = dict.fromkeys(protected, f"{KEPT_OUT}; keep your own")
    for finding in findings:
        line = finding.option_line
        located = finding.option_file == path and line is not None and line - 1 in protected
        if finding.change == "comment_out" and located and line is not None:
            notes[line - 1] = f"{KEPT_OUT}; comment out your own ({note(finding)})"
    for finding in findings:  # a secret respelled (advisor.secret_findings): the user renames theirs
        if finding.correction and finding.variable and is_secret_option(finding.variable):
            for item in finding.evidence:
                where, _, line_text = item.source.rpartition(":")
                if where == path and line_text.isdigit() and int(line_text) - 1 in protected:
                    rename = f"rename your own to {finding.variable}"
                    notes[int(line_text) - 1] = f"{KEPT_OUT}; {rename}, value kept ({note(finding)})"
    return notes


def _kept_out(lines: list[str], origins: Sequence[int | None], notes: dict[int, str]) -> str:
    """The text with each protected original line replaced by a comment saying what to do with it."""
    if not notes:
        return "".join(lines)  # nothing to keep out (most files): no line needs a look
    out = []
    for text, origin in zip(lines, origins, strict=True):
        if origin is not None and origin - 1 in notes:
            text = notes[origin - 1] + text[len(text.rstrip("\r\n")) :]
        out.append(text)
    return "".join(out)


def render_recommendation(ctx: AuditContext, findings: Sequence[Finding]) -> Recommendation:
    """Every uploaded file with the findings' changes made, its diff, and the combined diff."""
    if ctx.options is None:
        return _fresh(ctx, findings)
    secrets = secret_locations(ctx.options, findings)
    edited = _apply(ctx, ctx.options, findings, secrets)
    files: list[RecommendedFile] = []
    kept_out: list[str] = []
    installed = ctx.options.installed_paths
    for path, original in ctx.options.files.items():
        copy = edited.get(path, original)
        protected = frozenset(line - 1 for where, line in secrets if where == path)
        kept_out.extend(f"{path}:{index + 1}" for index in sorted(protected))
        old, new, origins = original.lines(), copy.lines(), copy.origins()
        target = installed.get(path)
        diff = unified_diff(target or path, old, new, origins, protected) if path in edited else ""
        notes = _kept_out_notes(path, findings, protected) if protected else {}
        files.append(RecommendedFile(path, _kept_out(new, origins, notes), diff, target))
    return Recommendation(tuple(files), "".join(file.diff for file in files), tuple(kept_out))


def render_changes(ctx: AuditContext, findings: Sequence[Finding]) -> tuple[str, str]:
    """(combined unified diff, the main file's recommended text); ("", main text) when nothing changes."""
    result = render_recommendation(ctx, findings)
    return result.diff, result.main_text
