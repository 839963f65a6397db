"""What the buffer_pool rules share: helpers and manual pages."""

from __future__ import annotations

from advisor.context import Setting
from advisor.findings import Evidence
from advisor.units import describe_bytes

REF_SIZE = "https://dev.mysql.com/doc/refman/8.0/en/innodb-buffer-pool-resize.html"


def pool_evidence(size: int, setting: Setting) -> Evidence:
    return Evidence("innodb_buffer_pool_size", describe_bytes(size), setting.where())
