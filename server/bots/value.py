"""A position's chance of winning for the player to act, learned from greedy play.

The expert's rollouts stop a few turns ahead, mostly before the game ends; what they then
need is not the score margin as it stands but how likely that position is to end in a win
(R-END-PEN: the game ends at someone's fifth penalty, so who is closer to it matters as
much as the margin). `win_chance` is a logistic model over a few public features of the
position, seen by the player whose turn starts (that is where the expert's rollouts stop),
against its best opponent. Its weights were fitted on positions from games that greedy
rollouts (rollout.finish_turn, the expert's own rollout policy) played to the end:
`bench/bots_value.py` regenerates them (it prints WEIGHTS tables to paste here).
"""

from __future__ import annotations

import math

from server.rules import Game
from server.rules.scoring import total
from server.rules.state import Player

from . import multiset as ms
from .orders import RECIPES, SAVE

FEATURES = (
    "bias", "margin", "margin_late", "pen_me", "pen_them", "pen4_me", "pen4_them",
    "risk_me", "risk_them", "tab4_me", "tab4_them", "cups", "rush", "deck", "starting",
)


def risk(player: Player) -> float:
    """Orders on the tabs, each by its chance of becoming a penalty."""
    return sum(SAVE[tab] * len(cards) for tab, cards in enumerate(player.tabs))


def cup_progress(player: Player) -> int:
    """Tokens in cups that fit an order not about to fall off (tabs 1-3)."""
    tokens = 0
    for cup in player.cups:
        if not cup:
            continue
        m = ms.of_items(cup)
        if any(ms.fits(m, RECIPES[c]) for tab in range(3) for c in player.tabs[tab]):
            tokens += len(cup)
    return tokens


def features(game: Game, seat: int) -> list[float]:
    """The features of the position for `seat`, against the other seat with most points."""
    me = game.players[seat]
    other = max((i for i in range(game.n) if i != seat),
                key=lambda i: (total(game.players[i]), -i))
    them = game.players[other]
    margin = total(me) - total(them)
    pen_me, pen_them = len(me.penalties), len(them.penalties)
    late = max(len(p.penalties) for p in game.players) / 5
    return [
        1.0, margin, margin * late, pen_me, pen_them, float(pen_me >= 4), float(pen_them >= 4),
        risk(me), risk(them), len(me.tabs[3]), len(them.tabs[3]),
        cup_progress(me) - cup_progress(them), me.rush - them.rush, len(game.deck) / 10,
        float(seat == game.start),
    ]


# Fitted by bench/bots_value.py (seed 1): 2 players on 3000 games (held out: log-loss
# 0.564, winner picked 67.9% of positions), 4 players on 2000 games (0.477, 77.1%).
# Order as in FEATURES. Beyond the margin, each own penalty weighs -0.59 in 2 players:
# the game ends at five, and the one who gets there first mostly loses.
# Refitted on games played as the expert's rollouts now play (bots_value.py --policy
# expert, 10,000 games): closer on that play (log-loss 0.616 against these weights' 0.655)
# but no better at the table (paired on 800 fresh deals against expert-1, +1.4%, standard
# error 1.9%): not kept (docs/BOTS.md, issue 48's sixth try).
WEIGHTS: dict[int, tuple[float, ...]] = {
    2: (-0.2202, 0.4055, 0.2326, -0.5870, 0.6055, -0.3582, 0.3568, -1.5405, 1.4181, 0.5995,
        -0.5270, 0.2358, -0.0056, 0.0115, 0.4856),
    4: (0.9480, 0.5942, 0.5323, -0.0633, 0.1188, -0.3932, -0.0016, -1.0254, 0.5991, 0.2592,
        -0.1133, 0.1708, 0.0474, -0.2074, -0.0230),
}


def win_chance(game: Game, seat: int) -> float | None:
    """Estimated chance that `seat` wins (a shared win split) from this position; None
    for a player count without fitted weights."""
    weights = WEIGHTS.get(game.n)
    if weights is None:
        return None
    z = sum(w * x for w, x in zip(weights, features(game, seat), strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
