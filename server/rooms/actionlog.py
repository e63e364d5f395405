"""A game's accepted actions, (seat, action) in order, kept as JSON text.

A room keeps every accepted action for its game's life: to rebuild the game when the
journal refuses one, and to save the finished game. As the dicts the wire gave, each cost
~350 bytes with its tuple, ~55 KiB by the end of a four-player game; as one string each,
~100; in one buffer of UTF-8 JSON with an offset and a seat byte each, ~50. They are read
back rarely (a rollback, the game's end, a restart's checks), and a trip through JSON is
what the journal and a restart give them anyway.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import overload

import orjson

from server.jsontext import dumpb
from server.rules import Action


class ActionLog(Sequence[tuple[int, Action]]):
    __slots__ = ("_seats", "_ends", "_text")

    def __init__(self, actions: Iterable[tuple[int, Action]] = ()) -> None:
        self._seats = bytearray()  # a seat per action (seats are 0..3)
        self._ends = array("I")  # where each action's text ends in _text
        self._text = bytearray()
        for seat, action in actions:
            self.append(seat, action)

    def append(self, seat: int, action: Action) -> None:
        self._text += dumpb(action)
        self._ends.append(len(self._text))
        self._seats.append(seat)

    def __len__(self) -> int:
        return len(self._seats)

    def _action(self, i: int) -> Action:
        action: Action = orjson.loads(self._text[self._ends[i - 1] if i else 0:self._ends[i]])
        return action

    @overload
    def __getitem__(self, index: int) -> tuple[int, Action]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[int, Action]]: ...

    def __getitem__(self, index: int | slice) -> tuple[int, Action] | list[tuple[int, Action]]:
        if isinstance(index, slice):
            return [(self._seats[i], self._action(i)) for i in range(len(self))[index]]
        i = range(len(self))[index]  # IndexError past either end, as a list
        return self._seats[i], self._action(i)

    def __iter__(self) -> Iterator[tuple[int, Action]]:
        for i, seat in enumerate(self._seats):
            yield seat, self._action(i)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ActionLog):
            return self._seats == other._seats and self._text == other._text \
                and self._ends == other._ends
        if isinstance(other, Sequence) and not isinstance(other, str | bytes):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"ActionLog({list(self)!r})"
