"""MySQL options whose value is a number, though no list of MySQL's names says so (data/mysql-numbers.json,
read off the real 5.7.42 and 8.0.46 binaries by generate_numbers): `mysqlx_port = 3<mysql-port>` is
refused by the X Plugin's parser, so it must not pass as text."""

from __future__ import annotations

import json
import os
from functools import cache

from advisor.optioncheck.model import OptionFacts

_FILE = os.path.join(os.path.dirname(__file__), "data", "mysql-numbers.json")
# Built-in plugins owning number options: a bad value makes 8.0.46 log "Parsing options for plugin 'mysqlx'
# failed" and start without the plugin (InnoDB's loss stops it: model.PLUGIN_CONSEQUENCES); other number
# options stop it (`binlog_expire_logs_seconds=1x`, `performance_schema_max_table_instances=12x`: exit 1).
_PLUGIN_HEADS = {"mysqlx": "mysqlx", "ngram": "ngram", "innodb": "InnoDB"}


@cache
def _numbers() -> dict[str, str]:
    with open(_FILE, encoding="utf-8") as file:
        numbers: dict[str, str] = json.load(file)["numbers"]
    return numbers


def mysql_only_facts(name: str) -> OptionFacts:
    """A MySQL name MariaDB's data cannot describe: a number (its range unknown) where the binaries print
    `--name=#`, else any text."""
    arg = _numbers().get(name)
    if arg is None:
        return OptionFacts(name, "string", "OPTIONAL", source="mysql name only")
    plugin = _PLUGIN_HEADS.get(name.split("_")[0])
    return OptionFacts(name, "longlong", arg, plugin=plugin, source="mysql binary: a number")
