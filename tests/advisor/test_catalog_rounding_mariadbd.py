"""The catalog's block sizes and enum numbering against the real mariadbd (`--verbose --help` prints each
value as the option parser stores it, the same rounding SET GLOBAL does): drift compares values as the
server stores them, and the SQL it offers must be a value the server takes as given."""

from __future__ import annotations

import pytest

from advisor.catalog import get_catalog
from advisor.version import ServerVersion
from tests.advisor.test_catalog_mariadbd import _help_values, option_argument, run_mariadbd
from tests.advisor.test_catalog_mariadbd import server_version as server_version  # the fixture

pytestmark = pytest.mark.mariadb

#: a value one below a multiple of 64 KiB, a few of those above the minimum: every block up to 64 KiB
#: leaves a remainder of block - 1, so what the server keeps names the block exactly.
_STEP = 65536


def _probe(low: int | float | None) -> int:
    return ((int(low or 0) + _STEP - 1) // _STEP + 5) * _STEP + _STEP - 1


def test_block_sizes_are_the_servers(server_version: ServerVersion) -> None:
    """Each name the catalog gives a block_size is rounded down to a multiple of exactly that block."""
    catalog = get_catalog()
    probes: dict[str, tuple[int, int]] = {}
    for name in sorted(catalog.names()):
        facts = catalog.lookup(name, server_version)
        if facts is not None and facts.exists and facts.block_size is not None:
            probes[name] = (_probe(facts.min), facts.block_size)
    assert {"max_allowed_packet", "join_buffer_size", "innodb_log_buffer_size"} <= set(probes)
    values = _help_values(run_mariadbd([f"--{name}={value}" for name, (value, _) in probes.items()]).stdout)
    wrong = [
        f"{name}: {value} read back as {values.get(name)}, catalog block {block}"
        for name, (value, block) in probes.items()
        if values.get(name) != str(value // block * block)
    ]
    assert wrong == []


def test_enum_values_are_in_the_servers_numbering(server_version: ServerVersion) -> None:
    """`name = N` in an option file sets the catalog's N-th value (event_scheduler = 1 is ON)."""
    catalog = get_catalog()
    enums = []
    for name in sorted(catalog.names()):
        facts = catalog.lookup(name, server_version)
        if (
            facts is not None
            and facts.exists
            and facts.kind == "variable"  # not `innodb = FORCE`: the plugin's load option
            and facts.unit == "enum"
            and facts.values
            and facts.option_file_ok
        ):
            enums.append(facts)
    assert {"event_scheduler", "binlog_format", "slave_parallel_mode"} <= {facts.name for facts in enums}
    plain = _help_values(run_mariadbd([option_argument(facts) for facts in enums]).stdout)
    checked, wrong = 0, []
    for index in range(max(len(facts.values or ()) for facts in enums)):
        numbered = [facts for facts in enums if facts.name in plain and index < len(facts.values or ())]
        shown = _help_values(run_mariadbd([f"--{facts.name}={index}" for facts in numbered]).stdout)
        for facts in numbered:
            checked += 1
            expected = (facts.values or ())[index]
            if shown.get(facts.name, "").lower() != expected.lower():
                wrong.append(
                    f"{facts.name} = {index}: server {shown.get(facts.name)!r}, catalog {expected!r}"
                )
    assert checked > 50
    assert wrong == []
