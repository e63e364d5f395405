"""End the turn (R-END): too many orders, the flow of time, a new order for two players,
the closing checks, and the end of the game after the last player's turn."""

from __future__ import annotations

from typing import Literal, TypedDict

from ..actiontype import Events, Key, declare, keep
from ..data import card_public as card_info
from ..moves import begin_turn
from ..options import rules_of
from ..scoring import final_result
from ..state import OVER, PROCESS, Game


class EndTurn(TypedDict):
    type: Literal["end_turn"]


_END_TURN = keep(("end_turn",), EndTurn(type="end_turn"))


def legal(game: Game, out: list[EndTurn]) -> None:
    out.append(_END_TURN)


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


def apply(game: Game, key: Key, legal: EndTurn) -> Events:
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
    limit = rules_of(game.options).penalty_limit  # 5, or a house rule's (R-END-V1)
    if any(len(p.penalties) >= limit for p in game.players):
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


ACTION = declare(EndTurn, phases=(PROCESS,), order=1, rule="R-END", control="finish",
                 legal=legal, apply=apply)
