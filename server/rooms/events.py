"""Every event a table tells its clients: the one registry (its shape, its log sentence,
the fields that fill it), as server.rules.registry is for actions.

Each event's shape is a TypedDict: the engine's in server/rules/events.py (and `undone` in
server/rules/engine.py: it names the action taken back), the room's below;
an entry's type and fields are read from its shape, so mypy checks every event emitted
against what the registry (and the browser, through the generated JSDoc) expects.

Events are data; the browser makes the sentences (static/js/table/log.js), from this registry as
/api/rules-data serves it: the i18n key `sentence` with each parameter taken from an event
field and shown as its kind says. A new event whose parameters are of known kinds needs an
entry here and its sentence in each language, no script. Engine events come from
server.rules (the action modules in actions/, engine.py), the others from the room
(seating, timeouts, presence).
tests/rooms/test_events.py checks that every event emitted is registered.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

from server.rules import GameEvent, Undone
from server.rules.events import (
    Closed,
    Emptied,
    GameOverEvent,
    MeepleChosen,
    Moved,
    OrdersDealt,
    Placed,
    Poured,
    PouringDone,
    Returned,
    Served,
    StartingToken,
    Stopped,
    TimeFlowed,
    TurnEnded,
    TurnStarted,
    Upgraded,
    UpgradeSkipped,
)

# How the browser shows a field's value in a sentence (static/js/table/log.js, FORMATS).
KINDS = frozenset({
    "seat",  # a seat number: the name of whoever sits there
    "seat_label",  # a seat number as "Seat n"
    "seats",  # a list of seat numbers: their names, joined
    "number",  # a count or a number as it is
    "ordinal",  # a 0-based index shown counted from 1 (a cup, a meeple, a seat number)
    "length",  # a list: how many
    "cell",  # a board cell: its ingredient and name
    "ingredient",  # an ingredient name, translated
    "tokens",  # {ingredient: count}, as a list of tokens
    "card",  # an order card: its name
    "tile",  # an upgrade tile, translated
    "level",  # a bot level, translated
    "clock",  # a turn clock option, described
    "round",  # a turn number: the round it falls in (turns / seats, rounded up)
    "text",  # shown as it is
})


@dataclass(frozen=True, slots=True)
class Variant:
    """Another sentence when `field` is truthy (`equals` None) or equals `equals`."""

    field: str
    sentence: str
    equals: str | None = None


@dataclass(frozen=True, slots=True)
class EventType:
    type: str
    fields: tuple[str, ...]  # what the event carries besides its type
    sentence: str | None  # its log line's key; None: shown elsewhere, not as a line
    args: dict[str, tuple[str, str]] = field(default_factory=dict)  # param: (field, kind)
    variants: tuple[Variant, ...] = ()  # the first that applies replaces `sentence`
    by: str | None = None  # a field whose value completes the key: f"{sentence}.{value}"
    values: tuple[str, ...] = ()  # with `by`: every value that field takes
    announce: bool = False  # also spoken by screen readers (the rest: the visible log)
    note: str = ""  # what docs/PROTOCOL.md says of it
    shape: Any = None  # its TypedDict (see `event`)

    def public(self) -> dict[str, object]:
        return {
            "type": self.type, "sentence": self.sentence,
            "args": {name: list(spec) for name, spec in self.args.items()},
            "variants": [{"field": v.field, "sentence": v.sentence, "equals": v.equals}
                         for v in self.variants],
            "by": self.by, "announce": self.announce,
        }

    def sentence_keys(self) -> list[str]:
        """Every i18n key its lines can use."""
        if self.sentence is None:
            return []
        if self.by is not None:
            return [f"{self.sentence}.{value}" for value in self.values]
        return [self.sentence, *(v.sentence for v in self.variants)]


# --- the room's events ------------------------------------------------------------------


class SeatJoined(TypedDict):
    type: Literal["seat_joined"]
    seat: int
    name: str


class SeatLeft(TypedDict):
    type: Literal["seat_left"]
    seat: int


class SeatKicked(TypedDict):
    type: Literal["seat_kicked"]
    seat: int


class BotAdded(TypedDict):
    type: Literal["bot_added"]
    seat: int
    level: str


class HostChanged(TypedDict):
    type: Literal["host_changed"]
    seat: int


class Presence(TypedDict):
    type: Literal["presence"]
    seat: int
    connected: bool


class StandIn(TypedDict):
    type: Literal["stand_in"]
    seat: int
    level: str


class Spectators(TypedDict):
    type: Literal["spectators"]
    count: int


class GameStarted(TypedDict):
    type: Literal["game_started"]


class Rematch(TypedDict):
    type: Literal["rematch"]
    code: str


class ClockSet(TypedDict):
    type: Literal["clock_set"]
    clock: dict[str, int] | None


class Timeout(TypedDict):
    type: Literal["timeout"]
    seat: int
    level: str
    away: bool


class Back(TypedDict):
    type: Literal["back"]
    seat: int


class Late(TypedDict):
    type: Literal["late"]
    seat: int


class Abandoned(TypedDict):
    type: Literal["abandoned"]
    seat: int


class Away(TypedDict):
    type: Literal["away"]
    seat: int
    hours: int


RoomEvent = (SeatJoined | SeatLeft | SeatKicked | BotAdded | HostChanged | Presence | StandIn
             | Spectators | GameStarted | Rematch | ClockSet | Timeout | Back | Late | Abandoned
             | Away)
Event = GameEvent | RoomEvent  # what Room.commit publishes


def event(shape: Any, sentence: str | None, args: dict[str, tuple[str, str]] | None = None,
          **more: Any) -> EventType:
    """A registry entry whose type and fields are its shape's (a TypedDict above, in
    server/rules/events.py or the engine's `Undone`)."""
    keys = list(shape.__annotations__)
    assert keys[0] == "type", f"{shape.__name__}: `type` first"
    (name,) = typing.get_args(typing.get_type_hints(shape)["type"])
    return EventType(name, tuple(keys[1:]), sentence, args or {}, shape=shape, **more)


NAME = {"name": ("seat", "seat")}
ROOM_EVENTS_FROM = "seat_joined"  # the registry lists the engine's events, then the room's

EVENTS: dict[str, EventType] = {e.type: e for e in (
    # The game (server.rules).
    event(Placed, "ev.placed", {**NAME, "cell": ("cell", "cell")}),
    event(StartingToken, "ev.starting_token", {
        **NAME, "count": ("count", "number"), "ing": ("ingredient", "ingredient"),
        "cup": ("cup", "ordinal")}),
    event(TurnStarted, "ev.turn_started", {
        **NAME, "turn": ("turn", "number"), "round": ("turn", "round")}, announce=True),
    event(Upgraded, "ev.upgraded",
              {**NAME, "tile": ("tile", "tile")}, announce=True),
    event(UpgradeSkipped, "ev.upgrade_skipped", NAME),
    event(MeepleChosen, "ev.meeple_chosen",
              {**NAME, "n": ("meeple", "ordinal")}),
    event(Moved, "ev.moved",
              {**NAME, "cell": ("to", "cell"), "gain": ("gained", "tokens")},
              variants=(Variant("rush_spent", "ev.movedRush"),)),
    event(Stopped, "ev.stopped",
              {**NAME, "cell": ("cell", "cell"), "steps": ("steps", "number")}, announce=True),
    event(Poured, "ev.poured",
              {**NAME, "ing": ("ingredient", "ingredient"), "cup": ("cup", "ordinal")}),
    event(Returned, "ev.returned",
              {**NAME, "ing": ("ingredient", "ingredient")}),
    event(Emptied, "ev.emptied",
              {**NAME, "cup": ("cup", "ordinal")}),
    event(PouringDone, "ev.pouring_done", NAME),
    event(Served, "ev.served",
              {**NAME, "card": ("card", "card"), "cup": ("cup", "ordinal")},
              variants=(Variant("rush_gained", "ev.servedRush"),), announce=True),
    event(OrdersDealt, "ev.orders_dealt",
              {**NAME, "count": ("cards", "length"), "from": ("from", "seat")},
              variants=(Variant("reason", "ev.orders_dealt_busy", "too_many_orders"),)),
    event(TimeFlowed, "ev.time_flowed",
              {**NAME, "count": ("penalties", "length"), "rush": ("rush_gained", "number")},
              variants=(Variant("penalties", "ev.time_flowed_pen"),), announce=True),
    event(Closed, "ev.closed", by="reason",
              values=("deck", "penalties", "stall"), announce=True),
    event(TurnEnded, "ev.turn_ended", NAME),
    event(GameOverEvent, "ev.game_over",
              {"winners": ("result.winners", "seats")}, announce=True),
    event(Undone, "ev.undone", NAME),
    # The room (server.rooms).
    event(SeatJoined, "ev.joined", {"name": ("name", "text")}),
    event(SeatLeft, "ev.left", {"name": ("seat", "seat_label")}),
    event(SeatKicked, "ev.kicked", {"n": ("seat", "ordinal")}),
    event(BotAdded, "ev.bot_added",
              {**NAME, "n": ("seat", "ordinal")}),
    event(HostChanged, "ev.host_changed", NAME),
    event(Presence, "ev.disconnected", NAME,
              variants=(Variant("connected", "ev.connected"),)),
    event(StandIn, "ev.stand_in",
              {**NAME, "level": ("level", "level")},
              note="a bot starts playing for an away player"),
    event(Spectators, None),  # the spectator count, shown by the table
    event(GameStarted, "ev.started"),
    event(Rematch, None),  # the next game's link, shown at the end
    event(ClockSet, "ev.clock_set", {"clock": ("clock", "clock")},
              note="the host changed the clock while waiting"),
    event(Timeout, "ev.timeout", NAME,
              variants=(Variant("away", "ev.timeoutAway"),), announce=True,
              note="a turn ran out: a `level` bot finishes it; `away`: the seat now counts "
                   "as away"),
    event(Back, "ev.back", NAME),
    event(Late, "ev.late", NAME, announce=True,
              note="turn-based: the player to act ran out of time and bank; the others "
                   "choose a stand-in or the end"),
    event(Abandoned, "ev.abandoned", NAME, announce=True,
              note="turn-based: `seat` ended the game of a late player; it is recorded as "
                   "abandoned and the table closes (bye `abandoned`)"),
    event(Away, "ev.away", {**NAME, "hours": ("hours", "number")},
              note="turn-based: the player is away for `hours`; their clock is paused"),
)}


BEGIN = "<!-- BEGIN GENERATED EVENTS (python -m server.ws.schema_doc) -->"
END = "<!-- END GENERATED EVENTS -->"


def render_list() -> str:
    """docs/PROTOCOL.md's list of events, from the registry."""
    def item(e: EventType) -> str:
        shape = f"`{e.type}{{{','.join(e.fields)}}}`" if e.fields else f"`{e.type}`"
        return f"{shape} ({e.note})" if e.note else shape

    events = list(EVENTS.values())
    first_room = [e.type for e in events].index(ROOM_EVENTS_FROM)
    game = ", ".join(item(e) for e in events[:first_room])
    room = ", ".join(item(e) for e in events[first_room:])
    return "\n".join([BEGIN, "", f"Game events (from the engine, for the action just applied): "
                      f"{game}.", "", f"Room events: {room}.", "", END])
