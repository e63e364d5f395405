"""Plain HTTP connections before any route hears of them (issue 41.3, slowloris): a request
head must be whole within HTTP_HEAD_TIMEOUT of its first byte, and one client address may
hold HTTP_PER_ADDRESS connections that are not table sockets (yet).

uvicorn has neither: its one timer is the keep-alive timeout, which every byte received
cancels, so a head dripped one line every 5 s held its connection for good (200 such
connections from one address: 200 file descriptors, all still open 60 s later). The ASGI app
cannot help: it hears of a request only once its head is complete. So the HTTP protocol
(server/ws/protocol.py's UpgradingHttpProtocol) asks this module at the connection's
opening and at each head's first byte.

A connection from a proxy named in FORWARDED_ALLOW_IPS is not counted: all its clients
share its address, and the proxy caps each of them (deploy/haproxy.cfg). Once upgraded to a
table socket, a connection counts under WS_PER_ADDRESS instead.
"""

from __future__ import annotations

import http
import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass

from server.config import Settings
from server.jsontext import dumps
from server.rooms.crowd import AddressCap


class Proxies:
    """The peers named in FORWARDED_ALLOW_IPS (addresses, networks, other literal names,
    `*`), read as uvicorn reads the setting, so that the peers not counted are exactly
    those whose X-Forwarded-For it believes."""

    __slots__ = ("any", "names", "networks")

    def __init__(self, entries: Iterable[str]) -> None:
        self.any = False
        self.names: set[str] = set()
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        for entry in entries:
            if entry == "*":
                self.any = True
                continue
            try:
                self.networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                self.names.add(entry)

    def __contains__(self, host: str) -> bool:
        if self.any or host in self.names:
            return True
        if not self.networks:
            return False
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.networks)


@dataclass(frozen=True, slots=True)
class HttpLimits:
    head_timeout: float  # seconds from a head's first byte to its end
    addresses: AddressCap  # open plain HTTP connections by client address
    proxies: Proxies  # not counted: they cap their own clients

    @classmethod
    def from_settings(cls, settings: Settings) -> HttpLimits:
        return cls(settings.HTTP_HEAD_TIMEOUT, AddressCap(settings.HTTP_PER_ADDRESS),
                   Proxies(settings.FORWARDED_ALLOW_IPS))

    def admit(self, address: str) -> bool | None:
        """True: counted (to `release` at the end); None: a proxy, not counted; False:
        the address holds its HTTP_PER_ADDRESS connections already."""
        if address in self.proxies:
            return None
        return self.addresses.enter(address)

    def release(self, address: str) -> None:
        self.addresses.leave(address)


def refusal(status: int, code: str, message: str) -> bytes:
    """A whole HTTP/1.1 answer in the error shape of every refusal, closing the connection."""
    body = dumps({"error": {"code": code, "message": message}}).encode()
    return (f"HTTP/1.1 {status} {http.HTTPStatus(status).phrase}\r\n"
            "content-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode() + body


SLOW_HEAD = "the request's headers did not arrive in time"
TOO_MANY = "this address has too many connections open; try again in a moment"
