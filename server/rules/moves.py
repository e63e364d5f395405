"""What each action does to the game, once it is known to be legal (engine.py checks).

One function per action type, each listed with its type in registry.py; `begin_turn`,
`draw` and `close` are the shared steps of the turn structure (R-TURN, R-END).
"""

from __future__ import annotations

from typing import Any

from .data import (
    BASE_STEPS,
    CARD_SPECIALTY,
    CELL_INDEX,
    CELL_ING,
    CELL_NAMES,
    ING_INDEX,
    INGREDIENTS,
    PENALTY_LIMIT,
    UPGRADE_COST,
    UPGRADE_INDEX,
)
from .data import card_public as card_info
from .events import Emptied, GameEvent, StartingToken
from .legal import can_upgrade
from .scoring import final_result
from .state import (
    MOVE,
    OVER,
    POUR,
    PROCESS,
    STARTING_CUP,
    UPGRADE,
    Game,
    TurnStart,
)

Events = list[GameEvent]
Key = tuple[Any, ...]  # an action's identity: (type, *arguments), see actions.action_key
Action = dict[str, Any]


# --- setup (R-SETUP) -------------------------------------------------------------------


def take_into_cup(game: Game, seat: int, meeple: int, cup: int) -> StartingToken:
    """R-SETUP-4: the token under a meeple goes into a cup (if the supply has one)."""
    ing = CELL_ING[game.players[seat].meeples[meeple]]
    got = 1 if game.supply[ing] else 0
    if got:
        game.supply[ing] -= 1
        game.players[seat].cups[cup].append(ing)
    return {"type": "starting_token", "seat": seat, "ingredient": INGREDIENTS[ing],
            "cup": cup, "count": got}


def place(game: Game, key: Key, legal: Action) -> Events:
    seat = game.pending.pop(0)
    game.players[seat].meeples.append(CELL_INDEX[key[1]])
    events: Events = [{"type": "placed", "seat": seat, "cell": key[1]}]
    if game.pending:
        game.current = game.pending[0]
        return events
    # Every meeple is down: each player takes the token(s) under their meeple(s).
    for seat in range(game.n):
        events.append(take_into_cup(game, seat, 0, 0))
    if game.n == 2:
        game.phase = STARTING_CUP
        game.pending = [game.start, 1 - game.start]
        game.current = game.start
        return events
    return events + begin_turn(game, game.start)


def starting_cup(game: Game, key: Key, legal: Action) -> Events:
    seat = game.pending.pop(0)
    events: Events = [take_into_cup(game, seat, 1, key[1])]
    if game.pending:
        game.current = game.pending[0]
        return events
    return events + begin_turn(game, game.start)


# --- a turn (R-TURN) -------------------------------------------------------------------


def begin_turn(game: Game, seat: int) -> Events:
    game.current = seat
    game.turn += 1
    game.hand = [0] * 8
    game.moving = None if game.n == 2 else 0
    game.steps = 0
    game.path = []
    game.served = 0
    game.upgraded = False
    game.turn_log = []
    game.phase = UPGRADE if can_upgrade(game) else MOVE
    if game.moving is not None:
        game.path = [game.players[seat].meeples[0]]
    game.turn_start = TurnStart(
        game.players[seat].clone(), game.supply[:], game.rush_supply, game.discard[:],
        game.phase,
    )
    return [{"type": "turn_started", "seat": seat, "turn": game.turn, "phase": game.phase}]


def upgrade(game: Game, key: Key, legal: Action) -> Events:
    player = game.players[game.current]
    tile = UPGRADE_INDEX[key[1]]
    spent = player.completed[-UPGRADE_COST:]  # which three does not matter (R-UPG)
    del player.completed[-UPGRADE_COST:]
    game.discard.extend(spent)
    player.upgrades[tile] = True
    game.upgraded = True
    game.phase = MOVE
    return [{"type": "upgraded", "seat": game.current, "tile": key[1], "discarded": spent}]


def skip_upgrade(game: Game, key: Key, legal: Action) -> Events:
    game.phase = MOVE
    return [{"type": "upgrade_skipped", "seat": game.current}]


def choose_meeple(game: Game, key: Key, legal: Action) -> Events:
    game.moving = key[1]
    game.path = [game.players[game.current].meeples[key[1]]]
    return [{"type": "meeple_chosen", "seat": game.current, "meeple": key[1]}]


def step(game: Game, key: Key, legal: Action) -> Events:
    player = game.players[game.current]
    cell = CELL_INDEX[key[1]]
    moving = game.moving
    assert moving is not None  # step is legal only once a meeple is chosen
    here = player.meeples[moving]
    paid = game.steps >= BASE_STEPS
    if paid:  # R-MOVE: each step beyond 3 costs a Rush Token, back to the supply
        player.rush -= 1
        game.rush_supply += 1
    ing = CELL_ING[cell]
    count = legal["gain"][INGREDIENTS[ing]]  # computed by legal.py, supply cap included
    game.supply[ing] -= count
    game.hand[ing] += count
    player.meeples[moving] = cell
    game.steps += 1
    game.path.append(cell)
    return [{
        "type": "moved", "seat": game.current, "meeple": moving,
        "from": CELL_NAMES[here], "to": key[1], "gained": {INGREDIENTS[ing]: count},
        "rush_spent": paid,
    }]


def stop(game: Game, key: Key, legal: Action) -> Events:
    game.phase = POUR
    assert game.moving is not None  # stop is legal only after a step
    cell = game.players[game.current].meeples[game.moving]
    return [{"type": "stopped", "seat": game.current, "cell": CELL_NAMES[cell],
             "steps": game.steps}]


def pour(game: Game, key: Key, legal: Action) -> Events:
    ing = ING_INDEX[key[1]]
    game.hand[ing] -= 1
    game.players[game.current].cups[key[2]].append(ing)
    return [{"type": "poured", "seat": game.current, "ingredient": key[1], "cup": key[2]}]


def return_token(game: Game, key: Key, legal: Action) -> Events:
    ing = ING_INDEX[key[1]]
    game.hand[ing] -= 1
    game.supply[ing] += 1
    return [{"type": "returned", "seat": game.current, "ingredient": key[1]}]


def tokens(ings: list[int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for ing in ings:
        name = INGREDIENTS[ing]
        out[name] = out.get(name, 0) + 1
    return out


def empty(game: Game, key: Key, legal: Action) -> Events:
    cup = game.players[game.current].cups[key[1]]
    for ing in cup:
        game.supply[ing] += 1
    event: Emptied = {"type": "emptied", "seat": game.current, "cup": key[1],
                      "returned": tokens(cup)}
    cup.clear()
    return [event]


def done_pouring(game: Game, key: Key, legal: Action) -> Events:
    game.phase = PROCESS
    return [{"type": "pouring_done", "seat": game.current}]


def serve(game: Game, key: Key, legal: Action) -> Events:
    player = game.players[game.current]
    cup, card = key[1], key[2]
    for ing in player.cups[cup]:
        game.supply[ing] += 1
    player.cups[cup].clear()
    for tab in player.tabs:
        if card in tab:
            tab.remove(card)
            break
    player.completed.append(card)
    game.served += 1
    rush = 1 if CARD_SPECIALTY[card] and game.rush_supply else 0  # R-PROC, R-COMP-5
    player.rush += rush
    game.rush_supply -= rush
    return [{"type": "served", "seat": game.current, "cup": cup, "card": card_info(card),
             "rush_gained": rush}]


# --- turn end (R-END) --------------------------------------------------------------------


def draw(game: Game, seat: int, count: int) -> list[int]:
    """Deal up to `count` cards onto a seat's tab 1 (what remains if the deck runs short).

    It does not close the game: a deck that ran out shows as an empty deck at the Closing
    step, which weighs it against the other reasons (R-END-4 precedence)."""
    got = []
    tab1 = game.players[seat].tabs[0]
    deck = game.deck
    for _ in range(count):
        if not deck:
            break
        card = deck.pop()
        tab1.append(card)
        got.append(card)
    return got


def close(game: Game, reason: str) -> None:
    if not game.closed:
        game.closed = True
        game.close_reason = reason


def end_turn(game: Game, key: Key, legal: Action) -> Events:
    seat, n = game.current, game.n
    player = game.players[seat]
    events: Events = []
    was_closed = game.closed
    # 1. Too Many Orders: the next two players (2 players: the other) take N cards each.
    if game.served:
        for k in (1, 2) if n > 2 else (1,):
            taker = (seat + k) % n
            cards = draw(game, taker, game.served)
            events.append({"type": "orders_dealt", "seat": taker, "from": seat,
                           "cards": [card_info(c) for c in cards], "reason": "too_many_orders"})
    # 2. Flow of Time: orders move down a tab; those pushed off tab 4 become penalties.
    tabs = player.tabs
    fallen = tabs[3]
    player.tabs = [[], tabs[0], tabs[1], tabs[2]]
    rush = min(len(fallen), game.rush_supply)
    player.penalties.extend(fallen)
    player.rush += rush
    game.rush_supply -= rush
    events.append({"type": "time_flowed", "seat": seat, "penalties": fallen,
                   "rush_gained": rush})
    # 3. Two players: one new order every turn.
    if n == 2:
        cards = draw(game, seat, 1)
        events.append({"type": "orders_dealt", "seat": seat, "from": seat,
                       "cards": [card_info(c) for c in cards], "reason": "new_order"})
    # 4. Closing (R-END-PEN, R-END-DECK, R-END-STALL). When one turn gives several
    # reasons, the first below is recorded: penalties, then deck, then stall (R-END-4).
    # A short draw always leaves the deck empty, so `not game.deck` covers it.
    if any(len(p.penalties) >= PENALTY_LIMIT for p in game.players):
        close(game, "penalties")
    if not game.deck:
        close(game, "deck")
    if n > 2 and not any(p.order_count() for p in game.players):
        close(game, "stall")
    if game.closed and not was_closed and game.close_reason is not None:
        events.append({"type": "closed", "reason": game.close_reason})
    player.turns += 1
    events.append({"type": "turn_ended", "seat": seat})
    game.turn_log = []
    game.turn_start = None
    # 5. The game ends after the turn of the player to the starting player's right.
    if game.closed and seat == (game.start - 1) % n:
        game.phase = OVER
        game.result = final_result(game)
        events.append({"type": "game_over", "result": game.result})
        return events
    return events + begin_turn(game, (seat + 1) % n)
