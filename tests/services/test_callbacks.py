"""Callbacks: the finished audit POSTed with an HMAC-SHA256 signature of the exact body."""

from __future__ import annotations

import hashlib
import hmac
import json
import socket

from services.audits.callbacks import SIGNATURE_HEADER, send_callback, verify, worth_retrying
from tests.fixtures.callbacks import CallbackReceiver


def test_signed_post_arrives(callback_receiver: CallbackReceiver) -> None:
    """The receiver gets the JSON body and a signature it can recompute with the shared secret."""
    payload = {"id": "a1", "status": "succeeded", "findings": [{"title": "é"}]}
    status = send_callback(payload, callback_receiver.url, "s3cret")
    assert status == "delivered 200"
    (call,) = callback_receiver.received
    assert call.path == "/hooks/innotune" and json.loads(call.body) == payload
    expected = "sha256=" + hmac.new(b"s3cret", call.body, hashlib.sha256).hexdigest()
    assert call.headers[SIGNATURE_HEADER] == expected
    assert verify(call.body, "s3cret", call.headers[SIGNATURE_HEADER])
    assert not verify(call.body, "other", call.headers[SIGNATURE_HEADER])


def test_refusals_and_unreachable_receivers_are_statuses(callback_receiver: CallbackReceiver) -> None:
    """A 500 answer and a closed port come back as short statuses, worth retrying; a 404 is not."""
    callback_receiver.status = 500
    assert send_callback({}, callback_receiver.url, "k") == "rejected 500"
    callback_receiver.status = 404
    assert send_callback({}, callback_receiver.url, "k") == "rejected 404"
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed_port = sock.getsockname()[1]
    unreachable = send_callback({}, f"http://127.0.0.1:{closed_port}/", "k", timeout_seconds=1)
    assert unreachable == "error ConnectError"
    assert worth_retrying("rejected 500") and worth_retrying(unreachable) and worth_retrying("timeout")
    assert not worth_retrying("rejected 404") and not worth_retrying("delivered 200")
