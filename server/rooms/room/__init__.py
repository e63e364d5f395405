"""A room: seats, viewers, versions and per-viewer diffs around one game. No rules here.

Every change to what anyone sees is a *version*. For each version the room computes the
public game view once, diffs it once against the previous one (shared by every viewer),
then diffs only the small per-seat part (seat, can_undo, legal) for each seat. Frames are
serialized once per viewer kind and queued on each connection; the ring buffer keeps the
last versions for clients that come back.

`Room` is built from one module per concern, each class on top of the one before:
state.py (the state, the journal and listener hooks), seats.py (who sits where),
versions.py (commit: what viewers see), presence.py (sockets and spectators),
lifecycle.py (start, finish, restore, rematch) and play.py (a seat's action).
"""

from .play import Room
from .state import (
    FINISHED,
    INCOMPATIBLE,
    MOVED,
    PLAYING,
    RECENT_EVENTS,
    WAITING,
    JournalOf,
    ListenerOf,
    NullJournal,
)

# The journal and listeners of a Room (see JournalOf, ListenerOf).
Journal = JournalOf[Room]
Listener = ListenerOf[Room]

__all__ = [
    "FINISHED", "INCOMPATIBLE", "MOVED", "PLAYING", "RECENT_EVENTS", "WAITING", "Journal",
    "Listener", "NullJournal", "Room",
]
