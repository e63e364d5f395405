"""Versions: every visible change committed once, diffed once, sent to each viewer."""

from __future__ import annotations

from collections.abc import Sequence

from server.jsontext import dumps
from server.rules import GameView, apply, public_view, seat_extras

from .. import outgoing, stages, timeouts
from ..connection import Connection
from ..diff import Op, diff
from ..events import Event
from ..history import Entry, FrameTexts, Logged
from .seats import Seats


class Versions(Seats):
    """What viewers see at each version (call `commit` with the lock held)."""

    __slots__ = ()

    def view(self, seat: int | None) -> outgoing.SeatView:
        """The VIEW of a seat (None: a spectator) at the current version. Read-only."""
        game: GameView | None = None
        if self._public is not None:
            game = {**self._public, **self._extras[seat]}
        you: outgoing.YouView = {"seat": seat, "role": "spectator" if seat is None else "player"}
        return {"room": self._info, "you": you, "game": game}

    def game_log(self, upto: int | None = None) -> list[Logged]:
        """The whole game's events, oldest first, each with the version that carried it:
        the game's own replayed from its actions (exact: randomness is state), with the
        room's recent other events (seats, presence) among them; only up to version `upto`
        if given. For a viewer who reloads or arrives late: rebuilt on demand (a game's
        replay takes a few milliseconds) rather than kept."""
        entries: list[Logged] = []
        if self.game is not None:
            game = self.new_game()
            for (seat, action), v in zip(self.actions, self.action_versions, strict=True):
                entries += ({"v": v, "event": event} for event in apply(game, action, seat))
        played = set(self.action_versions)
        entries += (e for e in self.recent.listed() if e["v"] not in played)
        entries.sort(key=lambda e: int(e["v"]))  # stable: a version's events keep their order
        return [e for e in entries if upto is None or e["v"] <= upto]

    def snapshot(self, seat: int | None) -> str:
        if seat is None and self._spectator_snapshot and self._spectator_snapshot[0] == self.v:
            return self._spectator_snapshot[1]
        text = dumps(outgoing.snapshot(self.v, self.view(seat)))
        if seat is None:
            self._spectator_snapshot = (self.v, text)
        return text

    def commit(self, events: Sequence[Event], game_changed: bool = False) -> bool:
        """Publish the current state as a new version; False if nobody would see a change."""
        self._mark_absences()
        if timeouts.tick(self):
            self.clock_dirty = True
        inputs = self._info_inputs()
        if inputs is None or inputs != self._info_made_from:
            info, self._info_made_from = self.info(), inputs
        else:
            info = self._info  # the same object: nothing to diff
        shared: list[Op] = diff(self._info, info, "/room")
        by_seat: dict[int | None, list[Op]] = {}
        if game_changed and self.game is not None:
            public = public_view(self.game)
            extras = {s: seat_extras(self.game, s) for s in (None, *range(len(self.seats)))}
            if self._public is None:  # the game starts: each viewer gets its whole view
                for s, own in extras.items():
                    by_seat[s] = [{"op": "replace", "path": "/game", "value": {**public, **own}}]
            else:
                shared += diff(self._public, public, "/game")
                last = self._extras
                for s, own in extras.items():
                    if own is last[s]:  # a seat still waiting: its part is shared as it was
                        continue
                    ops = diff(last[s], own, "/game")
                    if ops:
                        by_seat[s] = ops
            self._public, self._extras = public, extras
        if not shared and not by_seat and not game_changed:
            return False
        self._info = info
        self.v += 1
        self._spectator_snapshot = None
        if game_changed:
            self.game_v = self.v
        self.touched_at = self.clock()
        entry = Entry(self.v, shared, by_seat, events)
        self.history.append(entry)
        self.recent.add(entry, len(events))
        texts = FrameTexts(entry)
        for conn in self.connections():
            conn.send(texts.text(conn.seat))
        stages.queued(self.connections)  # called only when the action is timed
        return True

    def _catch_up(self, conn: Connection, resume: int | None) -> None:
        if resume is not None and resume <= self.v:
            entries = self.history.since(resume, self.v)
            if entries:
                for entry in entries:
                    conn.send(FrameTexts(entry).text(conn.seat))
                return
            if entries == []:  # already current: an empty patch says so
                conn.send_json(outgoing.patch(self.v, [], []))
                return
        conn.send(self.snapshot(conn.seat))
