"""The hardware spec from JSON and from CLI flags: sizes, validation, and errors that name file and line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.errors import InputError
from advisor.inputs.hardware import FIELD_NAMES, HardwareSpec, hardware_from_flags, load_hardware
from tests.corpus import corpus_file

GIB = 1024**3
MIB = 1024**2


def _error(text: str, file: str = "hw.json") -> InputError:
    with pytest.raises(InputError) as caught:
        load_hardware(text, file)
    return caught.value


def test_full_spec_reads_sizes_and_lowercases_storage() -> None:
    """Every field reads; `64G`/`48G` become bytes and `SSD` becomes `ssd`."""
    text = json.dumps(
        {
            "memory": "64G",
            "memory_limit": "48G",
            "cpus": 16,
            "storage": "SSD",
            "iops": 20000,
            "fsync_latency_ms": 0.4,
            "battery_backed_cache": True,
            "os": "Debian 12",
        }
    )
    spec = load_hardware(text, "hw.json")
    assert spec == HardwareSpec(
        memory=64 * GIB,
        memory_limit=48 * GIB,
        cpus=16,
        storage="ssd",
        iops=20000,
        fsync_latency_ms=0.4,
        battery_backed_cache=True,
        os="Debian 12",
    )
    assert spec.usable_memory == 48 * GIB


@pytest.mark.parametrize(
    ("memory", "expected"),
    [
        ("512M", 512 * MIB),
        ("1.5G", 1536 * MIB),
        ("1t", 1024 * GIB),
        (17179869184, 16 * GIB),
        ("8589934592", 8 * GIB),
    ],
)
def test_memory_accepts_suffixes_and_byte_counts(memory: object, expected: int) -> None:
    """Sizes take K/M/G/T suffixes in either case, decimals with a suffix, and plain byte counts."""
    assert load_hardware(json.dumps({"memory": memory}), "hw.json").memory == expected


def test_usable_memory_is_memory_without_a_limit_and_none_when_unknown() -> None:
    """usable_memory falls back to whichever of memory/memory_limit is known."""
    assert load_hardware('{"memory": "32G"}', "hw.json").usable_memory == 32 * GIB
    assert load_hardware('{"memory_limit": "2G"}', "hw.json").usable_memory == 2 * GIB
    assert load_hardware("{}", "hw.json").usable_memory is None


def test_json_syntax_error_names_file_and_line() -> None:
    """A trailing comma is reported where the decoder stops: the closing brace on line 4."""
    error = _error('{\n  "memory": "64G",\n  "cpus": 8,\n}\n')
    assert (error.file, error.line) == ("hw.json", 4)
    assert error.describe().startswith("hw.json:4: not valid JSON: Expecting property name")


def test_json_syntax_error_line_is_the_decoders_line() -> None:
    """An unquoted value on line 3 is reported on line 3, not elsewhere."""
    error = _error('{\n  "memory": "64G",\n  "storage": ssd\n}\n')
    assert error.line == 3


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('{\n  "cpus": 4,\n  "memory": "64Q"\n}', 3, "`memory`: `64Q` is not a size"),
        ('{\n  "memory": 0\n}', 2, "`memory`: must be more than zero"),
        (
            '{"memory": 16}',
            1,
            "`memory`: 16 bytes is too little for a database server (at least 64M); a size needs its unit, e.g. 16G",
        ),
        ('{"memory_limit": "32M"}', 1, "`memory_limit`: 33554432 bytes is too little for a database server"),
        ('{"memory": -1}', 1, "`memory`: must be more than zero"),
        ('{\n\n  "cpus": 0}', 3, "`cpus`: must be at least 1"),
        ('{"cpus": true}', 1, "`cpus`: expected a whole number of CPUs"),
        ('{"cpus": 2.5}', 1, "`cpus`: expected a whole number of CPUs"),
        ('{\n "storage": "tape"\n}', 2, "unknown storage 'tape': use one of hdd, ssd, nvme, network"),
        ('{\n "memory": "1G",\n "ram": "1G"\n}', 3, "unknown field `ram`"),
        ('{"fsync_latency_ms": -2}', 1, "`fsync_latency_ms`: must be a positive number"),
        ('{"fsync_latency_ms": NaN}', 1, "`fsync_latency_ms`: must be a positive number"),
        ('{"memory": "99999999999999999999G"}', 1, "beyond any machine"),
    ],
)
def test_bad_field_names_the_field_and_the_line_of_its_key(text: str, line: int, words: str) -> None:
    """Validation errors say which field is wrong and on which line its key stands."""
    error = _error(text)
    assert error.file == "hw.json"
    assert error.line == line
    assert words in error.message


def test_duplicate_key_points_at_the_last_one() -> None:
    """JSON keeps the last of duplicate keys, so the error points at that line."""
    error = _error('{\n "cpus": 4,\n "cpus": 0\n}')
    assert error.line == 3


def test_several_bad_fields_are_all_reported() -> None:
    """Two bad fields give one error naming both, at the first one's line."""
    error = _error('{\n "memory": "lots",\n "storage": "floppy"\n}')
    assert "`memory`" in error.message and "`storage`" in error.message
    assert error.line == 2


@pytest.mark.parametrize("text", ["[1, 2]", '"64G"', "null", "\n\n42"])
def test_non_object_json_is_refused(text: str) -> None:
    """Only a JSON object is a hardware spec."""
    error = _error(text)
    assert "expected a JSON object" in error.message
    assert error.line == text.count("\n") + 1


def test_bom_is_tolerated() -> None:
    """A UTF-8 byte-order mark from a Windows editor does not break the JSON."""
    assert load_hardware('\ufeff{"cpus": 2}', "hw.json").cpus == 2


def test_spec_is_immutable_and_hashable() -> None:
    """The spec is frozen: it can sit in the immutable audit context."""
    spec = load_hardware('{"cpus": 2}', "hw.json")
    with pytest.raises(AttributeError):
        spec.cpus = 4  # type: ignore[misc]
    assert hash(spec) == hash(load_hardware('{"cpus": 2}', "other.json"))


def test_flags_read_cli_strings() -> None:
    """--memory 1.5G --cpus 4 --storage NVMe --memory-limit 512M."""
    spec = hardware_from_flags(memory="1.5G", cpus="4", storage="NVMe", memory_limit="512M")
    assert (spec.memory, spec.cpus, spec.storage, spec.memory_limit) == (1536 * MIB, 4, "nvme", 512 * MIB)
    assert spec.usable_memory == 512 * MIB
    assert hardware_from_flags(cpus=8) == HardwareSpec(cpus=8)
    assert hardware_from_flags() == HardwareSpec()


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        ({"memory": "lots"}, "--memory: `lots` is not a size"),
        ({"memory": "0"}, "--memory: must be more than zero"),
        ({"memory": "-4G"}, "--memory: `-4G` is not a size"),
        ({"cpus": "0"}, "--cpus: must be at least 1"),
        ({"cpus": "two"}, "--cpus: expected a whole number of CPUs"),
        ({"storage": "tape"}, "--storage: unknown storage"),
        ({"memory_limit": "1X"}, "--memory-limit: `1X` is not a size"),
    ],
)
def test_bad_flag_is_reported_against_the_command_line(flags: dict[str, str], words: str) -> None:
    """Flag errors name the flag and the file `command line`, with no line."""
    with pytest.raises(InputError) as caught:
        hardware_from_flags(**flags)
    assert caught.value.file == "command line"
    assert caught.value.line is None
    assert words in caught.value.message


@pytest.mark.parametrize(
    ("sample", "free_total", "meminfo_kib", "cpu_lines"),
    [("006", 33426010112, 32642588, 8), ("007", 202770395136, 198017964, None)],
)
def test_percona_host_facts_feed_the_flags(
    sample: str, free_total: int, meminfo_kib: int, cpu_lines: int | None
) -> None:
    """The byte count of `free -b` and MemTotal in kB from pt-summary samples give the same machine's memory."""
    folder = f"percona-toolkit/t/pt-summary/samples/Linux/{sample}"
    memory = corpus_file(f"{folder}/memory").read_text()
    total = next(line.split()[1] for line in memory.splitlines() if line.startswith("Mem:"))
    kib = next(line.split()[1] for line in memory.splitlines() if line.startswith("MemTotal:"))
    assert (int(total), int(kib)) == (free_total, meminfo_kib)
    assert hardware_from_flags(memory=total).memory == free_total
    assert hardware_from_flags(memory=f"{kib}K").memory == meminfo_kib * 1024
    if cpu_lines is not None:
        cpuinfo = corpus_file(f"{folder}/proc_cpuinfo_copy").read_text()
        cpus = sum(line.startswith("processor") for line in cpuinfo.splitlines())
        assert hardware_from_flags(cpus=str(cpus)).cpus == cpu_lines


def test_loading_the_schema_parser_does_not_import_pydantic() -> None:
    """The core's parsers never import pydantic (~100 ms of start-up for the CLI)."""
    code = (
        "import sys, advisor.inputs.schema as s, advisor.inputs.hardware as h; h.hardware_from_flags('1G'); "
    )
    code += "s.parse_schema('TABLE_SCHEMA\\tTABLE_NAME\\na\\tb\\n', 'x'); "
    code += "print('pydantic' in sys.modules, 'json' in sys.modules)"
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert output.split() == ["False", "False"]


@given(st.text(max_size=300))
@settings(max_examples=300, deadline=None)
def test_any_text_gives_a_spec_or_an_input_error(text: str) -> None:
    """Arbitrary text never raises anything but InputError."""
    try:
        assert isinstance(load_hardware(text, "hw.json"), HardwareSpec)
    except InputError as error:
        assert error.file == "hw.json"


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
_KEYS = st.sampled_from([*FIELD_NAMES, "ram", "Memory"])


@given(
    st.dictionaries(_KEYS, _JSON_VALUES | st.sampled_from(["64G", "1.5G", "0", "-1", "ssd", "8"]), max_size=6)
)
@settings(max_examples=400, deadline=None)
def test_any_json_object_gives_a_spec_or_an_input_error(data: dict[str, object]) -> None:
    """Any values under known and unknown keys: a spec with positive sizes, or InputError."""
    try:
        spec = load_hardware(json.dumps(data), "hw.json")
    except InputError as error:
        assert error.file == "hw.json"
        return
    assert spec.memory is None or spec.memory > 0
    assert spec.cpus is None or spec.cpus >= 1


@given(st.text(max_size=25), st.text(max_size=8), st.text(max_size=8), st.text(max_size=25))
@settings(max_examples=300, deadline=None)
def test_any_flags_give_a_spec_or_an_input_error(memory: str, cpus: str, storage: str, limit: str) -> None:
    """Arbitrary flag strings never raise anything but InputError."""
    try:
        hardware_from_flags(memory=memory, cpus=cpus, storage=storage, memory_limit=limit)
    except InputError as error:
        assert error.file == "command line"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"battery_backed_cache": true, "os": "Debian 12"}', (True, "Debian 12")),
        ('{"battery_backed_cache": "no"}', (False, None)),
        ('{"battery_backed_cache": 1}', (True, None)),
    ],
)
def test_flags_and_text_fields(text: str, expected: tuple[object, object]) -> None:
    """true/false as JSON booleans, 1/0 or yes/no; the OS as text."""
    spec = load_hardware(text, "hw.json")
    assert (spec.battery_backed_cache, spec.os) == expected


@pytest.mark.parametrize(
    ("text", "words"),
    [('{"battery_backed_cache": "maybe"}', "expected true or false"), ('{"os": 12}', "`os`: expected text")],
)
def test_bad_flag_or_text_field_is_named(text: str, words: str) -> None:
    assert words in _error(text).message
