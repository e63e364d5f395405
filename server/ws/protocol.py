"""uvicorn's websocket protocol, answering a frame over the size cap the documented way.

uvicorn refuses a frame bigger than `ws_max_size` from its header, before reading it (so
it costs no memory), and closes with 1009 before the app hears of it. This subclass puts
the same error and bye frames the session sends for a too-large frame ahead of that close.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import PayloadTooBig
from websockets.frames import Frame, Opcode

from .frames import too_large_texts


class AnsweringWebSocketProtocol(WebSocketsSansIOProtocol):
    def handle_parser_exception(self) -> None:
        if isinstance(self.conn.parser_exc, PayloadTooBig) and not self.transport.is_closing():
            # Unmasked, uncompressed text frames: valid server frames in any session.
            for text in too_large_texts(self.config.ws_max_size):
                frame = Frame(Opcode.TEXT, text.encode())
                self.transport.write(frame.serialize(mask=False, extensions=[]))
        super().handle_parser_exception()
