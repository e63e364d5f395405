"""Quick play and open seeks: a waiting list in the shared database, a matcher, and the
lobby socket's frames (matcher.py, store.py, service.py, frames.py)."""

from .service import Ask, LobbySocket, Quickplay, Who

__all__ = ["Ask", "LobbySocket", "Quickplay", "Who"]
