"""Where a callback may go: public addresses only, unless the operator allows a network.

A callback URL is checked twice. At submit: http(s), no credentials, no `localhost`, no IP address
written as one number or in hex/octal parts (`2130706433`, `0x7f.1`), and a literal IP must be
allowed. At send: the host name is resolved, and every address it resolves to must be allowed;
the POST then goes to the address we checked (no second lookup a rebinding DNS server could change),
and redirects are never followed.

Allowed: global unicast addresses (not loopback, private, link-local — cloud metadata lives at
169.254.169.254 —, shared, reserved, multicast or `0.0.0.0`), plus the networks of
INNOTUNE_CALLBACK_ALLOWED_NETWORKS (`10.0.0.0/8,fd00::/8`) for receivers inside the operator's network.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from functools import lru_cache
from urllib.parse import urlsplit

from conf.settings import get_settings
from services.errors import InvalidInput

MAX_CALLBACK_URL_CHARS = 2000
IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IpNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
# What a browser or libc would read as an IPv4 address: 1 to 4 parts, decimal, octal or hex.
_NUMERIC_HOST_RE = re.compile(r"(?:0x[0-9a-f]*|[0-9]+)(?:\.(?:0x[0-9a-f]*|[0-9]+)){0,3}\.?", re.I)
_LOCAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback")


class CallbackAddressRefused(Exception):
    """The callback's host resolves to an address callbacks may not reach."""


@lru_cache(maxsize=8)
def _allowed_networks(setting: str) -> tuple[IpNetwork, ...]:
    networks = []
    for part in setting.replace(";", ",").split(","):
        if part.strip():
            networks.append(ipaddress.ip_network(part.strip(), strict=False))
    return tuple(networks)


def allowed_networks() -> tuple[IpNetwork, ...]:
    """The operator's allow-list (INNOTUNE_CALLBACK_ALLOWED_NETWORKS)."""
    return _allowed_networks(get_settings().callback_allowed_networks)


def address_allowed(address: IpAddress) -> bool:
    """A global unicast address, or one in the operator's allow-list."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if any(address in network for network in allowed_networks() if network.version == address.version):
        return True
    return address.is_global and not address.is_multicast


def _literal_address(host: str) -> IpAddress | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def check_callback_url(url: str) -> str:
    """The URL when a callback may be sent there; InvalidInput saying why not (at submit)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or len(url) > MAX_CALLBACK_URL_CHARS:
        raise InvalidInput(
            f"callback_url must be an http(s) URL of at most {MAX_CALLBACK_URL_CHARS} characters"
        )
    if parts.username is not None or parts.password is not None:
        raise InvalidInput("callback_url must not carry a user name or password")
    try:
        parts.port  # noqa: B018  (a port out of range raises)
    except ValueError:
        raise InvalidInput("callback_url has an invalid port") from None
    host = parts.hostname.rstrip(".")
    if host in _LOCAL_NAMES or host.endswith(".localhost"):
        raise InvalidInput("callback_url must not point at this machine (localhost)")
    literal = _literal_address(host)
    if literal is None and _NUMERIC_HOST_RE.fullmatch(host):
        raise InvalidInput("callback_url: write an IP address as four decimal numbers (a.b.c.d)")
    if literal is not None and not address_allowed(literal):
        raise InvalidInput(
            "callback_url points at a loopback, private, link-local or reserved address; "
            "the operator can allow private networks (INNOTUNE_CALLBACK_ALLOWED_NETWORKS)"
        )
    return url


def resolve_allowed(host: str, port: int) -> str:
    """The address to connect to for `host` (at send): every address it resolves to must be allowed.

    CallbackAddressRefused when one is not, or when the name does not resolve.
    """
    literal = _literal_address(host)
    if literal is not None:
        found = [literal]
    else:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError):
            raise CallbackAddressRefused("the host name does not resolve") from None
        found = [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in infos]
    if not found or not all(address_allowed(address) for address in found):
        raise CallbackAddressRefused("the host resolves to an address callbacks may not reach")
    return str(found[0])
