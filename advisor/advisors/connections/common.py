"""What the connections rules share: helpers and manual pages."""

from __future__ import annotations

import math


def round_up(value: float, step: int) -> int:
    return math.ceil(value / step) * step
