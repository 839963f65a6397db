"""Callbacks: signed the Standard Webhooks way, sent only to allowed addresses, statuses without
connection detail."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import socket
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from services.audits.callback_address import check_callback_url
from services.audits.callbacks import send_callback, signed_headers, worth_retrying
from services.errors import InvalidInput
from tests.fixtures.callbacks import CallbackReceiver

SECRET = "whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"  # a Standard Webhooks test-style secret


def test_signed_post_arrives_and_verifies_with_the_standard_library(
    callback_receiver: CallbackReceiver,
) -> None:
    """The receiver gets the JSON body with webhook-id/-timestamp/-signature headers that the
    standardwebhooks library verifies; another secret or a changed body does not verify."""
    payload = {"id": "a1", "status": "succeeded", "findings": [{"title": "é"}]}
    status = send_callback(payload, callback_receiver.url, SECRET, message_id="msg_a1")
    assert status == "delivered 200"
    (call,) = callback_receiver.received
    assert call.path == "/hooks/innotune" and json.loads(call.body) == payload
    headers = {name.lower(): value for name, value in call.headers.items()}
    assert headers["webhook-id"] == "msg_a1" and headers["webhook-signature"].startswith("v1,")
    assert abs(int(headers["webhook-timestamp"]) - datetime.now(UTC).timestamp()) < 30
    assert Webhook(SECRET).verify(call.body, headers) == payload
    with pytest.raises(WebhookVerificationError):
        Webhook("whsec_" + "b3RoZXItc2VjcmV0LW90aGVyLXNlY3JldA==").verify(call.body, headers)
    with pytest.raises(WebhookVerificationError):
        Webhook(SECRET).verify(call.body.replace(b"succeeded", b"failed"), headers)


def test_the_signature_is_what_the_readme_says_a_receiver_computes(
    callback_receiver: CallbackReceiver,
) -> None:
    """README "Callbacks": `v1,` + base64 HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{raw body}`
    keyed with the base64-decoded part of `whsec_…`; the body is compact JSON with sorted keys;
    `X-InnoTune-Event: audit.finished`. Computed by hand, without the library."""
    payload = {"status": "succeeded", "id": "a2", "findings": []}
    send_callback(payload, callback_receiver.url, SECRET, message_id="msg_a2")
    (call,) = callback_receiver.received
    headers = {name.lower(): value for name, value in call.headers.items()}
    assert call.body == b'{"findings":[],"id":"a2","status":"succeeded"}'
    assert headers["x-innotune-event"] == "audit.finished"
    assert headers["content-type"] == "application/json"
    key = base64.b64decode(SECRET.removeprefix("whsec_"))
    signed = f"{headers['webhook-id']}.{headers['webhook-timestamp']}.".encode() + call.body
    expected = "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    assert headers["webhook-signature"] == expected


def test_an_old_signature_is_refused_by_receivers() -> None:
    """The timestamp is signed: a callback replayed ten minutes later fails verification."""
    body = b'{"id":"a1"}'
    headers = signed_headers(body, SECRET, "msg_a1", now=datetime.now(UTC) - timedelta(minutes=10))
    with pytest.raises(WebhookVerificationError, match="too old"):
        Webhook(SECRET).verify(body, headers)


def test_refusals_and_unreachable_receivers_are_statuses(callback_receiver: CallbackReceiver) -> None:
    """A 500 answer and a closed port come back as short statuses, worth retrying; a 404 is not; a
    closed port and a timeout read the same (`failed`), so the status cannot map a network."""
    callback_receiver.status = 500
    assert send_callback({}, callback_receiver.url, SECRET) == "rejected 500"
    callback_receiver.status = 404
    assert send_callback({}, callback_receiver.url, SECRET) == "rejected 404"
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed_port = sock.getsockname()[1]
    unreachable = send_callback({}, f"http://127.0.0.1:{closed_port}/", SECRET, timeout_seconds=1)
    assert unreachable == "failed"
    assert worth_retrying("rejected 500") and worth_retrying("failed")
    assert not worth_retrying("rejected 404") and not worth_retrying("delivered 200")
    assert not worth_retrying("refused")


def test_redirects_are_not_followed(callback_receiver: CallbackReceiver) -> None:
    """A 302 is the receiver's answer, not an instruction: one request, status `rejected 302`."""
    callback_receiver.status = 302
    assert send_callback({}, callback_receiver.url, SECRET) == "rejected 302"
    assert len(callback_receiver.received) == 1


def test_send_time_check_refuses_loopback_without_the_allow_list(
    callback_receiver: CallbackReceiver, use_env: Callable[..., None]
) -> None:
    """With the allow-list emptied, a URL that reached submit (e.g. a DNS name that now resolves to
    loopback: `localhost` stands in for one) is refused at send time and nothing is posted."""
    port = callback_receiver.url.split(":")[2].split("/")[0]
    use_env(INNOTUNE_CALLBACK_ALLOWED_NETWORKS="")
    assert send_callback({}, callback_receiver.url, SECRET) == "refused"
    assert send_callback({}, f"http://localhost:{port}/hooks", SECRET) == "refused"
    assert send_callback({}, "http://no-such-host.invalid/hooks", SECRET) == "refused"
    assert callback_receiver.received == []


REFUSED_AT_SUBMIT = [
    "http://127.0.0.1/hook",
    "http://localhost:8000/hook",
    "http://LOCALHOST./hook",
    "http://api.localhost/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.5/hook",
    "http://172.16.3.4/hook",
    "http://192.168.1.1/hook",
    "http://100.64.0.1/hook",
    "http://0.0.0.0:8000/hook",
    "http://2130706433/hook",
    "http://0x7f000001/hook",
    "http://0177.0.0.1/hook",
    "http://127.1/hook",
    "http://[::1]/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://[fe80::1]/hook",
    "http://[fd00::1]/hook",
    "http://user:password@hooks.example.com/hook",
    "http://token@hooks.example.com/hook",
    "ftp://hooks.example.com/hook",
    "http://224.0.0.1/hook",
]


@pytest.mark.parametrize("url", REFUSED_AT_SUBMIT)
def test_internal_targets_are_refused_at_submit(url: str, use_env: Callable[..., None]) -> None:
    """Loopback, private, link-local (cloud metadata), shared, multicast, 0.0.0.0, numeric and hex IP
    spellings, localhost and URLs with credentials are refused with a reason."""
    use_env(INNOTUNE_CALLBACK_ALLOWED_NETWORKS="")
    with pytest.raises(InvalidInput, match="callback_url"):
        check_callback_url(url)


def test_public_targets_and_allow_listed_networks_pass(use_env: Callable[..., None]) -> None:
    """A public name or address passes; a private network passes once the operator allows it."""
    use_env(INNOTUNE_CALLBACK_ALLOWED_NETWORKS="")
    assert check_callback_url("https://hooks.example.com/innotune?x=1")
    assert check_callback_url("http://93.184.215.14:8080/hook")
    with pytest.raises(InvalidInput):
        check_callback_url("http://10.1.2.3/hook")
    use_env(INNOTUNE_CALLBACK_ALLOWED_NETWORKS="10.0.0.0/8, fd00::/8")
    assert check_callback_url("http://10.1.2.3/hook")
    assert check_callback_url("http://[fd00::5]/hook")
    with pytest.raises(InvalidInput):
        check_callback_url("http://127.0.0.1/hook")
