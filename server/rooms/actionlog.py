"""A game's accepted actions, (seat, action) in order, kept as JSON text.

A room keeps every accepted action for its game's life: to rebuild the game when the
journal refuses one, and to save the finished game. As the dicts the wire gave, each cost
~350 bytes with its tuple, ~55 KiB by the end of a four-player game; as text, ~100. They
are read back rarely (a rollback, the game's end, a restart's checks), and a trip through
JSON is what the journal and a restart give them anyway.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

import orjson

from .jsontext import dumps

Action = dict[str, Any]


class ActionLog(Sequence[tuple[int, Action]]):
    __slots__ = ("_seats", "_texts")

    def __init__(self, actions: Iterable[tuple[int, Action]] = ()) -> None:
        self._seats = bytearray()  # a seat per action (seats are 0..3)
        self._texts: list[str] = []
        for seat, action in actions:
            self.append(seat, action)

    def append(self, seat: int, action: Action) -> None:
        self._texts.append(dumps(action))
        self._seats.append(seat)

    def __len__(self) -> int:
        return len(self._texts)

    @overload
    def __getitem__(self, index: int) -> tuple[int, Action]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[int, Action]]: ...

    def __getitem__(self, index: int | slice) -> tuple[int, Action] | list[tuple[int, Action]]:
        if isinstance(index, slice):
            return [(seat, orjson.loads(text))
                    for seat, text in zip(self._seats[index], self._texts[index], strict=True)]
        return self._seats[index], orjson.loads(self._texts[index])

    def __iter__(self) -> Iterator[tuple[int, Action]]:
        for seat, text in zip(self._seats, self._texts, strict=True):
            yield seat, orjson.loads(text)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ActionLog):
            return self._seats == other._seats and self._texts == other._texts
        if isinstance(other, Sequence) and not isinstance(other, str | bytes):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"ActionLog({list(self)!r})"
