"""How many sockets (or connections) each client address holds open: table sockets
(WS_PER_ADDRESS, server.ws.route), plain HTTP connections (HTTP_PER_ADDRESS,
server.ws.httplimits), lobby and tournament page sockets (WS_PER_ADDRESS each,
server.quickplay, server.tournaments). One client must not take the server's file
descriptors from everyone else."""

from __future__ import annotations


class AddressCap:
    """Open sockets by client address; `enter` refuses one past `cap`."""

    __slots__ = ("cap", "open")

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.open: dict[str, int] = {}

    def enter(self, address: str) -> bool:
        count = self.open.get(address, 0)
        if count >= self.cap:
            return False
        self.open[address] = count + 1
        return True

    def leave(self, address: str) -> None:
        count = self.open.get(address, 0) - 1
        if count > 0:
            self.open[address] = count
        else:
            self.open.pop(address, None)
