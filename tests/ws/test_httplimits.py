"""Who counts under HTTP_PER_ADDRESS (issue 41.3): every peer but the proxies named in
FORWARDED_ALLOW_IPS, read as uvicorn reads that setting (addresses, networks, `*`)."""

from __future__ import annotations

from server.rooms.crowd import AddressCap
from server.ws.httplimits import HttpLimits, Proxies


def limits(cap: int, *proxies: str) -> HttpLimits:
    return HttpLimits(10.0, AddressCap(cap), Proxies(proxies))


def test_an_address_holds_its_cap_and_gets_a_place_back_when_one_closes() -> None:
    http = limits(2)
    assert [http.admit("203.0.113.7") for _ in range(3)] == [True, True, False]
    assert http.admit("203.0.113.8") is True  # another address has its own share
    http.release("203.0.113.7")
    assert http.admit("203.0.113.7") is True


def test_a_proxy_named_by_address_or_network_is_never_counted() -> None:
    http = limits(1, "127.0.0.1", "10.0.0.0/8", "::1")
    assert [http.admit("127.0.0.1") for _ in range(5)] == [None] * 5
    assert http.admit("10.20.30.40") is None
    assert http.admit("::1") is None
    assert [http.admit("11.0.0.1") for _ in range(2)] == [True, False]


def test_a_star_trusts_every_peer_and_an_empty_setting_none() -> None:
    assert "198.51.100.1" in Proxies(["*"])
    assert "198.51.100.1" not in Proxies([])
    assert "not-an-address" not in Proxies(["10.0.0.0/8"])
    assert "unix:/run/proxy.sock" in Proxies(["unix:/run/proxy.sock"])
