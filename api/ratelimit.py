"""One rate limit per organisation for the API and the pages alike: a token bucket of `per_minute`
tokens, refilled continuously at `per_minute / 60` a second; a request takes one token, and an
empty bucket answers 429 with Retry-After. In service mode the buckets live in Redis, shared by
every API process; the embedded default keeps them in its one process.
"""

from __future__ import annotations

import hashlib
import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from api.problems import Problem

logger = logging.getLogger(__name__)


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


# One token bucket per organisation in Redis, shared by every API process: the same arithmetic as
# above, run atomically on the server with the server's clock (processes' clocks may disagree).
_REDIS_BUCKET = """
local capacity = tonumber(ARGV[1])
local per_second = tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or capacity
local at = tonumber(state[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - at) * per_second)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = (1 - tokens) / per_second end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil(capacity / per_second) + 1)
return tostring(wait)
"""


class RedisTokenBucketLimiter:
    """The limit shared by all API processes of one deployment (service mode).

    When Redis does not answer within its short timeout the request is let through (and logged):
    an outage of the limiter must not become an outage of the API.
    """

    def __init__(self, per_minute: int, redis_url: str, namespace: str) -> None:
        import redis

        if per_minute < 1:
            raise ValueError("the rate limit must allow at least one request per minute")
        self.capacity = float(per_minute)
        self.refill_per_second = per_minute / 60.0
        self._namespace = namespace
        self._client = redis.Redis.from_url(redis_url, socket_connect_timeout=0.5, socket_timeout=0.5)
        self._script = self._client.register_script(_REDIS_BUCKET)

    def acquire(self, subject: str) -> float | None:
        """Take one token for this subject: None when allowed, else the seconds to wait."""
        digest = hashlib.sha256(subject.encode()).hexdigest()[:32]
        try:
            wait = float(
                self._script(
                    keys=[f"{self._namespace}:{digest}"], args=[self.capacity, self.refill_per_second]
                )
            )
        except Exception as exc:  # Redis down or slow: fail open, loudly
            logger.warning("rate limiter unavailable, request allowed: %s", type(exc).__name__)
            return None
        return wait if wait > 0 else None


RateLimiter = TokenBucketLimiter | RedisTokenBucketLimiter


def build_rate_limiter(per_minute: int, broker_url: str | None, queue: str) -> RateLimiter:
    """Redis-backed (shared) when the service runs on a Redis broker, else in this process."""
    if broker_url and broker_url.startswith(("redis://", "rediss://")):
        # The limit is part of the key: a changed limit starts from full buckets.
        return RedisTokenBucketLimiter(per_minute, broker_url, f"innotune:ratelimit:{queue}:{per_minute}")
    return TokenBucketLimiter(per_minute)


def enforce_rate_limit(limiter: RateLimiter, organization_id: str) -> None:
    """429 (Retry-After) when the organisation has used its requests of the minute — API and pages
    draw from the same bucket."""
    wait_seconds = limiter.acquire(organization_id)
    if wait_seconds is not None:
        raise Problem(
            429,
            f"Rate limit of {int(limiter.capacity)} requests a minute exceeded for this organisation.",
            headers={"Retry-After": retry_after_header(wait_seconds)},
        )
