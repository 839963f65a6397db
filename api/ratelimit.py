"""A per-API-key token bucket held in process memory: simple, and enough for one API process.

Each key gets a bucket of `per_minute` tokens, refilled continuously at `per_minute / 60` per
second; a request takes one token, and an empty bucket answers 429 with Retry-After.
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class _Bucket:
    tokens: float
    refilled_at: float


class TokenBucketLimiter:
    """Thread-safe token buckets keyed by a digest of the API key (never the key in clear)."""

    def __init__(self, per_minute: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        if per_minute < 1:
            raise ValueError("the rate limit must allow at least one request per minute")
        self.capacity = float(per_minute)
        self.refill_per_second = per_minute / 60.0
        self._clock = clock
        self._buckets: dict[str, _Bucket] = {}
        self._lock = threading.Lock()

    def acquire(self, api_key: str) -> float | None:
        """Take one token for this key: None when allowed, else the seconds until one is available."""
        bucket_id = hashlib.sha256(api_key.encode()).hexdigest()
        now = self._clock()
        with self._lock:
            bucket = self._buckets.get(bucket_id)
            if bucket is None:
                bucket = self._buckets[bucket_id] = _Bucket(self.capacity, now)
            elapsed_seconds = max(0.0, now - bucket.refilled_at)
            bucket.tokens = min(self.capacity, bucket.tokens + elapsed_seconds * self.refill_per_second)
            bucket.refilled_at = now
            if bucket.tokens >= 1.0:
                bucket.tokens -= 1.0
                return None
            return (1.0 - bucket.tokens) / self.refill_per_second


def retry_after_header(wait_seconds: float) -> str:
    """Retry-After takes whole seconds; round up so a client that obeys it is not refused again."""
    return str(max(1, math.ceil(wait_seconds)))
