"""The action registry (server/rules/registry.py) is the one declaration of the action
types: everything the engine lists or applies is registered for the phase it is in."""

from __future__ import annotations

import random
from pathlib import Path

from server.rules import PHASES, apply, is_over, legal_actions, new_game
from server.rules.actions import SCHEMA, action_key
from server.rules.registry import ACTIONS, CONTROLS, allowed_in
from server.rules.state import OVER, TURN_PHASES

ROOT = Path(__file__).resolve().parents[2]


def test_every_listed_action_is_registered_for_its_phase() -> None:
    seen: set[str] = set()
    for seed in range(12):
        game = new_game(seed, 2 + seed % 3, starter_orders=seed % 2 == 1)
        rng = random.Random(seed)
        while not is_over(game):
            for action in legal_actions(game):
                kind = ACTIONS[action["type"]]
                assert game.phase in kind.phases, (action, game.phase)
                assert set(action) - {"type"} == set(kind.fields) | set(kind.echoes)
                assert action_key(action)[0] == kind.name
                seen.add(kind.name)
            apply(game, rng.choice(legal_actions(game)))
    # Random play reaches every type but serving and upgrading (their scenario tests do).
    assert {name for name, kind in ACTIONS.items() if kind.apply is not None} - seen <= {
        "serve", "upgrade", "skip_upgrade"}


def test_every_phase_has_its_types_and_undo_is_a_turn_action() -> None:
    for phase in PHASES:
        assert bool(allowed_in(phase)) == (phase != OVER)
    assert ACTIONS["undo"].apply is None and ACTIONS["undo"].phases == TURN_PHASES
    assert {name: (a.fields, a.echoes) for name, a in ACTIONS.items()} == SCHEMA


def test_a_refusal_names_the_registered_rule() -> None:
    game = new_game(3, 3)
    for name, kind in ACTIONS.items():
        if kind.apply is None or game.phase in kind.phases:
            continue
        legal = {"type": name, **{f: _sample(f) for f in kind.fields}}
        try:
            apply(game, legal, game.current)
        except Exception as e:  # noqa: BLE001 - the refusal is what we look at
            assert getattr(e, "rule", None) == kind.rule, (name, e)
            assert "not possible in the placement phase" in str(e)
        else:
            raise AssertionError(f"{name} was accepted in the placement phase")


def _sample(field: str) -> object:
    return {"cell": "r1c1", "cup": 0, "meeple": 0, "ingredient": "milk",
            "tile": "diagonal_movement",
            "card": 0}[field]


def test_every_action_type_has_a_control_the_table_knows():
    """static/js/table/intents.js offers an action by its control kind alone (issue 28)."""
    assert all(a.control in CONTROLS for a in ACTIONS.values())
    intents = (ROOT / "static" / "js" / "table" / "intents.js").read_text()
    assert all(f'case "{control}":' in intents for control in CONTROLS)
