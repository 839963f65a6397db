"""The server's own secret, and the keys derived from it for each purpose.

INNOTUNE_SECRET_KEY when set (every API and worker process of a deployment must share it), else a
random key kept in INNOTUNE_SECRET_KEY_FILE (default `var/secret_key`, created on first use with mode
0600), so the embedded default keeps its sign-ins and webhook secrets across restarts.

The secret never goes into the database: what the database holds (session and key hashes, a webhook
secret's generation number) is useless without it, so a database dump alone cannot sign a callback.
Each use gets its own key, HMAC(secret, purpose), so no two uses ever share one.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import threading
import time
from pathlib import Path

from conf.settings import get_settings

SECRET_BYTES = 32
logger = logging.getLogger(__name__)
_lock = threading.Lock()
_cache: dict[str, bytes] = {}


def _read_or_create(path: Path) -> bytes:
    """The key in `path`; a new random one written there (exclusively, 0600) when there is none."""
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        text = ""
    if len(text) >= SECRET_BYTES:
        return text.encode()
    fresh = secrets.token_urlsafe(SECRET_BYTES)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process won the race: wait for it to write its key
        return _wait_for_key(path)
    except OSError as exc:  # a read-only directory: run, but say loudly what it costs
        logger.error(
            "cannot keep a secret key in %s (%s): set INNOTUNE_SECRET_KEY; until then this process "
            "uses a key of its own (sign-ins and webhook secrets end with it)",
            path,
            exc.strerror,
        )
        return fresh.encode()
    with os.fdopen(descriptor, "w") as handle:
        handle.write(fresh + "\n")
    if not get_settings().embedded:
        logger.warning(
            "INNOTUNE_SECRET_KEY is not set: created %s; every API and worker process must share it", path
        )
    return fresh.encode()


def _wait_for_key(path: Path, timeout_seconds: float = 5.0) -> bytes:
    deadline = time.monotonic() + timeout_seconds
    while time.monotonic() < deadline:
        text = path.read_text().strip()
        if len(text) >= SECRET_BYTES:
            return text.encode()
        time.sleep(0.05)
    raise RuntimeError(f"{path}: too short to be a secret key; delete it or set INNOTUNE_SECRET_KEY")


def server_secret() -> bytes:
    """INNOTUNE_SECRET_KEY, else the key file's content (created when missing)."""
    settings = get_settings()
    if settings.secret_key:
        return settings.secret_key.encode()
    path = Path(settings.secret_key_file)
    with _lock:
        key = str(path.resolve())
        if key not in _cache:
            _cache[key] = _read_or_create(path)
        return _cache[key]


def derived_key(purpose: str) -> bytes:
    """A key for one purpose (`session`, `csrf`, `webhook`), independent of every other purpose's."""
    return hmac.new(server_secret(), f"innotune.{purpose}".encode(), hashlib.sha256).digest()
