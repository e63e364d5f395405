"""An HTTP answer's head written with its body, in one write (issue 41.16).

uvicorn writes an answer's head (status line and headers) and its body in two writes. An
instance that freezes (SIGSTOPped, a stalled VM) or dies between the two has sent the
proxy a head and no body: the proxy has forwarded that head to the player, so it can no
longer retry the read on another instance, and after its server timeout it cuts the
player's connection mid-answer. Held back until the body's first part, the head goes out
with it: an answer that fits one write (every page and API answer here) reaches the proxy
whole or not at all, and a read that got nothing is retried elsewhere.

What is left: a body sent in several parts (a large static file) can still be cut after
its first part, as can any answer of an instance that freezes in the middle of a write
bigger than the socket's buffer. No proxy can retry an answer it has half forwarded."""

from __future__ import annotations

import asyncio


class HeadWithBody(asyncio.Transport):
    """The connection's transport as one request's answer (uvicorn's RequestResponseCycle)
    sees it: the first write that is not an interim answer (100 Continue) is the head,
    held until the next write, which carries it. A HEAD request's answer has no body
    write: give it the transport itself."""

    __slots__ = ("transport", "head", "passing")

    def __init__(self, transport: asyncio.Transport) -> None:
        super().__init__()
        self.transport = transport
        self.head: bytes | None = None
        self.passing = False  # the head went out: writes go straight through

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self.passing:
            self.transport.write(data)
        elif self.head is not None:
            self.passing = True
            self.transport.write(b"".join((self.head, data)))
            self.head = None
        elif bytes(data[:10]) == b"HTTP/1.1 1":  # 100 Continue: the client waits for it
            self.transport.write(data)
        else:
            self.head = bytes(data)

    def close(self) -> None:
        """A head still held is dropped: the answer broke before its body (the app raised),
        and to the proxy no answer at all is one it may retry, a head alone is not."""
        self.head = None
        self.transport.close()

    def is_closing(self) -> bool:
        return self.transport.is_closing()
