"""What an operator's action does to this instance's rooms: close one (recorded as
abandoned, as an expired room is), and drop a disabled account's table sockets."""

from __future__ import annotations

import logging

from server.api.account_seats import unverify_account
from server.rooms import PLAYING, WAITING, Room, RoomManager
from server.rooms.errors import not_found

log = logging.getLogger(__name__)

CLOSED = "closed"  # the bye every socket of a closed room gets (final: the page stops)
DISABLED = "disabled"  # the bye a disabled account's sockets get


async def close_room(manager: RoomManager, code: str) -> Room:
    """End a waiting or playing room held here: every socket gets bye `closed`, the room is
    let go and journaled as abandoned (its game, if any, stays in the journal). not_found if
    no such open room is here."""
    room = manager.find(code)
    if room is None or room.status not in (WAITING, PLAYING):
        raise not_found()
    async with room.lock:
        if room.status not in (WAITING, PLAYING) or not manager.forget(room):
            raise not_found()
        room.close_all(CLOSED)
        await room.tell_journal("abandoned")
    log.info("room %s closed by an operator", room.display_code,
             extra={"room": room.display_code})
    return room


async def drop_account(manager: RoomManager, account_id: int) -> int:
    """A disabled account's seats here: their sockets get bye `disabled`, and the seats lose
    their mark as the account's (account_seats.unverify_account). How many sockets."""
    dropped = 0
    for room in list(manager.rooms.values()):
        seats = [s.index for s in room.seats if s.account_id == account_id]
        if not seats:
            continue
        async with room.lock:
            for index in seats:
                if room.seats[index].conn is not None:
                    room.disconnect_seat(index, DISABLED)
                    dropped += 1
    await unverify_account(manager, account_id)
    return dropped
