"""The journal hook: where accepted actions and seating changes go before anyone hears.

A journal (e.g. the database writer in server.persist) is any object with these
coroutines. The room awaits them under its lock, so the journal sees changes in the order
they happened. `record` is awaited after the engine accepts an action and before the ack
and patches are sent; if it raises, the action is rolled back and the client gets error
"unavailable". `seq` is the game's version after the action (1 for the first; an undo
counts as one). `room_created`, `seats_changed` and `started` are awaited the same way
before anyone hears: if they raise, the change is undone and the caller gets
"unavailable" (HTTP 503). An exception from `finished` or `abandoned` is logged: the game
is over, or the room expired, either way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .room import Room


class Journal(Protocol):
    async def room_created(self, room: Room) -> None: ...
    async def seats_changed(self, room: Room) -> None: ...
    async def started(self, room: Room) -> None: ...
    async def record(self, room: Room, seq: int, action: dict[str, Any], seat: int) -> None: ...
    async def finished(self, room: Room) -> None: ...
    async def abandoned(self, room: Room) -> None: ...


class NullJournal:
    """Keeps nothing: rooms live in memory only."""

    async def room_created(self, room: Room) -> None:
        return None

    async def seats_changed(self, room: Room) -> None:
        return None

    async def started(self, room: Room) -> None:
        return None

    async def record(self, room: Room, seq: int, action: dict[str, Any], seat: int) -> None:
        return None

    async def finished(self, room: Room) -> None:
        return None

    async def abandoned(self, room: Room) -> None:
        return None
