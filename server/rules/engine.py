"""Applying actions: validation first, then the change, then the events that describe it.

`apply` mutates the game in place and returns structured events. Validation happens
before any mutation, so a refused action leaves the game exactly as it was. What each
action type is and does is declared once, in its module in actions/ (registry.py).
"""

from __future__ import annotations

from .actions import action_key
from .actiontype import KEY_OF, Action, Apply, Events, Key
from .errors import GameOver, IllegalAction, NothingToUndo, NotYourTurn
from .legal import legal_index, listed_key
from .moves import begin_turn
from .registry import ACTIONS, allowed_in
from .state import TURN_PHASES, Game, is_over


def can_undo(game: Game) -> bool:
    return game.phase in TURN_PHASES and bool(game.turn_log)


def _apply_fn(kind: str) -> Apply:
    fn = ACTIONS[kind].apply
    assert fn is not None, f"{kind} is played by the engine itself"
    return fn


def apply(game: Game, action: object, seat: int | None = None) -> Events:
    """Validate and apply `action` for `seat` (default: the seat to act)."""
    if seat is not None and seat != game.current and not is_over(game):
        action_key(action)  # junk is reported as junk, whoever sends it
        raise NotYourTurn(f"it is seat {game.current}'s turn, not seat {seat}'s", "R-TURN")
    key = listed_key(game, action)  # fast path: a dict legal_actions handed out
    if key is not None:
        legal: Action = action  # type: ignore[assignment]  # a listed dict, checked by id
    else:
        validated = _validate(game, action)
        if validated is None:
            return _undo(game)
        legal, key = validated, KEY_OF[id(validated)]
    in_turn = game.phase in TURN_PHASES
    events = _apply_fn(key[0])(game, key, legal)
    game.version += 1
    if in_turn and key[0] != "end_turn":
        game.turn_log.append(legal)
    return events


def _validate(game: Game, action: object) -> Action | None:
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
    assert isinstance(action, dict)  # action_key checked it
    for name in kind.echoes:  # an echoed preview must be the true one
        if name in action and action[name] != legal[name]:
            raise IllegalAction(f"{kind.name} preview {name!r} does not match", kind.rule)
    return legal


def _why_illegal(game: Game, key: Key) -> str:
    kind = key[0]
    if kind not in allowed_in(game.phase):
        return f"{kind!r} is not possible in the {game.phase} phase"
    return f"{kind!r} with these arguments is not legal now"


def _undo(game: Game) -> Events:
    """Take back the last action of this turn by replaying the turn from its start."""
    if not can_undo(game):
        raise NothingToUndo("nothing to undo in this turn", "R-TURN")
    undone = game.turn_log[-1]
    redo = game.turn_log[:-1]
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


