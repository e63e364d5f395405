"""The wire: websocket frames validated at the boundary, ack or coded error, resume."""

from .route import App, SocketCheck

__all__ = ["App", "SocketCheck"]
