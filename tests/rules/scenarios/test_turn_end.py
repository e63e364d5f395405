"""R-END steps 1-4: Too Many Orders, Flow of Time, the 2-player draw and Closing."""

from __future__ import annotations

from server.rules import Game, card_public

from .kit import Seat, act, legal, names, of_type, pass_turn, position, tabs, to_process

BOARD4 = """
    . . . .
    . 0 . .
    . . . 1
    2 . . 3
"""
BOARD3 = """
    . . . .
    . 0 . .
    . . . 1
    2 . . .
"""
BOARD2 = """
    . . . .
    . 0 . .
    . . . 1
    1 . . 0
"""
TWO_ESPRESSOS = Seat(
    tabs=[["Espresso", "Ristretto"]], cups=[["coffee", "steam"], ["coffee", "steam"]],
)
NEXT = ["Cocoa", "Milk Tea", "Cold Brew", "Americano", "Green Tea"]


def _serve_all(game: Game) -> list[dict]:
    """Seat to act: one step (r2c2 -> r2c3), serve every servable cup, end the turn."""
    to_process(game, "r2c3")
    while serves := legal(game, "serve"):
        act(game, "serve", cup=serves[0]["cup"], card=serves[0]["card"])
    return act(game, "end_turn")


def test_too_many_orders_four_players() -> None:
    """R-END-1: with N orders completed, the next player to the left takes N cards onto
    tab 1, then the player after takes N; the fourth player takes none."""
    game = position(players=4, board=BOARD4, seats={0: TWO_ESPRESSOS, 3: Seat(tabs=[["Cocoa"]])},
                    deck_top=NEXT)
    events = _serve_all(game)
    dealt = of_type(events, "orders_dealt")
    assert [(e["seat"], e["from"], e["reason"]) for e in dealt] == [
        (1, 0, "too_many_orders"), (2, 0, "too_many_orders"),
    ]
    assert [names(c["id"] for c in e["cards"]) for e in dealt] == [NEXT[:2], NEXT[2:4]]
    assert tabs(game, 1) == [NEXT[:2], [], [], []]
    assert tabs(game, 2) == [NEXT[2:4], [], [], []]
    assert tabs(game, 3) == [["Cocoa"], [], [], []]  # not dealt to, and only the mover's flow
    assert names(game.deck[-1:]) == NEXT[4:]
    # Too Many Orders comes before the Flow of Time (R-END order).
    kinds = [e["type"] for e in events]
    assert kinds.index("orders_dealt") < kinds.index("time_flowed") < kinds.index("turn_ended")


def test_too_many_orders_three_players_reaches_both_others() -> None:
    """R-END-1 (3 players): the two players who take N cards are both other players."""
    game = position(players=3, board=BOARD3, seats={0: TWO_ESPRESSOS}, deck_top=NEXT)
    _serve_all(game)
    assert tabs(game, 1)[0] == NEXT[:2]
    assert tabs(game, 2)[0] == NEXT[2:4]
    assert game.current == 1


def test_too_many_orders_two_players_then_the_new_order() -> None:
    """R-END-1 and R-END-3 (2 players): the other player takes N; after the Flow of Time
    the active player adds 1 card from the deck to their own tab 1."""
    game = position(players=2, board=BOARD2,
                    seats={0: Seat(tabs=[["Espresso", "Ristretto", "Caffe Latte"]],
                                   cups=[["coffee", "steam"], ["coffee", "steam"]])},
                    deck_top=NEXT)
    act(game, "choose_meeple", meeple=0)
    events = _serve_all(game)
    dealt = of_type(events, "orders_dealt")
    assert [(e["seat"], e["reason"]) for e in dealt] == [(1, "too_many_orders"), (0, "new_order")]
    assert tabs(game, 1) == [NEXT[:2], [], [], []]
    assert tabs(game, 0) == [NEXT[2:3], ["Caffe Latte"], [], []]
    kinds = [e["type"] for e in events]
    assert kinds.index("time_flowed") < kinds.index("orders_dealt", kinds.index("time_flowed"))


def test_two_players_draw_every_turn_even_without_serving() -> None:
    """R-END-3: 2 players only, one new order on tab 1 every turn."""
    game = position(players=2, board=BOARD2, seats={0: Seat(tabs=[["Cocoa"]])}, deck_top=NEXT)
    act(game, "choose_meeple", meeple=0)
    top = game.deck[-1]
    events = _serve_all(game)
    (dealt,) = of_type(events, "orders_dealt")
    assert dealt["cards"] == [card_public(top)]
    assert tabs(game, 0) == [NEXT[:1], ["Cocoa"], [], []]


def test_flow_of_time_moves_orders_down_and_makes_penalties() -> None:
    """R-END-2: the active player's orders move down one tab; orders pushed off tab 4 become
    Penalty Cards, 1 Rush Token each."""
    game = position(players=4, board=BOARD4, seats={
        0: Seat(tabs=[["Cocoa"], ["Milk Tea"], ["Cold Brew"], ["Americano", "Green Tea"]]),
        1: Seat(tabs=[[], [], [], ["Espresso"]]),
    })
    events = _serve_all(game)
    (flowed,) = of_type(events, "time_flowed")
    assert names(flowed["penalties"]) == ["Americano", "Green Tea"]
    assert flowed["rush_gained"] == 2
    assert tabs(game, 0) == [[], ["Cocoa"], ["Milk Tea"], ["Cold Brew"]]
    assert names(game.players[0].penalties) == ["Americano", "Green Tea"]
    assert game.players[0].rush == 2 and game.rush_supply == 13
    assert tabs(game, 1) == [[], [], [], ["Espresso"]]  # only the active player's time flows
    assert not game.closed


def test_a_penalty_with_an_empty_rush_supply_gains_nothing() -> None:
    """R-END-2 / R-COMP-5 (Ruling): the Rush Token for a penalty comes from a finite supply."""
    game = position(players=4, board=BOARD4, seats={
        0: Seat(tabs=[["Cocoa"], [], [], ["Americano"]]), 2: Seat(rush=15),
    })
    (flowed,) = of_type(_serve_all(game), "time_flowed")
    assert flowed["rush_gained"] == 0
    assert names(game.players[0].penalties) == ["Americano"]
    assert game.players[0].rush == 0


def test_five_penalties_close_the_game() -> None:
    """R-END-PEN: the token flips to CLOSED when any player has 5 or more Penalty Cards."""
    four = ["Cocoa", "Milk Tea", "Cold Brew", "Americano"]
    game = position(players=4, board=BOARD4, seats={
        0: Seat(tabs=[["Espresso"], [], [], ["Green Tea"]], penalties=four),
    })
    events = _serve_all(game)
    assert of_type(events, "closed") == [{"type": "closed", "reason": "penalties"}]
    assert game.closed and game.close_reason == "penalties"
    assert game.phase != "over" and game.current == 1  # the round is played out (R-END-5)


def test_four_penalties_do_not_close() -> None:
    """R-END-PEN: fewer than 5 Penalty Cards leave the token OPEN."""
    game = position(players=4, board=BOARD4, seats={
        0: Seat(tabs=[["Espresso"], [], [], ["Green Tea"]],
                penalties=["Cocoa", "Milk Tea", "Americano"]),
    })
    assert not of_type(_serve_all(game), "closed")
    assert len(game.players[0].penalties) == 4
    assert not game.closed


def test_the_deck_running_short_mid_deal() -> None:
    """R-END-1 / R-END-DECK: deal what remains in order; a short deal closes the game."""
    game = position(players=4, board=BOARD4, seats={0: TWO_ESPRESSOS}, deck_top=NEXT[:3],
                    deck_size=3)
    events = _serve_all(game)
    dealt = of_type(events, "orders_dealt")
    assert [(e["seat"], len(e["cards"])) for e in dealt] == [(1, 2), (2, 1)]
    assert tabs(game, 1)[0] == NEXT[:2] and tabs(game, 2)[0] == NEXT[2:3]
    assert game.deck == []
    assert of_type(events, "closed") == [{"type": "closed", "reason": "deck"}]


def test_an_empty_deck_closes_as_soon_as_it_empties() -> None:
    """R-END-DECK (Ruling): the game closes as soon as the deck is empty after a draw."""
    game = position(players=3, board=BOARD3, seats={0: TWO_ESPRESSOS}, deck_top=NEXT[:4],
                    deck_size=4)
    events = _serve_all(game)
    assert game.deck == [] and game.close_reason == "deck"
    assert of_type(events, "closed")


def test_two_player_draw_emptying_the_deck_closes() -> None:
    """R-END-3 / R-END-DECK: the 2-player draw that takes the last card closes the game."""
    game = position(players=2, board=BOARD2, seats={0: Seat(tabs=[["Cocoa"]])},
                    deck_top=NEXT[:1], deck_size=1)
    act(game, "choose_meeple", meeple=0)
    events = _serve_all(game)
    assert tabs(game, 0)[0] == NEXT[:1]
    assert of_type(events, "closed") == [{"type": "closed", "reason": "deck"}]


def test_no_orders_anywhere_closes_three_and_four_player_games() -> None:
    """R-END-STALL (Ruling): with 3-4 players, if at the end of a turn no player has an
    order on their tabs, none can ever arrive, so the token flips to CLOSED."""
    game = position(players=4, board=BOARD4, seats={0: Seat(tabs=[[], [], [], ["Cocoa"]])})
    events = _serve_all(game)
    assert names(game.players[0].penalties) == ["Cocoa"]
    assert of_type(events, "closed") == [{"type": "closed", "reason": "stall"}]


def test_one_order_anywhere_keeps_the_game_open() -> None:
    """R-END-STALL: an order on any player's tabs keeps the token OPEN."""
    game = position(players=3, board=BOARD3, seats={
        0: Seat(tabs=[[], [], [], ["Cocoa"]]), 2: Seat(tabs=[[], [], [], ["Milk Tea"]]),
    })
    assert not of_type(_serve_all(game), "closed")
    assert not game.closed


def test_two_player_games_never_stall() -> None:
    """R-END-STALL applies to 3-4 players only: 2 players draw a new order every turn."""
    game = position(players=2, board=BOARD2, seats={0: Seat(tabs=[[], [], [], ["Cocoa"]])})
    act(game, "choose_meeple", meeple=0)
    _serve_all(game)
    assert not game.closed
    assert len(tabs(game, 0)[0]) == 1


def test_penalties_outrank_an_empty_deck_too_many_orders() -> None:
    """R-END-4 precedence (Ruling): a turn whose Too Many Orders deal empties the deck and
    whose Flow of Time brings a fifth Penalty Card records "penalties"."""
    four = ["Cocoa", "Milk Tea", "Cold Brew", "Americano"]
    game = position(players=4, board=BOARD4, seats={
        0: Seat(tabs=[["Espresso", "Ristretto"], [], [], ["Green Tea"]],
                cups=[["coffee", "steam"], ["coffee", "steam"]], penalties=four),
    }, deck_top=["Caffe Latte", "Cocoa"], deck_size=2)
    events = _serve_all(game)
    assert game.deck == [] and len(game.players[0].penalties) == 5
    assert of_type(events, "closed") == [{"type": "closed", "reason": "penalties"}]
    assert game.close_reason == "penalties"


def test_penalties_outrank_an_empty_deck_two_player_draw() -> None:
    """R-END-3 / R-END-4 precedence (Ruling): the 2-player end-of-turn draw that takes the
    last card, in the turn that brings a fifth Penalty Card, records "penalties"."""
    four = ["Cocoa", "Milk Tea", "Cold Brew", "Americano"]
    game = position(players=2, board=BOARD2, seats={
        0: Seat(tabs=[["Espresso"], [], [], ["Green Tea"]], penalties=four),
    }, deck_top=["Caffe Latte"], deck_size=1)
    act(game, "choose_meeple", meeple=0)
    events = _serve_all(game)
    assert game.deck == [] and tabs(game, 0)[0] == ["Caffe Latte"]
    assert len(game.players[0].penalties) == 5
    assert of_type(events, "closed") == [{"type": "closed", "reason": "penalties"}]


def test_an_empty_deck_outranks_a_stall() -> None:
    """R-END-4 precedence (Ruling): a deal that empties the deck and leaves no order on any
    tab records "deck", not "stall"."""
    game = position(players=3, board=BOARD3, seats={0: TWO_ESPRESSOS}, deck_top=[],
                    deck_size=0)
    events = _serve_all(game)
    assert not any(p.order_count() for p in game.players)
    assert of_type(events, "closed") == [{"type": "closed", "reason": "deck"}]


def test_a_game_closed_earlier_keeps_its_first_reason() -> None:
    """R-END-4: the token flips once; a later turn's fifth Penalty Card does not rename why
    it closed (the precedence weighs the reasons of one turn only)."""
    four = ["Cocoa", "Milk Tea", "Cold Brew", "Americano"]
    game = position(players=4, board=BOARD4, seats={
        0: TWO_ESPRESSOS, 1: Seat(tabs=[[], [], [], ["Green Tea"]], penalties=four),
    }, start=3, deck_top=["Caffe Latte"], deck_size=1)
    events = _serve_all(game)
    assert of_type(events, "closed") == [{"type": "closed", "reason": "deck"}]
    assert game.current == 1
    events = pass_turn(game)
    assert len(game.players[1].penalties) == 5
    assert not of_type(events, "closed") and game.close_reason == "deck"
