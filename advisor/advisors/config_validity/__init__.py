"""Config validity: option lines the target server refuses, ignores, reads differently or never sees.

One pass over the option files classifies every line; each rule reports its share. The catalog does
not list every server option, so a name it has never heard of is "unknown to us", not "unknown to the
server": such a name is only reported when it is a near miss of a name the version knows.
"""

from __future__ import annotations

from advisor.advisors.config_validity.encoding import byte_order_mark
from advisor.advisors.config_validity.maximums import maximum_sets_value_line
from advisor.advisors.config_validity.rules import (
    deprecated_option,
    duplicate_option,
    ignored_option,
    invalid_value,
    misplaced_option,
    possible_typo,
    refused_option,
    unread_file,
)
from advisor.rules import Rule

RULES: tuple[Rule, ...] = (
    byte_order_mark,
    refused_option,
    ignored_option,
    deprecated_option,
    possible_typo,
    invalid_value,
    maximum_sets_value_line,
    duplicate_option,
    misplaced_option,
    unread_file,
)
