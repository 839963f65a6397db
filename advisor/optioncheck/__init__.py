"""Option validity as the server's own option parser (my_getopt) sees it — names and values.

Public API (pure: stdlib only, no I/O beyond reading the package's own JSON once, lazily)::

    from advisor.optioncheck import judge, Verdict, Outcome

    verdict = judge("innodb_buffer_pool_size", "1.5G", flavor="mariadb", version="10.11")
    verdict.outcome      # Outcome.DISABLES_PLUGIN
    verdict.plugin       # "InnoDB"
    verdict.stops_server # True: InnoDB is the default engine, so the server aborts
    verdict.suggestion   # "innodb_buffer_pool_size = 1536M"

``judge(name, value, *, flavor, version, os="linux", loose=False) -> Verdict``
    `name` as written in the file (``loose-``, ``skip-``, ``enable-``, ``disable-``, ``maximum-``
    prefixes, dashes or underscores, any case), `value` the text after ``=`` with the option-file
    parser's quoting already removed (None for a bare name). `flavor` "mariadb" or "mysql"
    (Percona → "mysql"); `version` "10.11.6", "8.0" or a tuple. `loose=True` when the caller's
    parser already stripped a ``loose-`` prefix.

``Verdict`` fields: `outcome` (:class:`Outcome`: accepts, clamps, ignores_with_warning,
disables_plugin, refuses_to_start), `message` (plain words: what the server does and why),
`reason` (stable tag: ok, unique_prefix, number_bool (a boolean read by its first digit), placeholder,
out_of_range, block_rounding, bad_bool,
bad_value, loose_bad_value, ambiguous_prefix, unknown_name, misspelling, other_flavor,
plugin_not_loaded, refused_prefix, compatibility_stub, and loose_* forms), `option` (the full name reached),
`plugin`, `value` (what the server ends up using, where known), `suggestion` (the corrected
``name = value`` line keeping the user's value, where the intent is clear), `basis` (the data
set used), `certain` (False when the data is partial: versions no list covers, plugin options the
lists hide, a name listed only for other versions, an ambiguous prefix where prefixes are taken).
Properties: `is_critical` (refused or plugin lost) and `stops_server`.

How the wiring is meant to go (config_validity, engine, differ): call `judge()` for every
option line of every ``[mysqld]``/``[mariadbd]``/``[server]`` group; a critical verdict comments
the line out (naming the finding) and, when `suggestion` is set, writes the suggestion beneath it.

Data (``data/``), every fact with its source:

* ``mariadb-10.11.json`` — every option name mariadbd 10.11.19 accepts, from its ``--verbose
  --help``, the live server's ``information_schema.SYSTEM_VARIABLES`` and probes of the binary.
  Regenerate with ``python -m advisor.optioncheck.generate_mariadb`` (needs the binary and a
  live server). Other MariaDB versions are judged with these facts (``certain=False``).
* ``names.json`` — which option names each version accepts: the help sections of the servers' own
  ``mysqld --verbose --help`` test results — MySQL 5.5.29, 5.6.40, 5.7.18, 8.0.3, 8.0.41, 9.x and
  MariaDB 12.3 — beside complete lists read off real binaries of distribution packages (MySQL 5.7.42, 8.0.46,
  8.4.13, 9.7.4; MariaDB 10.0.38 to 11.8.9, 10.11's own; ``fetch_server_help``) (``sources/*.names``, each
  naming its source), with the names the test results hide (plugin options) marked blind. Where such a
  name sits between test results, ``settled`` judges it from the complete lists around (a misspelling no
  version ever had; an option dropped before the target). Regenerate with
  ``python -m advisor.optioncheck.generate_names``. MySQL value types are borrowed from the same-named
  MariaDB option where one exists. Name verdicts are certain for MySQL 5.5 to 9.x and MariaDB 10.11 to
  12.3 (see ``versions``); a MySQL name resolves, and an abbreviation is unique or ambiguous, among the
  names of the lists around the target version.
* ``mariadb-10.11-quirks.json`` — what startup does after option parsing, observed on the binary:
  string options it validates (character sets, collations, locales, replication rules...), the
  FORCE plugin whose failure stops it (MyISAM), values that crash it.
* ``mariadb-10.11-plugins.json`` — per library of the 10.11.19 plugin directory, the options the binary
  lists once it is loaded (``python -m advisor.optioncheck.generate_plugins``); ``judge(..., plugins=...)``
  takes the libraries the option files load (``advisor.derived.engines.loaded_plugins``).
* ``foreign.json`` — plugin name prefixes (plugins not loaded) and Windows-only values.

The proof is ``bench/option_oracle.py`` (run by hand): generated lines asked of the real
mariadbd and compared with judge(); figures in ``bench/results/option_oracle.json``.

Nothing here imports advisor.advisors, a framework, or touches the network, clock or environment.
"""

from __future__ import annotations

from advisor.optioncheck.judge import judge
from advisor.optioncheck.model import OptionFacts, Outcome, Verdict

__all__ = ["OptionFacts", "Outcome", "Verdict", "judge"]
