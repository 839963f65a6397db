"""The signed session cookie of the pages: it vouches for a key hash, and nothing forged or old passes."""

from __future__ import annotations

from api.web.session import SESSION_SECONDS, read_session, sign_session
from services.orgs import hash_key, new_key

NOW = 1_800_000_000


def test_a_signed_session_reads_back_its_key_hash_and_holds_no_key() -> None:
    """sign → read gives the hash back; the value carries neither the key nor any part of it."""
    key = new_key()
    value = sign_session(hash_key(key), NOW)
    assert read_session(value, NOW + 60) == hash_key(key)
    assert key not in value and key[4:16] not in value


def test_tampered_foreign_or_malformed_values_are_refused() -> None:
    """Changing one character of the payload or the MAC, another version tag, or junk: None."""
    value = sign_session(hash_key(new_key()), NOW)
    version, payload, mac = value.split(".")
    flipped = payload[:-1] + ("A" if payload[-1] != "A" else "B")
    forged_mac = mac[:-1] + ("A" if mac[-1] != "A" else "B")
    for bad in (
        f"{version}.{flipped}.{mac}",
        f"{version}.{payload}.{forged_mac}",
        f"v2.{payload}.{mac}",
        f"{version}.{payload}",
        "",
        None,
        "v1.!!!.???",
    ):
        assert read_session(bad, NOW) is None, bad


def test_sessions_expire_and_are_never_from_the_future() -> None:
    """Valid up to SESSION_SECONDS after signing; refused after, and refused before it was issued."""
    value = sign_session(hash_key(new_key()), NOW)
    assert read_session(value, NOW + SESSION_SECONDS) is not None
    assert read_session(value, NOW + SESSION_SECONDS + 1) is None
    assert read_session(value, NOW - 1) is None
