"""The wire: websocket frames validated at the boundary, ack or coded error, resume."""

from .route import App

__all__ = ["App"]
