"""The strong bot: flat Monte-Carlo over whole-turn plans, on sampled decks.

At the first decision of its turn the bot builds candidate plans for the whole turn:
greedy's upgrade choice, then each of the CANDIDATES best distinct ways to move (greedy.
best_endings), each followed by greedy's pour and serves. A plan's worth in one sample:
sample a deck from the unseen cards (determinize.py, R-HIDDEN), play the plan and then
every other seat's turn greedily (rollout.py), and add what greedy's best move would earn
us next turn (weighted by LOOKAHEAD) to what the plan serves now, less what the others
served in their turns (OPPONENT: the game is won on the difference, and a plan that blocks
or starves them is better), plus the penalty outlook (RISK: the orders waiting on their
tabs less those on ours, each by its chance of falling off tab 4); a game that ends in
between counts its result instead. So the bot sees how this turn sets up the next one
(cups, position, orders moving toward penalties, what the others take and deal us),
which greedy cannot. All plans share each sampled deck (common random numbers), so their
differences are not drowned in the luck of the draw. Plans are sampled round-robin for
the budget's share of FULL_ROUNDS rounds (counted, not timed: budget.py); the best average
wins, ties keep greedy's order.
(Scoring the position after a full greedy rollout of every seat's next turn instead was
measured and was no better than greedy: 20-20 in 40 games.)

Decisions after the first follow the chosen plan: every state the plan passes through is
remembered by its public view, so the next call (same process) just looks it up. A call
that finds no plan (another worker of a pool, say) searches again with a small share
when still moving, and otherwise plays greedy, which is what the plan would do there.
The budget is for a whole turn: FIRST_SHARE of it on the turn's search, MISS_SHARE on
each later search (at most four of them: the remaining steps and the stop).
"""

from __future__ import annotations

import json
import random
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from server.rules import Action, Game, GameView, apply, public_view
from server.rules.actions import action_key
from server.rules.state import MOVE, OVER, UPGRADE, Player

from . import greedy, rollout
from .budget import Budget, log_cut
from .determinize import determinize, unseen_cards
from .orders import SAVE

CANDIDATES = 8  # plans compared per search
LOOKAHEAD = 0.6  # next move's weight; vs greedy, 40 games: 0.6 won 25-15, 0.9 won 19-21
GAME_RESULT = 5.0  # a won (lost) game outweighs any one move's value
# Vs greedy, 60 games at 0.25 s: without these two terms 32-28 (seed 0); with 0.6 and 0.3,
# 44-16, 38.5-21.5, 31.5-28.5, 31-29 (seeds 0-3: 60.4% of 240); with 1.0 and 0.5,
# 32.5-27.5 (seed 1).
OPPONENT = 0.6  # weight of what the others serve in their turns (greedy's done value)
RISK = 0.3  # weight of the penalty outlook (orders left on the tabs), theirs less ours
FULL_ROUNDS = 32  # sample rounds (every plan once) at budget 1.0: ~0.8 s of one core here
# ...and at most this much work (rollout.work_units) per search at budget 1.0, whichever
# comes first: 32 rounds took up to 2.6 s of CPU where moves have many endings (Diagonal
# Movement, Rush Tokens to spend); the expert's searches of this much work stay under 1 s.
FULL_WORK = 7000
FIRST_SHARE = 0.8
MISS_SHARE = 0.05
CACHE_SIZE = 512

# Public view fingerprint -> the planned action there. Per process: a pool worker keeps
# the plans it made; any other process simply plans again.
_plans: OrderedDict[str, Action] = OrderedDict()


def fingerprint(view: Mapping[str, Any]) -> str:
    """The public part of a view (the seat's own extras left out), as a stable string."""
    public = {k: v for k, v in view.items() if k not in ("seat", "can_undo", "legal")}
    return json.dumps(public, sort_keys=True, separators=(",", ":"))


def _remember(key: str, action: Action) -> None:
    _plans[key] = action
    _plans.move_to_end(key)
    while len(_plans) > CACHE_SIZE:
        _plans.popitem(last=False)


@dataclass(slots=True)
class Plan:
    actions: list[Action]  # the rest of the turn, end_turn included
    now: float  # what serving this turn is worth (greedy's scale), less Rush spent
    total: float = 0.0  # summed sample values
    samples: int = 0


def candidate_plans(game: Game, limit: int) -> list[Plan]:
    """Whole-turn plans: greedy's upgrade choice, a move, greedy's pour and serves."""
    prefix: list[Action] = []
    base = game.clone()
    if base.phase == UPGRADE:
        action = greedy.upgrade_action(base)
        apply(base, action)
        prefix.append(action)
    plans = []
    for choice in greedy.best_endings(base, limit):
        ending = choice.ending
        g = base.clone()
        actions = prefix[:]
        seat, turn = g.current, g.turn
        while g.current == seat and g.turn == turn and g.phase != OVER:
            if g.phase == MOVE:
                action = greedy.move_action(g, choice.meeple, ending)
                if action["type"] == "step":
                    ending = replace(ending, path=ending.path[1:])
            else:
                action = greedy.act(g)
            actions.append(action)
            apply(g, action)
        plans.append(Plan(actions, choice.done))
    return plans


def sample_value(
    game: Game, plan: Plan, deck: list[int], memo: greedy.AllocationMemo | None = None
) -> tuple[float, int]:
    """(value, simulated turns): play the plan on a copy with this deck, let the others
    play greedily, then add what our best next move would earn (LOOKAHEAD of it). A
    finished game counts its result. `memo` counts the work (and saves some)."""
    seat = game.current
    g = game.clone()
    g.deck = deck[:]
    for action in plan.actions:
        apply(g, action)
    theirs = 0.0
    turns = 1
    while g.phase != OVER and g.current != seat:
        theirs += rollout.finish_turn(g, memo)
        turns += 1
    if g.phase == OVER:
        assert g.result is not None
        winners = g.result["winners"]
        if seat in winners:
            return plan.now + (GAME_RESULT if len(winners) == 1 else 0.0), turns
        return plan.now - GAME_RESULT, turns
    if g.phase == UPGRADE:
        apply(g, greedy.upgrade_action(g))
    ours = greedy.best_endings(g, 1, rollout.ROLLOUT_RUSH, memo)[0].value
    outlook = sum(risk(p) for i, p in enumerate(g.players) if i != seat) - risk(g.players[seat])
    return plan.now + LOOKAHEAD * ours - OPPONENT * theirs + RISK * outlook, turns


def risk(player: Player) -> float:
    """Expected penalties from the orders on the tabs (SAVE: the chance each becomes one)."""
    return sum(SAVE[tab] * len(cards) for tab, cards in enumerate(player.tabs))


def search(game: Game, view: GameView, rng: random.Random, budget: Budget,
           share: float) -> list[Action]:
    """The best whole-turn plan by sampled look-ahead: `share` of the budget's rounds (one
    round at least), fewer if `share` of the budget's work (FULL_WORK) is done first or
    the deadline passes."""
    plans = candidate_plans(game, CANDIDATES)
    if len(plans) == 1:
        return plans[0].actions
    unseen = unseen_cards(view)
    deck_count = view["deck"]
    rounds = max(1, round(FULL_ROUNDS * budget.work * share))
    planned = FULL_WORK * budget.work * share
    memo = greedy.AllocationMemo()
    turns = 0
    for done in range(rounds):
        if done and rollout.work_units(turns, memo) >= planned:
            break
        if done and budget.expired():
            log_cut("strong", done, rounds, budget)
            break
        rng.shuffle(unseen)
        deck = unseen[:deck_count]
        for plan in plans:
            value, played = sample_value(game, plan, deck, memo)
            plan.total += value
            plan.samples += 1
            turns += played
    # Equal averages keep greedy's order (the list is best-first by greedy's value).
    best = max(range(len(plans)), key=lambda i: (plans[i].total / plans[i].samples, -i))
    return plans[best].actions


def _remember_plan(game: Game, plan: list[Action]) -> None:
    g = game.clone()
    for action in plan:
        if g.phase == OVER:
            break
        _remember(fingerprint(public_view(g)), action)
        if action["type"] == "end_turn":
            break
        apply(g, action)


def _legal_match(action: Action, legal: list[Action]) -> Action | None:
    key = action_key(action)
    for candidate in legal:
        if action_key(candidate) == key:
            return candidate
    return None


def choose(view: GameView, rng: random.Random, budget: Budget) -> Action:
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    planned = _plans.get(fingerprint(view))
    if planned is not None:
        found = _legal_match(planned, legal)
        if found is not None:
            return found
    game = determinize(view, rng)
    if game.phase not in (UPGRADE, MOVE):
        return greedy.as_legal(greedy.act(game), legal)
    turn_start = game.phase == UPGRADE or (
        game.steps == 0 and not game.upgraded and (game.n > 2 or game.moving is None)
    )
    plan = search(game, view, rng, budget, FIRST_SHARE if turn_start else MISS_SHARE)
    _remember_plan(game, plan)
    return greedy.as_legal(plan[0], legal)
