"""The wire: websocket frames validated at the boundary, ack or coded error, resume."""

from .endpoint import router

__all__ = ["router"]
