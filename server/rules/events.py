"""The events an action type's `apply` returns (actions/): one TypedDict per type.
engine.py adds the one event the engine makes itself (`undone`, which names the action
taken back: it is declared above the action modules) and says what `apply` returns.

server/rooms/events.py registers each (its log sentence and parameters) from these shapes,
with the room's own events, and the browser's JSDoc typedefs are generated from both
(`python -m server.api.jsdoc`). A key that is a Python keyword (`from`) makes the
functional form necessary.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from .shapes import CardView, Result


class Placed(TypedDict):
    """R-SETUP-3: a meeple placed on a cell."""

    type: Literal["placed"]
    seat: int
    cell: str


class StartingToken(TypedDict):
    """R-SETUP-4: the token under a meeple goes into a cup (`count` 0: the supply had none)."""

    type: Literal["starting_token"]
    seat: int
    ingredient: str
    cup: int
    count: int


class TurnStarted(TypedDict):
    type: Literal["turn_started"]
    seat: int
    turn: int
    phase: str


class Upgraded(TypedDict):
    """R-UPG: `discarded` are the completed orders (card numbers) spent on the tile."""

    type: Literal["upgraded"]
    seat: int
    tile: str
    discarded: list[int]


class UpgradeSkipped(TypedDict):
    type: Literal["upgrade_skipped"]
    seat: int


class MeepleChosen(TypedDict):
    type: Literal["meeple_chosen"]
    seat: int
    meeple: int


Moved = TypedDict("Moved", {
    "type": Literal["moved"], "seat": int, "meeple": int, "from": str, "to": str,
    "gained": dict[str, int], "rush_spent": int})
Moved.__doc__ = "R-MOVE: one step, from a cell to the next, and the tokens it gained."


class Stopped(TypedDict):
    type: Literal["stopped"]
    seat: int
    cell: str
    steps: int


class Poured(TypedDict):
    type: Literal["poured"]
    seat: int
    ingredient: str
    cup: int


class Returned(TypedDict):
    type: Literal["returned"]
    seat: int
    ingredient: str


class Emptied(TypedDict):
    type: Literal["emptied"]
    seat: int
    cup: int
    returned: dict[str, int]


class PouringDone(TypedDict):
    type: Literal["pouring_done"]
    seat: int


class Served(TypedDict):
    type: Literal["served"]
    seat: int
    cup: int
    card: CardView
    rush_gained: int


OrdersDealt = TypedDict("OrdersDealt", {
    "type": Literal["orders_dealt"], "seat": int, "from": int, "cards": list[CardView],
    "reason": str})
OrdersDealt.__doc__ = "R-END: new orders on a seat's tab 1 (`from`: whose turn dealt them)."


class TimeFlowed(TypedDict):
    """R-END: orders move down a tab; `penalties` are the cards pushed off tab 4."""

    type: Literal["time_flowed"]
    seat: int
    penalties: list[int]
    rush_gained: int


class Closed(TypedDict):
    """R-END-4: the last round begins (`reason`: deck, penalties or stall)."""

    type: Literal["closed"]
    reason: str


class TurnEnded(TypedDict):
    type: Literal["turn_ended"]
    seat: int


class GameOverEvent(TypedDict):
    type: Literal["game_over"]
    result: Result


ActionEvent = (Placed | StartingToken | TurnStarted | Upgraded | UpgradeSkipped | MeepleChosen
               | Moved | Stopped | Poured | Returned | Emptied | PouringDone | Served
               | OrdersDealt | TimeFlowed | Closed | TurnEnded | GameOverEvent)
