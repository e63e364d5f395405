"""Random legal games through the public rules API: how games end, how long they last, how fast.

Every choice is uniform over `legal_actions`, drawn from one `random.Random(seed)`, so the
same (players, games, seed) always plays the same games and reports the same figures
(except games per second, which is a measurement).
"""

from __future__ import annotations

import random
import time
from dataclasses import asdict, dataclass

from server.rules import Game, GameOptions, apply, is_over, legal_actions, new_game_from

# Why a game ended (R-END-DECK, R-END-PEN, R-END-STALL), in report order.
ENDINGS: dict[str, str] = {
    "deck": "the deck ran out",
    "penalties": "a player reached 5 penalty cards",
    "stall": "no orders left",
}


def play_random_game(players: int, rng: random.Random, starter_orders: bool = False) -> Game:
    """Play one game to the end, every action chosen uniformly among the legal ones."""
    game = new_game_from(rng.getrandbits(64), GameOptions(players, starter_orders=starter_orders))
    choice = rng.choice
    while not is_over(game):
        apply(game, choice(legal_actions(game)))
    return game


@dataclass(frozen=True, slots=True)
class SimulationReport:
    players: int
    games: int
    seed: int
    mean_turns: float  # turns taken by all players together
    mean_actions: float
    endings: dict[str, int]
    mean_winning_score: float
    games_per_second: float

    def to_dict(self) -> dict:
        return asdict(self)


def simulate(players: int, games: int, seed: int) -> SimulationReport:
    if games < 1:
        raise ValueError("simulate needs at least one game")
    rng = random.Random(seed)
    turns = actions = winning = 0
    endings = dict.fromkeys(ENDINGS, 0)
    began = time.perf_counter()
    for _ in range(games):
        game = play_random_game(players, rng)
        result = game.result
        assert result is not None
        turns += sum(result["turns"])
        actions += game.version
        endings[result["reason"] or ""] += 1
        winning += max(s["total"] for s in result["scores"])
    elapsed = time.perf_counter() - began
    return SimulationReport(
        players=players,
        games=games,
        seed=seed,
        mean_turns=round(turns / games, 3),
        mean_actions=round(actions / games, 3),
        endings=endings,
        mean_winning_score=round(winning / games, 3),
        games_per_second=round(games / elapsed, 1) if elapsed > 0 else float("inf"),
    )


def render(report: SimulationReport) -> str:
    """The report as a few human-readable lines."""
    lines = [
        f"games:              {report.games} ({report.players} players, seed {report.seed})",
        f"mean turns/game:    {report.mean_turns:.2f} (all players together)",
        f"mean actions/game:  {report.mean_actions:.2f}",
        "endings:",
    ]
    for reason, why in ENDINGS.items():
        count = report.endings[reason]
        lines.append(f"  {reason:<10} {count:>7}  {100 * count / report.games:5.1f}%  ({why})")
    lines += [
        f"mean winning score: {report.mean_winning_score:.2f}",
        f"games/second:       {report.games_per_second:.1f}",
    ]
    return "\n".join(lines)
