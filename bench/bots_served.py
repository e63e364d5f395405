"""Do the expert's rollouts serve as many orders as the bots really do? (issue 48)

    .venv/bin/python bench/bots_served.py LOG.jsonl [--games 24] [--rush 0 2]

Replays the games of a `bench/bots_paired.py` or `bench/bots.py --log` log (the same
seeds and settings give the same games: work is counted, not timed) and, at every turn start, plays
that turn once more as a rollout turn of the expert (rollout.finish_turn, the best
rescue first when the tab-4 orders threaten the penalty limit: expert._rescue_turn)
with each `--rush` setting of Rush-paid steps. It prints, per level and stage (late:
someone holds LATE penalties or more), the orders really served a turn against what the
rollout turn from the same position served. Nothing is timed; it only reads and replays.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.bots import expert, greedy, rollout  # noqa: E402
from server.bots.levels import chooser  # noqa: E402
from server.bots.match import play_game  # noqa: E402
from server.rules import Game  # noqa: E402
from server.rules.state import MOVE, UPGRADE  # noqa: E402

LATE = 3


def completed(game: Game, seat: int) -> int:
    """Orders served so far, the three an upgrade discards included (R-UPG)."""
    player = game.players[seat]
    return len(player.completed) + 3 * sum(player.upgrades)


def rollout_served(game: Game, rush: int) -> int:
    g = game.clone()
    memo = greedy.AllocationMemo()
    if not expert._rescue_turn(g, memo, greedy.upgrade_action, rush):
        rollout.finish_turn(g, memo, rush)
    return completed(g, game.current) - completed(game, game.current)


def replay(o: dict, rushes: list[int], tally: dict[tuple[str, str], list[int]]) -> None:
    """Play the logged game again, tallying each turn: [turns, real, rollout per rush]."""
    lineup = o["lineup"]
    turn: int | None = None
    open_turn: tuple[tuple[str, str], int, int, list[int]] | None = None
    playing: Game | None = None  # the game object play_game plays on

    def close(game: Game) -> None:
        if open_turn is not None:
            key, seat, before, guesses = open_turn
            row = tally[key]
            row[0] += 1
            row[1] += completed(game, seat) - before
            for k, served in enumerate(guesses):
                row[2 + k] += served

    def at_decision(game: Game) -> None:
        nonlocal turn, open_turn, playing
        playing = game
        seat = game.current
        if game.turn != turn and game.phase in (UPGRADE, MOVE):
            close(game)
            turn = game.turn
            late = max(len(p.penalties) for p in game.players) >= LATE
            key = (lineup[seat], "late" if late else "early")
            open_turn = (key, seat, completed(game, seat),
                         [rollout_served(game, r) for r in rushes])

    result = play_game([chooser(level) for level in lineup], o["seed"], o.get("budget", 1.0),
                       before=at_decision)
    assert playing is not None
    close(playing)  # as it ended
    if [s["total"] for s in result["scores"]] != o["scores"]:
        raise SystemExit(f"game {o['index']}: the replay is not the logged game")


def use_settings(settings: dict) -> None:
    """The run's expert settings (bench/bots_paired.py logs them), in this process."""
    for name, value in settings.items():
        if name.startswith("Style."):
            expert.EXPERT = replace(expert.EXPERT, **{name.removeprefix("Style."): value})
        else:
            setattr(expert, name, value)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--games", type=int, default=24, help="the first this many games")
    parser.add_argument("--rush", type=int, nargs="+", default=[0, 2])
    args = parser.parse_args()
    games = sorted((json.loads(line) for line in args.log.read_text().splitlines() if line),
                   key=lambda o: o["index"])[: args.games]
    if games:
        use_settings(games[0].get("settings", {}))
    tally: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0] * (2 + len(args.rush)))
    for o in games:
        replay(o, args.rush, tally)
    print(f"{len(games)} games; orders served a turn (late: someone holds {LATE}+ penalties)")
    for (level, stage), row in sorted(tally.items()):
        guesses = ", ".join(f"rollout with {r} rush {row[2 + k] / row[0]:.2f}"
                            for k, r in enumerate(args.rush))
        print(f"  {level:>9} {stage:>5}: {row[0]:4d} turns, really {row[1] / row[0]:.2f}; "
              f"{guesses}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
