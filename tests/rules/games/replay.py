"""Replay a recorded game through this engine: its final state's digest and result."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from server.rules import GameOptions, apply, new_game_from, to_dict


def state_digest(seed: int, options: dict[str, Any],
                 actions: list[list[Any]]) -> tuple[str, Any]:
    """(sha256 of the whole final state, the result), each action applied for its seat.
    The state's own format and rules version fields are left out: the state is the game."""
    game = new_game_from(seed, GameOptions.from_dict(options))
    for seat, action in actions:
        apply(game, action, seat)
    state = {k: v for k, v in to_dict(game).items() if k not in ("format", "rules_version")}
    text = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest(), game.result
