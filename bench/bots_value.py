"""Fit the expert's win-chance model (server/bots/value.py) on rollout games.

    .venv/bin/python bench/bots_value.py --games 1500 --players 2 4
    .venv/bin/python bench/bots_value.py --games 3000 --players 2 --policy expert

Plays seeded games with a rollout policy in every seat (setup by greedy): `greedy`,
rollout.finish_turn as the first model was fitted; `expert`, the expert's own rollout
turn (expert.own_turn: the best rescue when tab 4 threatens the penalty limit, its
upgrade rule and Rush), which is how the expert's rollouts now play every seat. Records
value.features() at the start of every turn for the player to act, labels each with how
that game ended for that player (a win 1, a shared win split, a loss 0), and fits a
logistic regression by Newton's method (small ridge). Prints the WEIGHTS entry per
player count, the log-loss and how often the model picks the winner.
Seeded: the same arguments print the same weights.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.bots import expert, greedy, rollout, value  # noqa: E402
from server.rules import Game, apply, new_game  # noqa: E402
from server.rules.state import OVER, PLACEMENT, STARTING_CUP  # noqa: E402

RIDGE = 1e-3
# How every seat plays a turn, given the game's allocation memo.
POLICIES: dict[str, Callable[[Game, greedy.AllocationMemo], object]] = {
    "greedy": lambda game, memo: rollout.finish_turn(game),
    "expert": expert.own_turn,
}


def positions(seed: int, players: int, policy: str = "greedy") -> list[tuple[list[float], float]]:
    game = new_game(seed, players, starting_player=seed % players)
    while game.phase in (PLACEMENT, STARTING_CUP):
        apply(game, greedy.act(game))
    seen: list[tuple[int, list[float]]] = []
    play_turn, memo = POLICIES[policy], greedy.AllocationMemo()
    while game.phase != OVER:
        seen.append((game.current, value.features(game, game.current)))
        play_turn(game, memo)
    assert game.result is not None
    winners = game.result["winners"]
    return [(x, 1.0 / len(winners) if seat in winners else 0.0) for seat, x in seen]


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for i in range(n):
        piv = max(range(i, n), key=lambda r: abs(m[r][i]))
        m[i], m[piv] = m[piv], m[i]
        for r in range(n):
            if r != i and m[r][i]:
                f = m[r][i] / m[i][i]
                m[r] = [x - f * y for x, y in zip(m[r], m[i], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(rows: list[tuple[list[float], float]], iterations: int = 12) -> list[float]:
    k = len(rows[0][0])
    w = [0.0] * k
    for _ in range(iterations):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y in rows:
            z = sum(wi * xi for wi, xi in zip(w, x, strict=True))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            g = p - y
            s = p * (1 - p)
            for i in range(k):
                grad[i] += g * x[i]
                xs = s * x[i]
                row = hess[i]
                for j in range(i + 1):
                    row[j] += xs * x[j]
        n = len(rows)
        for i in range(k):
            grad[i] = grad[i] / n + RIDGE * w[i]
            for j in range(i + 1):
                hess[i][j] /= n
                hess[j][i] = hess[i][j]
            hess[i][i] += RIDGE
        step = _solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
    return w


def quality(rows: list[tuple[list[float], float]], w: list[float]) -> tuple[float, float]:
    loss = hits = 0.0
    for x, y in rows:
        z = sum(wi * xi for wi, xi in zip(w, x, strict=True))
        p = min(1 - 1e-9, max(1e-9, 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))))
        loss -= y * math.log(p) + (1 - y) * math.log(1 - p)
        hits += 1.0 if (p >= 0.5) == (y >= 0.5) else 0.0
    return loss / len(rows), hits / len(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", choices=tuple(POLICIES), default="greedy")
    args = parser.parse_args()
    for players in args.players:
        train: list[tuple[list[float], float]] = []
        test: list[tuple[list[float], float]] = []
        for g in range(args.games):
            (test if g % 5 == 0 else train).extend(
                positions(args.seed * 100_000 + g, players, args.policy))
        w = fit(train)
        loss, hits = quality(test, w)
        print(f"# {players} players: {len(train)} positions to fit, {len(test)} held out: "
              f"log-loss {loss:.3f}, winner picked {hits:.1%}")
        print(f"    {players}: (" + ", ".join(f"{x:.4f}" for x in w) + "),")
        for name, x in zip(value.FEATURES, w, strict=True):
            print(f"#   {name:<12}{x:+.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
