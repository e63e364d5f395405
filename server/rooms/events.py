"""Every event a table tells its clients: the one registry (type, its log sentence, the
fields that fill it), as server.rules.registry is for actions.

Events are data; the browser makes the sentences (static/js/log.js), from this registry as
/api/rules-data serves it: the i18n key `sentence` with each parameter taken from an event
field and shown as its kind says. A new event whose parameters are of known kinds needs an
entry here and its sentence in each language, no script. Engine events come from
server.rules (moves.py, engine.py), the others from the room (seating, timeouts, presence).
tests/rooms/test_events.py checks that every event emitted is registered.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# How the browser shows a field's value in a sentence (static/js/log.js, FORMATS).
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


NAME = {"name": ("seat", "seat")}
ROOM_EVENTS_FROM = "seat_joined"  # the registry lists the engine's events, then the room's

EVENTS: dict[str, EventType] = {e.type: e for e in (
    # The game (server.rules).
    EventType("placed", ("seat", "cell"), "ev.placed", {**NAME, "cell": ("cell", "cell")}),
    EventType("starting_token", ("seat", "ingredient", "cup", "count"), "ev.starting_token", {
        **NAME, "count": ("count", "number"), "ing": ("ingredient", "ingredient"),
        "cup": ("cup", "ordinal")}),
    EventType("turn_started", ("seat", "turn", "phase"), "ev.turn_started", {
        **NAME, "turn": ("turn", "number"), "round": ("turn", "round")}, announce=True),
    EventType("upgraded", ("seat", "tile", "discarded"), "ev.upgraded",
              {**NAME, "tile": ("tile", "tile")}, announce=True),
    EventType("upgrade_skipped", ("seat",), "ev.upgrade_skipped", NAME),
    EventType("meeple_chosen", ("seat", "meeple"), "ev.meeple_chosen",
              {**NAME, "n": ("meeple", "ordinal")}),
    EventType("moved", ("seat", "meeple", "from", "to", "gained", "rush_spent"), "ev.moved",
              {**NAME, "cell": ("to", "cell"), "gain": ("gained", "tokens")},
              variants=(Variant("rush_spent", "ev.movedRush"),)),
    EventType("stopped", ("seat", "cell", "steps"), "ev.stopped",
              {**NAME, "cell": ("cell", "cell"), "steps": ("steps", "number")}, announce=True),
    EventType("poured", ("seat", "ingredient", "cup"), "ev.poured",
              {**NAME, "ing": ("ingredient", "ingredient"), "cup": ("cup", "ordinal")}),
    EventType("returned", ("seat", "ingredient"), "ev.returned",
              {**NAME, "ing": ("ingredient", "ingredient")}),
    EventType("emptied", ("seat", "cup", "returned"), "ev.emptied",
              {**NAME, "cup": ("cup", "ordinal")}),
    EventType("pouring_done", ("seat",), "ev.pouring_done", NAME),
    EventType("served", ("seat", "cup", "card", "rush_gained"), "ev.served",
              {**NAME, "card": ("card", "card"), "cup": ("cup", "ordinal")},
              variants=(Variant("rush_gained", "ev.servedRush"),), announce=True),
    EventType("orders_dealt", ("seat", "from", "cards", "reason"), "ev.orders_dealt",
              {**NAME, "count": ("cards", "length"), "from": ("from", "seat")},
              variants=(Variant("reason", "ev.orders_dealt_busy", "too_many_orders"),)),
    EventType("time_flowed", ("seat", "penalties", "rush_gained"), "ev.time_flowed",
              {**NAME, "count": ("penalties", "length"), "rush": ("rush_gained", "number")},
              variants=(Variant("penalties", "ev.time_flowed_pen"),), announce=True),
    EventType("closed", ("reason",), "ev.closed", by="reason",
              values=("deck", "penalties", "stall"), announce=True),
    EventType("turn_ended", ("seat",), "ev.turn_ended", NAME),
    EventType("game_over", ("result",), "ev.game_over",
              {"winners": ("result.winners", "seats")}, announce=True),
    EventType("undone", ("seat", "action"), "ev.undone", NAME),
    # The room (server.rooms).
    EventType("seat_joined", ("seat", "name"), "ev.joined", {"name": ("name", "text")}),
    EventType("seat_left", ("seat",), "ev.left", {"name": ("seat", "seat_label")}),
    EventType("seat_kicked", ("seat",), "ev.kicked", {"n": ("seat", "ordinal")}),
    EventType("bot_added", ("seat", "level"), "ev.bot_added",
              {**NAME, "n": ("seat", "ordinal")}),
    EventType("host_changed", ("seat",), "ev.host_changed", NAME),
    EventType("presence", ("seat", "connected"), "ev.disconnected", NAME,
              variants=(Variant("connected", "ev.connected"),)),
    EventType("stand_in", ("seat", "level"), "ev.stand_in",
              {**NAME, "level": ("level", "level")},
              note="a bot starts playing for an away player"),
    EventType("spectators", ("count",), None),  # the spectator count, shown by the table
    EventType("game_started", (), "ev.started"),
    EventType("rematch", ("code",), None),  # the next game's link, shown at the end
    EventType("clock_set", ("clock",), "ev.clock_set", {"clock": ("clock", "clock")},
              note="the host changed the clock while waiting"),
    EventType("timeout", ("seat", "level", "away"), "ev.timeout", NAME,
              variants=(Variant("away", "ev.timeoutAway"),), announce=True,
              note="a turn ran out: a `level` bot finishes it; `away`: the seat now counts "
                   "as away"),
    EventType("back", ("seat",), "ev.back", NAME),
    EventType("late", ("seat",), "ev.late", NAME, announce=True,
              note="turn-based: the player to act ran out of time and bank; the others "
                   "choose a stand-in or the end"),
    EventType("abandoned", ("seat",), "ev.abandoned", NAME, announce=True,
              note="turn-based: `seat` ended the game of a late player; it is recorded as "
                   "abandoned and the table closes (bye `abandoned`)"),
    EventType("away", ("seat", "hours"), "ev.away", {**NAME, "hours": ("hours", "number")},
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
