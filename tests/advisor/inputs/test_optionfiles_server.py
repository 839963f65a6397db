"""The parser against the server's own option-file reader: MariaDB's `my_print_defaults`.

`my_print_defaults --defaults-file=F group...` prints every option of those groups exactly as the server
receives it (`--name=value`, value unquoted and unescaped, in read order). For every corpus option file
the parser accepts, InnoTune must read the same options in the same order. Skipped when the program is
missing, except in CI (CI=true), where that is a failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from advisor.errors import InputError
from advisor.inputs.optionfiles import OptionEntry, OptionFileSet, parse_option_file
from tests.advisor.inputs.test_optionfiles_corpus import OPTION_FILES
from tests.corpus import corpus_file

pytestmark = pytest.mark.mariadb

MY_PRINT_DEFAULTS = shutil.which("my_print_defaults") or "/usr/bin/my_print_defaults"


@pytest.fixture(scope="module")
def program() -> str:
    if not os.access(MY_PRINT_DEFAULTS, os.X_OK):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{MY_PRINT_DEFAULTS} is missing, and CI must run the server-reader checks")
        pytest.skip("my_print_defaults is not installed")
    return MY_PRINT_DEFAULTS


def server_reads(program: str, path: Path, groups: list[str]) -> list[str]:
    run = subprocess.run([program, f"--defaults-file={path}", *groups], capture_output=True, timeout=30)
    assert run.returncode == 0, run.stderr
    return run.stdout.decode("utf-8").split("\n")[:-1]


def as_argument(entry: OptionEntry) -> str:
    return f"--{entry.raw_name}" + ("" if entry.given is None else f"={entry.given}")


def test_every_accepted_corpus_file_reads_as_the_server_reads_it(program: str) -> None:
    """53 corpus files without includes, 1288 options: same names, values and order as my_print_defaults."""
    files = options = 0
    for relative in OPTION_FILES:
        try:
            option_file = parse_option_file(corpus_file(relative).read_bytes().decode("utf-8"), relative)
        except InputError:
            continue
        if option_file.includes or not option_file.groups():
            continue
        ours = [as_argument(entry) for entry in option_file.entries()]
        # values may hold decoded newlines: compare the printed text, not line lists
        theirs = server_reads(program, corpus_file(relative), list(option_file.groups()))
        assert "\n".join(ours) == "\n".join(theirs), relative
        files += 1
        options += len(ours)
    assert (files, options) == (53, 1288)


def test_includes_read_in_the_same_order_as_the_server(program: str, tmp_path: Path) -> None:
    """A file with `!include` and `!includedir` in the middle of a group: same options, same order
    (the .txt file in the included directory is skipped by both)."""
    (tmp_path / "conf.d").mkdir()
    texts = {
        tmp_path
        / "my.cnf": f"[mysqld]\na = 1\n!include {tmp_path}/extra.cnf\nb = 2\n!includedir {tmp_path}/conf.d\nc = 3\n",
        tmp_path / "extra.cnf": "[mysqld]\na = 5 # later\n[client]\nuser = x\n",
        tmp_path / "conf.d" / "b.cnf": "[mysqld]\nb = 'quoted # b'\n",
        tmp_path / "conf.d" / "a.cnf": "[mysqld]\nskip-name-resolve\n",
        tmp_path / "conf.d" / "ignored.txt": "[mysqld]\nignored = 1\n",
    }
    for path, text in texts.items():
        path.write_text(text)
    uploads = {str(path): text for path, text in texts.items() if path.suffix == ".cnf"}
    options = OptionFileSet.from_texts(uploads)
    theirs = server_reads(program, tmp_path / "my.cnf", ["mysqld"])
    assert [as_argument(entry) for entry in options.entries({"mysqld"})] == theirs
    assert theirs == ["--a=1", "--a=5", "--b=2", "--skip-name-resolve", "--b=quoted # b", "--c=3"]
