"""All settings of InnoTune in one pydantic-settings class, read from the environment.

With nothing set, InnoTune runs on its embedded default: a SQLite file under ./var and
tasks executed in-process, so a newcomer needs neither PostgreSQL nor Redis.
"""

from __future__ import annotations

import tempfile
from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_SQLITE_PATH = Path("var") / "innotune.db"


class Settings(BaseSettings):
    """Environment variables, unprefixed where the ecosystem has a common name for them."""

    model_config = SettingsConfigDict(env_file=None, extra="ignore")

    database_url: str = Field(default=f"sqlite:///{DEFAULT_SQLITE_PATH}", alias="DATABASE_URL")
    celery_broker_url: str | None = Field(default=None, alias="CELERY_BROKER_URL")
    celery_queue: str = Field(default="innotune", alias="INNOTUNE_CELERY_QUEUE")
    log_level: str = Field(default="INFO", alias="INNOTUNE_LOG_LEVEL")
    log_format: str = Field(default="json", alias="INNOTUNE_LOG_FORMAT")
    host: str = Field(default="127.0.0.1", alias="INNOTUNE_HOST")
    port: int = Field(default=8000, alias="INNOTUNE_PORT")
    readiness_timeout_seconds: float = Field(default=2.0, alias="INNOTUNE_READINESS_TIMEOUT")
    # Audits and their workers (the service).
    #: an audit queued or running longer than this is re-sent by the sweeper.
    sweep_after_seconds: float = Field(default=60.0, alias="INNOTUNE_SWEEP_AFTER_SECONDS")
    sweep_interval_seconds: float = Field(default=30.0, alias="INNOTUNE_SWEEP_INTERVAL_SECONDS")
    #: retention: each server keeps its newest N audits plus every audit whose findings changed
    #: (0 keeps everything); beat prunes this often, in batches of servers.
    audit_retention_keep: int = Field(default=30, ge=0, alias="INNOTUNE_AUDIT_RETENTION_KEEP")
    audit_prune_interval_seconds: float = Field(default=3600.0, gt=0, alias="INNOTUNE_AUDIT_PRUNE_INTERVAL")
    #: runs started for one audit (worker deaths included) before it is marked failed.
    audit_max_attempts: int = Field(default=3, alias="INNOTUNE_AUDIT_MAX_ATTEMPTS")
    audit_soft_time_limit_seconds: float = Field(default=30.0, alias="INNOTUNE_AUDIT_SOFT_TIME_LIMIT")
    audit_time_limit_seconds: float = Field(default=45.0, alias="INNOTUNE_AUDIT_TIME_LIMIT")
    callback_timeout_seconds: float = Field(default=5.0, alias="INNOTUNE_CALLBACK_TIMEOUT")
    #: Redis hands an unacknowledged task (its worker died) to another worker after this long.
    broker_visibility_timeout_seconds: float = Field(
        default=600.0, alias="INNOTUNE_BROKER_VISIBILITY_TIMEOUT"
    )
    #: API requests each API key may make per minute (a token bucket in each API process).
    rate_limit_per_minute: int = Field(default=600, ge=1, alias="INNOTUNE_RATE_LIMIT_PER_MINUTE")
    # Fleets: beat runs the dispatcher this often; each transaction claims this many servers.
    fleet_dispatch_interval_seconds: float = Field(default=60.0, alias="INNOTUNE_FLEET_DISPATCH_INTERVAL")
    fleet_dispatch_chunk_size: int = Field(default=500, ge=1, le=10000, alias="INNOTUNE_FLEET_DISPATCH_CHUNK")
    #: a fleet run's audits go to the workers this many per task (claimed and stored together).
    fleet_audits_per_task: int = Field(default=25, ge=1, le=500, alias="INNOTUNE_FLEET_AUDITS_PER_TASK")
    #: signs session cookies and form tokens and derives the webhook secrets (conf.server_secret);
    #: every API and worker process of a deployment must share it.
    secret_key: str | None = Field(default=None, alias="INNOTUNE_SECRET_KEY", min_length=32)
    #: where the secret key is kept when INNOTUNE_SECRET_KEY is not set (created on first use).
    secret_key_file: str = Field(default="var/secret_key", alias="INNOTUNE_SECRET_KEY_FILE")
    #: the address users reach the pages at (`https://innotune.example.com`): forms posted from any
    #: other origin are refused. Unset: the origin the request itself was sent to.
    public_origin: str | None = Field(default=None, alias="INNOTUNE_PUBLIC_ORIGIN")
    #: networks callbacks may reach although they are not public (`10.0.0.0/8,fd00::/8`): by
    #: default loopback, private, link-local and other non-global addresses are refused.
    callback_allowed_networks: str = Field(default="", alias="INNOTUNE_CALLBACK_ALLOWED_NETWORKS")

    #: where beat keeps its schedule: a writable place (the code directory may be read-only).
    beat_schedule_file: Path = Field(
        default=Path(tempfile.gettempdir()) / "innotune-celerybeat-schedule", alias="INNOTUNE_BEAT_SCHEDULE"
    )
    # Operations.
    #: when set, GET /metrics asks for it as a Bearer token.
    metrics_token: str | None = Field(default=None, alias="INNOTUNE_METRICS_TOKEN")
    #: the worker's main process serves its children's metrics on this port (0: not served).
    worker_metrics_port: int = Field(default=0, ge=0, le=65535, alias="INNOTUNE_WORKER_METRICS_PORT")
    #: a worker child is replaced after a task leaves it above this resident size (KiB, Celery's unit).
    worker_max_memory_per_child_kib: int = Field(
        default=200 * 1024, ge=0, alias="INNOTUNE_WORKER_MAX_MEMORY_PER_CHILD_KIB"
    )

    @property
    def celery_fleet_queue(self) -> str:
        """Fleet runs' audit batches wait here; workers take from it only when the main queue is empty
        (sorted queue order: `innotune` before `innotune.fleet`), so a single audit never queues
        behind a 10,000-server re-audit."""
        return f"{self.celery_queue}.fleet"

    @property
    def embedded(self) -> bool:
        """True when tasks run in-process because no broker is configured."""
        return not self.celery_broker_url

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The one Settings instance of this process (tests clear the cache to re-read)."""
    return Settings()
