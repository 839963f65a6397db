"""Every option file of the shared corpus: byte-for-byte round trip, or a clean refusal."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.errors import InputError
from advisor.inputs.optionfiles import parse_option_file
from tests.corpus import CORPUS, corpus_file

PERCONA = "percona-toolkit"


def _option_files() -> list[str]:
    """The option files named in the corpus notes: realworld/mycnf, Percona's sandbox and test samples."""
    found: list[Path] = sorted(corpus_file("realworld/mycnf").iterdir())
    found += sorted(corpus_file(f"{PERCONA}/sandbox").rglob("*.cnf"))
    found += sorted(
        path for path in corpus_file(f"{PERCONA}/t").rglob("*") if "cnf" in path.name and path.is_file()
    )
    found += sorted(corpus_file(f"{PERCONA}/t/pt-mysql-summary/samples").rglob("mysql-config-file"))
    return [str(path.relative_to(CORPUS)) for path in found]


OPTION_FILES = _option_files()
OTHER_FILES = [str(path.relative_to(CORPUS)) for path in sorted(corpus_file("realworld/other").iterdir())]

# Real files InnoTune refuses on purpose (see advisor/inputs/optionfiles.py): fragments with options before
# any group (vitess), build templates with @PLACEHOLDERS@ and an ERB template.
REFUSED = {
    "realworld/mycnf/cpan-testers_cpantesters-deploy__etc-mysql__my.cnf",
    "realworld/mycnf/gplessis_dotdeb-mysql__my-default.cnf.sh",
    "realworld/mycnf/ottok_mariadb-10.1__my-huge.cnf.sh",
    "realworld/mycnf/ottok_mariadb-10.1__my-innodb-heavy-4G.cnf.sh",
    "realworld/mycnf/ottok_mariadb-10.1__my-small.cnf.sh",
    "realworld/mycnf/vitessio_vitess__mariadb104.cnf",
    "realworld/mycnf/vitessio_vitess__mysql84.cnf",
    "realworld/mycnf/vitessio_vitess__production.cnf",
}


def _text(relative: str) -> str:
    return corpus_file(relative).read_bytes().decode("utf-8")


def test_the_corpus_has_the_expected_option_files() -> None:
    """The list covers realworld/mycnf (50), the sandbox files (5) and the Percona samples (19)."""
    assert len(OPTION_FILES) == 74
    assert set(OPTION_FILES) >= REFUSED


@pytest.mark.parametrize("relative", OPTION_FILES)
def test_round_trip_is_byte_for_byte(relative: str) -> None:
    """serialise(parse(text)) == text; files refused on purpose round-trip in lenient mode."""
    text = _text(relative)
    if relative in REFUSED:
        with pytest.raises(InputError):
            parse_option_file(text, relative)
        option_file = parse_option_file(text, relative, strict=False)
    else:
        option_file = parse_option_file(text, relative)
    assert option_file.serialise() == text


@pytest.mark.parametrize("relative", OTHER_FILES)
def test_non_option_files_give_input_error_or_a_parse(relative: str) -> None:
    """Templates, .opt flags, a binary login file, NDB config.ini, JSON/CSV/Perl dumps: InputError with a
    line, or a clean parse that round-trips — never another exception."""
    data = corpus_file(relative).read_bytes()
    text = data.decode("utf-8", "surrogateescape")
    try:
        option_file = parse_option_file(text, relative)
    except InputError as error:
        assert error.file == relative and error.line is not None and error.line >= 1
    else:
        assert option_file.serialise() == text


def test_every_other_file_is_refused() -> None:
    """None of realworld/other is a server option file: all 13 are refused."""
    refused = 0
    for relative in OTHER_FILES:
        try:
            parse_option_file(corpus_file(relative).read_bytes().decode("utf-8", "surrogateescape"), relative)
        except InputError:
            refused += 1
    assert refused == len(OTHER_FILES) == 13
