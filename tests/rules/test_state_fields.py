"""A Game is copied, stored and rebuilt field by field (issue 28: no positional rebuilds).

`clone` and `to_dict`/`from_dict` go by the dataclass fields, so a field added to Game or
Player is never dropped: a test adds a dummy field to each and sees it come through. A
clone shares nothing mutable with its game (a new mutable field needs its copy in
state.py), and the bots' `rebuild` from a view gives back every field a view shows."""

from __future__ import annotations

import random
from dataclasses import dataclass, fields, replace
from typing import Any

import pytest

from server.bots.determinize import NOT_IN_A_VIEW, rebuild
from server.rules import Game, apply, legal_actions, new_game, serialize, view
from server.rules.serialize import from_dict, stored_fields, to_dict
from server.rules.state import Player, TurnStart


def positions(seed: int, players: int, every: int = 7) -> list[Game]:
    """Clones of every `every`-th state of a seeded random game, mid-turn ones included."""
    game, rng, out = new_game(seed, players), random.Random(seed), []
    while game.phase != "over":
        if game.version % every == 0:
            out.append(game.clone())
        apply(game, rng.choice(legal_actions(game)), game.current)
    return [*out, game]


GAMES = [g for seed, n in ((1, 2), (2, 3), (3, 4)) for g in positions(seed, n)]


def mutable_parts(value: Any, path: str = "") -> list[tuple[str, Any]]:
    """Every list, dict and state object inside `value`, with where it is."""
    if isinstance(value, list | dict | Player | TurnStart):
        found = [(path, value)]
        items = (value.items() if isinstance(value, dict) else enumerate(value)
                 if isinstance(value, list) else ((f.name, getattr(value, f.name))
                                                  for f in fields(value)))
        for key, item in items:
            found += mutable_parts(item, f"{path}.{key}")
        return found
    return []


def test_a_clone_equals_its_game_and_shares_nothing_mutable_with_it():
    for game in GAMES:
        copy = game.clone()
        assert copy == game
        for f in fields(Game):
            if not f.compare:  # the caches: a copy starts without them
                continue
            originals = {id(v): p for p, v in mutable_parts(getattr(game, f.name), f.name)}
            # Copies may share what is never changed once made: the turn log's entries (the
            # actions as applied, replayed on undo) and the result of a finished game.
            shared = [p for p, v in mutable_parts(getattr(copy, f.name), f.name)
                      if id(v) in originals and not p.startswith(("turn_log.", "result"))]
            assert not shared, f"a clone shares {shared} with its game"


def test_a_stored_game_loads_back_equal_and_holds_every_field():
    for game in GAMES:
        stored = to_dict(game)
        assert set(stored) == {"format", "rules_version", *stored_fields(Game)}
        assert from_dict(stored) == game


def test_a_game_rebuilt_from_a_view_equals_it_in_every_field_a_view_shows():
    for game in GAMES:
        rebuilt = rebuild(view(game, game.current), game.deck)
        for f in fields(Game):
            if f.compare and f.name not in NOT_IN_A_VIEW:
                assert getattr(rebuilt, f.name) == getattr(game, f.name), f.name


@dataclass(slots=True)
class DummyPlayer(Player):
    dummy: int = 0


@dataclass(slots=True)
class DummyGame(Game):
    dummy: int = 0


def test_a_new_field_is_cloned_and_stored_without_an_edit(monkeypatch: pytest.MonkeyPatch):
    """Game and Player get one more field each, as if declared in state.py."""
    monkeypatch.setattr(serialize, "Game", DummyGame)
    monkeypatch.setattr(serialize, "Player", DummyPlayer)
    original = GAMES[len(GAMES) // 2]
    values = {f.name: getattr(original, f.name) for f in fields(Game) if f.compare}

    def dummy(p: Player) -> DummyPlayer:
        return DummyPlayer(**{f.name: getattr(p, f.name) for f in fields(Player)}, dummy=7)

    values["players"] = [dummy(p) for p in original.players]
    assert original.turn_start is not None  # mid-turn: the turn start's player too
    values["turn_start"] = replace(original.turn_start, player=dummy(original.turn_start.player))
    game = DummyGame(**values, dummy=8)

    for copy in (game.clone(), from_dict(to_dict(game))):
        assert isinstance(copy, DummyGame) and copy.dummy == 8
        assert [p.dummy for p in copy.players] == [7] * game.n
        assert copy.turn_start is not None and copy.turn_start.player.dummy == 7
