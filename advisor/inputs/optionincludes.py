"""`!include` and `!includedir` among uploaded option files, and the server's read order.

The server reads an included file where its `!include` line stands, then carries on in the including
file (in the group it was in). `!includedir` reads the directory's `.cnf` files (`.ini` too on
Windows), not its subdirectories, in name order (mysys `my_dir` sorts); the suffix is case-sensitive:
mariadbd 10.11.19 `--print-defaults` over a directory of a.cnf, b.CNF, g.Cnf, c.cnf.dpkg-old, d.bak,
e.conf, f.ini and old/x.cnf takes a.cnf alone. A missing file or directory is
silently skipped by the server; here it is a warning, since its settings are then unknown.
"""

from __future__ import annotations

import posixpath
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Final

from advisor.errors import InputWarning
from advisor.patterns import lazy

if TYPE_CHECKING:
    from advisor.inputs.optionfiles import OptionFile
    from advisor.inputs.optionscan import Include, OptionEntry

_DRIVE_RE: Final = lazy(r"[A-Za-z]:/")


def normpath(path: str) -> str:
    """`path` with `/` separators (a Windows `C:\\x` is `C:/x`), `.` and `..` folded."""
    return posixpath.normpath(path.replace("\\", "/"))


def is_absolute(path: str) -> bool:
    """Whether the server finds `path` wherever it runs from: `/…`, `~/…` (it expands `~`), or a drive
    (`C:/…`, `C:\\…`). Anything else it reads from its own working directory (`/` under systemd), not
    from the folder of the file naming it."""
    return path.startswith(("/", "~")) or _DRIVE_RE().match(path.replace("\\", "/")) is not None


class _Resolver:
    """Find uploaded files by the path an include names."""

    def __init__(self, paths: Collection[str]) -> None:
        self.by_path = {normpath(path): path for path in paths if path}
        #: bare-name uploads the only `!includedir` reads when no upload carries its folder (`_adoptable`)
        self.adopted: frozenset[str] = frozenset()

    @staticmethod
    def wanted(target: str, including: str) -> str:
        target = target.replace("\\", "/")
        if is_absolute(target):
            return normpath(target)
        return normpath(posixpath.join(posixpath.dirname(normpath(including)), target))

    def file(self, target: str, including: str) -> list[str]:
        wanted = self.wanted(target, including)
        found = self.by_path.get(wanted)
        if found is not None:
            return [found]
        tails = [
            path
            for norm, path in self.by_path.items()
            if not is_absolute(norm) and wanted.endswith("/" + norm)
        ]
        return tails if len(tails) == 1 else []

    def directory(self, target: str, including: str) -> list[str]:
        wanted = self.wanted(target, including)
        windows = (
            "\\" in target or _DRIVE_RE().match(wanted) is not None or including.lower().endswith(".ini")
        )
        suffixes = (".cnf", ".ini") if windows else (".cnf",)
        exact: list[tuple[str, str]] = []
        tails: list[tuple[str, str]] = []
        for norm, path in self.by_path.items():
            folder, _, base = norm.rpartition("/")
            if not base.endswith(suffixes):
                continue
            if folder == wanted:
                exact.append((base, path))
            elif folder and not is_absolute(folder) and wanted.endswith("/" + folder):
                tails.append((base, path))
        adopted = [(posixpath.basename(normpath(path)), path) for path in self.adopted if path != including]
        return [path for _, path in sorted(exact or tails or adopted)]

    def skipped(self, target: str, including: str, read: Collection[str]) -> list[str]:
        """Uploads inside the `!includedir` directory (or below it) that the server does not read: another
        suffix (`50-server.cnf.dpkg-old`, `x.bak`, `x.CNF`) or a subdirectory (`conf.d/old/x.cnf`)."""
        wanted = self.wanted(target, including)
        found = []
        for norm, path in self.by_path.items():
            if path in read or path == including:
                continue
            parts = norm.split("/")[:-1]
            heads = ("/".join(parts[:i]) for i in range(1, len(parts) + 1))
            if any(
                head == wanted or (not is_absolute(head) and wanted.endswith("/" + head)) for head in heads
            ):
                found.append(path)
        return found


class _Walker:
    """Depth-first over includes, each file once, collecting entries in read order."""

    def __init__(self, files: Mapping[str, OptionFile], targets: dict[tuple[str, int], list[str]]) -> None:
        self.files = files
        self.targets = targets
        self.warnings: list[InputWarning] = []
        self.read: set[str] = set()
        self.paths: list[str] = []
        self.order: list[OptionEntry] = []
        self.stack: list[str] = []
        #: `!includedir` lines in the order the server finishes reading them (their folder's files and
        #: all those include): a drop-in named last in the last one's folder is read after all of them.
        self.directories_done: list[Include] = []

    def walk(self, path: str) -> None:
        self.read.add(path)
        self.paths.append(path)
        self.stack.append(path)
        option_file = self.files[path]
        includes: list[Include] = list(option_file.includes)
        for entry in option_file.entries():
            while includes and includes[0].line < entry.line:
                self._follow(includes.pop(0))
            self.order.append(entry)
        for include in includes:
            self._follow(include)
        self.stack.pop()

    def _follow(self, include: Include) -> None:
        for target in self.targets.get((include.file, include.line), ()):
            if target in self.stack:
                message = f"include cycle: {target} is already being read"
                self.warnings.append(InputWarning(message, include.file, include.line))
            elif target in self.read:
                message = f"{target} was already read (the server would read it again)"
                self.warnings.append(InputWarning(message, include.file, include.line))
            else:
                self.walk(target)
        if include.directory:
            self.directories_done.append(include)


def resolve_includes(
    files: Mapping[str, OptionFile],
) -> tuple[tuple[OptionEntry, ...], tuple[str, ...], tuple[str, ...], tuple[InputWarning, ...]]:
    """The entries of `files` (upload order) in the order the server reads them, the paths in read
    order, the uploads an `!includedir` passes over (upload order; the server never reads them, so they
    give no entries), and the warnings (each file's own, then missing includes and cycles).

    Includes resolve by path: absolute, or relative to the including file's directory. When no upload
    has exactly that path, the one upload whose relative path ends it stands in (`conf.d/x.cnf` for
    `/etc/mysql/conf.d/x.cnf`, `mariadb.cnf` for `/etc/mysql/mariadb.cnf`), so uploads need not carry
    full paths. Reading starts from the files nobody includes, in upload order; files only reachable
    through a cycle are read last.
    """
    walker, unread, warnings = _walk(files)
    return tuple(walker.order), tuple(walker.paths), unread, (*warnings, *walker.warnings)


def last_directory_read(files: Mapping[str, OptionFile]) -> Include | None:
    """The `!includedir` line whose folder the server finishes reading last, walking the includes as
    `resolve_includes` does: a file named to sort last in that folder is read after every uploaded
    file read so far, nested folders included. Not simply the last `!includedir` line read: in
    `!includedir mariadb.conf.d/` whose `10-nest.cnf` says `!includedir extra.d/`, extra.d is done
    before `50-server.cnf` … `~override.cnf` are read, and mariadb.conf.d after them. None without one.
    """
    done = _walk(files)[0].directories_done
    return done[-1] if done else None


def _resolver(files: Mapping[str, OptionFile]) -> _Resolver:
    resolver = _Resolver(files)
    resolver.adopted = _adoptable(files, resolver)
    return resolver


def _adoptable(files: Mapping[str, OptionFile], resolver: _Resolver) -> frozenset[str]:
    """Uploads given by a bare name (`tuning.cnf`, no folder) that sit in the folder of the only
    `!includedir` among the uploads: a DBA uploading `/etc/mysql/my.cnf` (`!includedir /etc/mysql/conf.d/`)
    and `tuning.cnf` means conf.d's file — read as a file of its own, it drew "no uploaded .cnf file is in
    this directory" while its values counted. Not the main (first) file, nor one an `!include` names;
    with two `!includedir` lines (Debian's conf.d/ and mariadb.conf.d/) a bare name stays ambiguous."""
    directories = [
        include for option_file in files.values() for include in option_file.includes if include.directory
    ]
    if len(directories) != 1:
        return frozenset()
    named = {
        target
        for path, option_file in files.items()
        for include in option_file.includes
        if not include.directory
        for target in resolver.file(include.target, path)
    }
    suffixes = (".cnf", ".ini") if directories[0].file.lower().endswith(".ini") else (".cnf",)
    main = next(iter(files), None)
    return frozenset(
        path
        for path in files
        if "/" not in normpath(path) and path.endswith(suffixes) and path != main and path not in named
    )


def _walk(files: Mapping[str, OptionFile]) -> tuple[_Walker, tuple[str, ...], list[InputWarning]]:
    """Resolve every include among `files` and read them as the server does: the walker (read order),
    the uploads an `!includedir` passes over, and the warnings found resolving."""
    resolver = _resolver(files)
    targets: dict[tuple[str, int], list[str]] = {}
    included: set[str] = set()
    skipped: set[str] = set()
    warnings: list[InputWarning] = []
    for path, option_file in files.items():
        warnings.extend(option_file.warnings)
        for include in option_file.includes:
            found = (resolver.directory if include.directory else resolver.file)(include.target, path)
            targets[(path, include.line)] = found
            included.update(found)
            if include.directory:
                skipped.update(resolver.skipped(include.target, path, found))
            if not found:
                kind, what = (
                    ("!includedir", "no uploaded .cnf file is in this directory")
                    if include.directory
                    else ("!include", "no uploaded file has this path")
                )
                message = f"{kind} {include.target}: {what}; the settings there are not known"
                warnings.append(InputWarning(message, path, include.line))
    unread = tuple(path for path in files if path in skipped and path not in included)
    walker = _Walker(files, targets)
    walker.read.update(unread)  # an upload the directory listing passes over is no root of its own
    for path in files:
        if path not in included and path not in walker.read:
            walker.walk(path)
    for path in files:
        if path not in walker.read:
            walker.walk(path)
    return walker, unread, warnings


def installed_paths(files: Mapping[str, OptionFile]) -> dict[str, str]:
    """Where the server reads each upload that came with a relative path (`extra.cnf`, `conf.d/x.cnf`)
    and that an include with an absolute path resolved to: `/etc/mysql/conf.d/extra.cnf` for
    `!include /etc/mysql/conf.d/extra.cnf`, the folder plus the file's name for an `!includedir`. A
    file handed back under its upload name would be installed at `/extra.cnf` by `patch -p1` from `/`."""
    resolver = _resolver(files)
    found: dict[str, str] = {}
    for path, option_file in files.items():
        for include in option_file.includes:
            # mariadbd reads a relative include from its working directory, not the file's folder
            # (10.11.19, `--print-defaults` from `/`): only an absolute one says where the file is.
            if not is_absolute(include.target.replace("\\", "/")):
                continue
            wanted = resolver.wanted(include.target, path)
            targets = (resolver.directory if include.directory else resolver.file)(include.target, path)
            for target in targets:
                if is_absolute(normpath(target)):
                    continue
                name = (
                    posixpath.join(wanted, posixpath.basename(normpath(target)))
                    if include.directory
                    else wanted
                )
                found.setdefault(target, name)
    return found


def directory_read(files: Mapping[str, OptionFile], include: Include) -> tuple[str, list[str]]:
    """The folder an `!includedir` line names, normalised (joined to its file's directory when relative),
    and the uploads the server reads from it, in its order: the matching `resolve_includes` does (exact
    folder, else relative uploads whose folder ends it, else bare names the only `!includedir` adopts;
    `.cnf` only, `.ini` too on Windows)."""
    resolver = _resolver(files)
    return resolver.wanted(include.target, include.file), resolver.directory(include.target, include.file)
