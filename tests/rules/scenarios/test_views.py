"""R-HIDDEN (what each viewer sees), structured events, storage and exact replays."""

from __future__ import annotations

import json
import random

import pytest

from server.rules import (
    Game,
    apply,
    check_invariants,
    from_dict,
    legal_actions,
    new_game,
    to_dict,
    view,
)

from .kit import Seat, act, pass_turn, position, walk

BOARD = """
    . . . .
    . 0 . .
    . . . 1
    2 . . 3
"""
SEED = 0xC0FFEE_5EED_1234
EVENT_TYPES = {
    "placed", "starting_token", "turn_started", "upgraded", "upgrade_skipped",
    "meeple_chosen", "moved", "stopped", "poured", "returned", "emptied", "pouring_done",
    "served", "orders_dealt", "time_flowed", "closed", "turn_ended", "game_over", "undone",
}


def _views(game: Game) -> list[dict]:
    return [view(game, seat) for seat in [None, *range(game.n)]]


def _random_game(seed: int, players: int) -> tuple[Game, list[dict], list[dict]]:
    """A whole game of seeded random legal actions: (game, actions, events)."""
    game = new_game(seed=seed, players=players)
    rng = random.Random(seed)
    actions: list[dict] = []
    events: list[dict] = []
    while game.phase != "over":
        assert len(actions) < 20_000, "a random game should end long before this"
        action = dict(rng.choice(legal_actions(game)))
        actions.append(action)
        events += apply(game, action)
    return game, actions, events


def test_the_deck_order_is_in_no_view() -> None:
    """R-HIDDEN: two games that differ only in the order of the deck look the same to every
    seat and to spectators; the deck is shown as a count."""
    game = position(players=4, board=BOARD, seats={0: Seat(tabs=[["Cocoa"]])}, seed=SEED)
    other = game.clone()
    other.deck.reverse()
    assert other.deck != game.deck
    walk(game, "r2c3")
    walk(other, "r2c3")
    assert _views(game) == _views(other)
    assert view(game)["deck"] == len(game.deck)


def test_the_seed_is_secret_until_the_game_is_over() -> None:
    """R-HIDDEN: no view holds the seed or the deck before the end; then both are public."""
    game = position(players=4, board=BOARD, to_act=3, start=0, seed=SEED, seats={
        3: Seat(tabs=[["Espresso"], [], [], ["Green Tea"]],
                penalties=["Cocoa", "Milk Tea", "Cold Brew", "Americano"]),
    })
    for shown in _views(game):
        assert shown["result"] is None
        assert str(SEED) not in json.dumps(shown)
    deck = game.deck[:]
    pass_turn(game)
    assert game.phase == "over"
    for shown in _views(game):
        assert shown["result"]["seed"] == str(SEED)
        assert shown["result"]["deck"] == deck[::-1]  # the next card to draw first
        assert shown["legal"] == []


def test_a_seat_sees_its_legal_actions_only_on_its_turn() -> None:
    """R-HIDDEN / R-TURN: legal actions are in the view of the seat to act only."""
    game = position(players=3, board=BOARD.replace("3", "."))
    seen = {shown["seat"]: shown for shown in _views(game)}
    assert seen[0]["legal"] == legal_actions(game)
    assert seen[0]["legal"]
    assert seen[1]["legal"] == seen[2]["legal"] == seen[None]["legal"] == []
    public = {k: v for k, v in seen[0].items() if k not in ("seat", "legal", "can_undo")}
    assert public == {k: v for k, v in seen[None].items() if k not in ("seat", "legal", "can_undo")}


def test_the_table_is_public() -> None:
    """R-HIDDEN: boards, cups, tabs, completed piles, penalties, Rush Tokens and the supply
    are in every view."""
    game = position(players=4, board=BOARD, seats={
        2: Seat(tabs=[["Cocoa"]], cups=[["milk"]], completed=["Espresso"],
                penalties=["Milk Tea"], rush=3, upgrades=["double_corners"]),
    })
    player = view(game, 1)["players"][2]
    assert player["meeples"] == ["r4c1"]
    assert [c["name"] for c in player["tabs"][0]] == ["Cocoa"]
    assert player["cups"] == [["milk"], [], []]
    assert [c["name"] for c in player["completed"]] == ["Espresso"]
    assert [c["name"] for c in player["penalties"]] == ["Milk Tea"]
    assert player["rush"] == 3
    assert player["upgrades"]["double_corners"] is True
    assert view(game, 1)["supply"]["milk"] == 11


def test_a_stored_game_goes_on_exactly_as_the_live_one() -> None:
    """R-TURN / storage: to_dict/from_dict mid-turn keeps everything, undo included."""
    game = position(players=4, board=BOARD, seats={0: Seat(rush=1)})
    walk(game, "r2c3", "r2c4")
    stored = from_dict(json.loads(json.dumps(to_dict(game))))
    check_invariants(stored)
    for g in (game, stored):
        act(g, "undo")
        walk(g, "r1c3", "r1c4", "r2c4")
        act(g, "stop")
    assert to_dict(stored) == to_dict(game)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seed_and_actions_replay_a_game_exactly(players: int) -> None:
    """R-SETUP-1 / STYLE: (seed, options, actions) replays a game exactly, events and all."""
    game, actions, events = _random_game(seed=100 + players, players=players)
    again = new_game(seed=100 + players, players=players)
    replayed: list[dict] = []
    for action in actions:
        replayed += apply(again, action)
    assert replayed == events
    assert to_dict(again) == to_dict(game)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_events_are_structured_and_json_safe(players: int) -> None:
    """Every event is a JSON-safe dict whose "type" is one of the documented kinds, and
    every turn is framed by turn_started ... turn_ended."""
    game, _, events = _random_game(seed=7 * players, players=players)
    assert {e["type"] for e in events} <= EVENT_TYPES
    assert json.loads(json.dumps(events)) == events
    kinds = [e["type"] for e in events]
    assert kinds.count("turn_started") == kinds.count("turn_ended")
    assert kinds[-1] == "game_over"
    assert json.loads(json.dumps(_views(game))) == _views(game)
