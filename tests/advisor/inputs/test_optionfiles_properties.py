"""Property tests: generated option files round-trip and read back; any text parses or is refused cleanly."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from advisor.errors import InputError
from advisor.inputs.optionfiles import parse_option_file
from advisor.inputs.optionnames import prefixed_value, split_option_name
from advisor.inputs.optionscan import PLACEHOLDER_RE, TEMPLATE_RE
from advisor.inputs.optionsyntax import encode_value

VALUE_CHARS = st.characters(
    blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufffd\ufeff"
) | st.sampled_from(list("\t\b\n\r\x0b\x0c #;'\"\\=[]!"))
VALUES = st.text(VALUE_CHARS, max_size=30).filter(
    lambda value: TEMPLATE_RE().search(value) is None and PLACEHOLDER_RE().search(value) is None
)
NAMES = st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{0,24}", fullmatch=True)
GROUPS = st.sampled_from(
    ["mysqld", "client", "mariadb", "mysqld-8.0", "server", "mysqld_safe", "client.server1"]
)
SPACES = st.text(st.sampled_from(" \t"), max_size=3)
COMMENT_TEXT = st.text(
    st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufffd"), max_size=25
)


@dataclass(frozen=True)
class Line:
    text: str
    #: (name, value) when the line is an option
    option: tuple[str, str | None] | None = None
    group: str | None = None


@st.composite
def option_lines(draw: st.DrawFn) -> Line:
    name = draw(NAMES)
    indent, before, after = draw(SPACES), draw(SPACES), draw(SPACES)
    comment = draw(st.one_of(st.just(""), COMMENT_TEXT.map(lambda text: " #" + text)))
    if draw(st.booleans()):
        return Line(f"{indent}{name}{before}{comment}", option=(name, None))
    value = draw(VALUES)
    return Line(f"{indent}{name}{before}={after}{encode_value(value)}{before}{comment}", option=(name, value))


@st.composite
def other_lines(draw: st.DrawFn) -> Line:
    kind = draw(st.sampled_from(["blank", "hash", "semicolon", "include", "group"]))
    if kind == "blank":
        return Line(draw(SPACES))
    if kind == "group":
        group = draw(GROUPS)
        return Line(f"{draw(SPACES)}[{group}]{draw(SPACES)}", group=group)
    if kind == "include":
        return Line(f"!include {draw(NAMES)}.cnf")
    marker = "#" if kind == "hash" else ";"
    return Line(draw(SPACES) + marker + draw(COMMENT_TEXT))


@st.composite
def option_files(draw: st.DrawFn) -> tuple[str, list[tuple[str, str, str | None]]]:
    """A file text and the (group, normalised name, value) the server would read from it."""
    first_group = draw(GROUPS)
    lines = [Line(f"[{first_group}]", group=first_group)]
    lines += draw(st.lists(st.one_of(option_lines(), other_lines()), max_size=25))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    text = ending.join(line.text for line in lines) + draw(st.sampled_from(["", ending]))
    if draw(st.booleans()):
        text = "\ufeff" + text
    expected: list[tuple[str, str, str | None]] = []
    group = ""
    for line in lines:
        if line.group is not None:
            group = line.group
        elif line.option is not None:
            parts = split_option_name(line.option[0])
            assert parts is not None
            name, prefix, _ = parts
            value = line.option[1]
            if prefix in ("skip", "disable"):
                value = "OFF"
            elif prefix == "enable":
                value = "ON"
            expected.append((group, name, value))
    return text, expected


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(option_files())
def test_generated_files_round_trip_and_read_back(
    case: tuple[str, list[tuple[str, str, str | None]]],
) -> None:
    """serialise(parse(text)) == text, and the options read are exactly those written."""
    text, expected = case
    option_file = parse_option_file(text, "gen.cnf")
    assert option_file.serialise() == text
    assert [(entry.group, entry.name, entry.value) for entry in option_file.entries()] == expected


@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_encoded_values_read_back_unchanged(value: str) -> None:
    """encode_value writes any value so that the server's reading rules give it back."""
    option_file = parse_option_file(f"[mysqld]\nname = {encode_value(value)} # note\n", "x.cnf")
    assert option_file.entries()[0].value == value


@settings(max_examples=300, deadline=None)
@given(option_files(), VALUES)
def test_set_value_changes_one_line_only(
    case: tuple[str, list[tuple[str, str, str | None]]], value: str
) -> None:
    """set_value on any option line changes that line's value and no other byte of the file."""
    text, _ = case
    option_file = parse_option_file(text, "gen.cnf")
    assume(option_file.entries())
    target = option_file.entries()[-1]
    edited = option_file.copy()
    edited.set_value(target.line, value)
    before, after = option_file.lines(), edited.lines()
    assert len(before) == len(after)
    assert [i for i, (old, new) in enumerate(zip(before, after, strict=True)) if old != new] in (
        [],
        [target.line - 1],
    )
    expected = prefixed_value(target.prefix, value) if target.prefix else value
    assert [entry.value for entry in edited.entries() if entry.line == target.line] == [expected]


FRAGMENTS = st.sampled_from(
    [
        "[",
        "]",
        "[mysqld]",
        "=",
        "#",
        ";",
        "'",
        '"',
        "\\",
        "!include ",
        "!includedir ",
        "\n",
        "\r\n",
        " ",
        "\t",
        "key",
        "skip-",
        "loose-",
        "{{",
        "<%",
        "@X_Y@",
        "\x00",
        "\ufeff",
        "\ufffd",
        "é",
        "--",
    ]
)
ARBITRARY = st.one_of(st.text(), st.lists(FRAGMENTS | st.text(max_size=3), max_size=40).map("".join))


@settings(max_examples=800, deadline=None)
@given(ARBITRARY, st.booleans())
def test_any_text_parses_or_is_refused_cleanly(text: str, strict: bool) -> None:
    """Arbitrary text gives an OptionFile that round-trips, or an InputError with a line — nothing else."""
    try:
        option_file = parse_option_file(text, "any.cnf", strict=strict)
    except InputError as error:
        assert error.file == "any.cnf" and error.line is not None and error.line >= 1
    else:
        assert option_file.serialise() == text
        for entry in option_file.entries():
            assert entry.name and entry.name == entry.name.lower()
