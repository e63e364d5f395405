"""Applying actions: validation first, then the change, then the events that describe it.

`apply` mutates the game in place and returns structured events. Validation happens
before any mutation, so a refused action leaves the game exactly as it was. What each
action type is and does is declared once, in its module in actions/ (registry.py).
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict, cast

from .action import Action
from .actions import action_key
from .actiontype import KEY_OF, Apply, Key
from .errors import GameOver, IllegalAction, NothingToUndo, NotYourTurn
from .events import ActionEvent
from .legal import legal_index, listed_key
from .moves import begin_turn
from .registry import ACTIONS, allowed_in
from .state import TURN_PHASES, Game, is_over


class Undone(TypedDict):
    """R-TURN: the seat's last action this turn taken back."""

    type: Literal["undone"]
    seat: int
    action: Action


# What `apply` returns: its action type's events (events.py), or the engine's own for undo.
GameEvent = ActionEvent | Undone


def turn_actions(game: Game) -> list[Action]:
    """The actions of the turn so far, in order (what undo replays)."""
    return cast("list[Action]", game.turn_log[:])  # each was listed: see state.Played


def can_undo(game: Game) -> bool:
    return game.phase in TURN_PHASES and bool(game.turn_log)


def _apply_fn(kind: str) -> Apply[Any]:
    fn = ACTIONS[kind].apply
    assert fn is not None, f"{kind} is played by the engine itself"
    return fn


def apply(game: Game, action: Action, seat: int | None = None) -> list[GameEvent]:
    """Validate and apply `action` for `seat` (default: the seat to act).

    Typed, and still checked: an action from anywhere but `legal_actions` (a client's,
    parsed at its boundary; a journal's; a test's) is looked up among the legal ones."""
    if seat is not None and seat != game.current and not is_over(game):
        action_key(action)  # junk is reported as junk, whoever sends it
        raise NotYourTurn(f"it is seat {game.current}'s turn, not seat {seat}'s", "R-TURN")
    key = listed_key(game, action)  # fast path: a dict legal_actions handed out
    if key is not None:
        legal = action  # a listed dict, known by its id
    else:
        validated = _validate(game, action)
        if validated is None:
            return _undo(game)
        legal, key = validated, KEY_OF[id(validated)]
    in_turn = game.phase in TURN_PHASES
    # Its action type's events are some of GameEvent (not typing.cast: a call per action).
    events: list[GameEvent] = _apply_fn(key[0])(game, key, legal)  # type: ignore[assignment]
    game.version += 1
    if in_turn and key[0] != "end_turn":
        game.turn_log.append(legal)
    return events


def _validate(game: Game, action: Action) -> Action | None:
    """The listed legal action equal to `action`, or None for undo; raise if refused."""
    key = action_key(action)
    if is_over(game):
        raise GameOver("the game is over", "R-END")
    kind = ACTIONS[key[0]]
    if kind.apply is None:  # undo
        return None
    legal = legal_index(game).get(key)
    if legal is None:
        raise IllegalAction(_why_illegal(game, key), kind.rule)
    for name in kind.echoes:  # an echoed preview must be the true one
        if name in action and action.get(name) != legal.get(name):
            raise IllegalAction(f"{kind.name} preview {name!r} does not match", kind.rule)
    return legal


def _why_illegal(game: Game, key: Key) -> str:
    kind = key[0]
    if kind not in allowed_in(game.phase):
        return f"{kind!r} is not possible in the {game.phase} phase"
    return f"{kind!r} with these arguments is not legal now"


def _undo(game: Game) -> list[GameEvent]:
    """Take back the last action of this turn by replaying the turn from its start."""
    if not can_undo(game):
        raise NothingToUndo("nothing to undo in this turn", "R-TURN")
    *redo, undone = turn_actions(game)
    start = game.turn_start
    assert start is not None
    seat = game.current
    game.players[seat] = start.player.clone()
    game.supply = start.supply[:]
    game.rush_supply = start.rush_supply
    game.discard = start.discard[:]
    game.turn -= 1
    begin_turn(game, seat)
    game.turn_start = start
    for action in redo:
        _apply_fn(action["type"])(game, action_key(action), action)
        game.turn_log.append(action)
    game.version += 1
    game.legal_cache = None
    return [{"type": "undone", "seat": seat, "action": undone}]


