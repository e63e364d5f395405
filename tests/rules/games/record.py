"""Record the known-answer games of this rules version (tests/rules/games/v<N>/*.json).

    .venv/bin/python -m tests.rules.games.record

Run it only when RULES_VERSION is bumped: the games of an old version are never re-recorded
(they are what a room of that version must still replay to). Each file is one stored game
as the journal keeps it, (seed, options, [seat, action] ...), with the state and result the
engine reached: the four seeded playouts the known answers used to pin, and games that
serve, upgrade, undo and send actions without their echoed fields, as clients do.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from server.bots import greedy
from server.rules import RULES_VERSION, GameOptions, apply, legal_actions, new_game_from
from server.rules.setup import SplitMix64

from .replay import state_digest

HERE = Path(__file__).resolve().parent
# name -> (seed, options, how actions are picked)
GAMES: dict[str, tuple[int, GameOptions, str]] = {
    "seed1-2p": (1, GameOptions(2), "uniform"),
    "seed7-3p": (7, GameOptions(3), "uniform"),
    "seed2026-4p": (2026, GameOptions(4), "uniform"),
    "seed99-4p-starter": (99, GameOptions(4, starter_orders=True), "uniform"),
    "seed11-2p-greedy": (11, GameOptions(2, starting_player=1), "greedy"),
    "seed12-3p-greedy": (12, GameOptions(3, starter_orders=True), "greedy"),
    "seed13-4p-greedy": (13, GameOptions(4), "greedy"),
    "seed14-3p-unfinished": (14, GameOptions(3), "greedy"),
}


def play(seed: int, options: GameOptions, how: str) -> list[list[Any]]:
    game = new_game_from(seed, options)
    pick = SplitMix64(seed ^ 0xC0FFEE)
    actions: list[list[Any]] = []
    limit = 60 if "unfinished" in how else None
    while game.phase != "over" and (limit is None or len(actions) < limit):
        legal = sorted(legal_actions(game), key=lambda a: json.dumps(a, sort_keys=True))
        action: dict[str, Any] = legal[pick.below(len(legal))]
        if how != "uniform":
            if pick.below(10) < 8:  # mostly the greedy bot's move: it serves and upgrades
                action = greedy.act(game)
            if game.turn_log and pick.below(30) == 0:
                action = {"type": "undo"}
            elif action["type"] == "step" and pick.below(2):
                action = {"type": "step", "cell": action["cell"]}  # as a client may send it
        actions.append([game.current, action])
        apply(game, action, game.current)
    return actions


def main() -> None:
    folder = HERE / f"v{RULES_VERSION}"
    folder.mkdir(exist_ok=True)
    for name, (seed, options, how) in GAMES.items():
        actions = play(seed, options, how + ("-unfinished" if "unfinished" in name else ""))
        digest, result = state_digest(seed, options.to_dict(), actions)
        record = {"rules_version": RULES_VERSION, "seed": seed, "options": options.to_dict(),
                  "actions": actions, "result": result, "state": digest}
        (folder / f"{name}.json").write_text(json.dumps(record, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
