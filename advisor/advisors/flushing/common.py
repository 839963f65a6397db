"""The flushing advisor's shared helpers and references."""

from __future__ import annotations

REF_FLUSHING = "https://dev.mysql.com/doc/refman/8.0/en/innodb-buffer-pool-flushing.html"
