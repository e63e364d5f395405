"""The expert's review of a finished game: for every turn of every seat, what the plan
played was worth and what the expert's best plan was worth, in expected points.

A turn is appraised from the seat's own view at the start of that turn (R-HIDDEN: never
the deck order, never another seat's hidden cards; a finished game's deck is public, but
a turn is judged as it could be seen then). The plans compared are the expert's own
candidates (`expert.candidate_plans`: greedy's whole-turn plan, the best other moves,
rescues when tab 4 threatens the penalty limit) and the plan the seat played: the turn's
actions net of undos (the engine's turn log), which within a turn draw nothing from the
deck, so they replay on any deck the view allows. A plan is valued by the expert's own
`sample_value` on a deck sampled from the unseen cards (HORIZON greedy turns, then
`expert.evaluate`: WIN points times the expected result plus the margin over the best
opponent); the work is counted, never timed (budget.py).

Two steps, on decks of their own. First CHOOSE_SHARE of the work chooses the best plan:
every candidate played on the same decks (common random numbers), successive halving,
the played plan and greedy's never dropped. The chosen plan's mean there is the largest
of several noisy means, too high on average (the winner's curse): valued on those decks,
a turn played as well as the expert's best would still show a loss (measured in
docs/BOTS.md). So the rest of the work values the chosen plan and the played one on
fresh decks, drawn by an RNG of their own, the same decks for both (paired). The turn's
`edge` is the chosen plan's mean less the played plan's there, unbiased, and negative
when the played plan came out ahead; its `loss` is the edge if positive, else 0 (a plan
chosen as the played one loses nothing).

The RNG seeds of a turn come from the review's seed, the turn's number and its seat,
never from the game's seed or deck, so the same game, work and seed give the same review
on any machine, and reordering the unseen cards changes nothing (tests/bots/test_review.py).

`walk(seed, options, actions)` replays a stored game and cuts it into turns;
`appraise_turn(turn, work, review_seed, stop)` (in a bot worker) appraises one;
`summarize(turns, players)` grades them and sums a line per player. The pool runs one
turn per job, so a bot's move or a hint never waits longer than one sampling round
(the job is given up and queued again: `Yielded`).
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from server.rules import Action, Game, GameOptions, GameView, apply, new_game_from, turn_actions
from server.rules import view as seat_view
from server.rules.actions import action_key
from server.rules.state import MOVE, TURN_PHASES, UPGRADE

from . import expert, greedy
from .determinize import determinize, unseen_cards
from .hint import path_of

# The stored review's shape and meaning, stored with it: 2 since its values come from
# fresh decks (a turn's `edge`). A review stored before is served as it was.
FORMAT = 2
# Grades by a turn's loss in expected points (expert.evaluate's scale: a point of margin
# is 1, a game's result WIN = 3 either way, so a turn that turns a win into a loss costs
# about 6). From 200 seeded 4-player games, one seat of each level (bench/review_levels.py,
# docs/BOTS.md), the share of turns at or above each: 1 point, random 88% of its turns,
# greedy 15%, strong 8.5%, expert 8.5%; 2 points, 49 / 4.5 / 2.4 / 3.1%; 4 points,
# 10 / 2.2 / 1.1 / 1.7%. An inaccuracy is an order's point lost; a mistake, two (the
# expert, the reference, is there about one turn in 30: the review's noise and its deeper
# look); a blunder, four or more (a penalty and more, or a game's result).
INACCURACY, MISTAKE, BLUNDER = 1.0, 2.0, 4.0
GRADES = (("blunder", BLUNDER), ("mistake", MISTAKE), ("inaccuracy", INACCURACY))
SIGNIFICANT = 1.0  # and only a loss of this many standard errors of its paired mean
# The share of a turn's work that chooses the best plan; the rest values the chosen plan
# and the played one on fresh decks (see appraise).
CHOOSE_SHARE = 0.5
TOP = 3  # biggest losses per player, linked from the replay
TURNS_MAX = 600  # turns of one game reviewed at most (a long 4-player game has ~120)


class Yielded(Exception):
    """A bot's move (or a hint) came to wait for this worker: the turn is given up and
    queued again, to be appraised from the start (so the review stays reproducible)."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn of one seat: its view at the start, and what it played."""

    number: int  # the game's turn counter (1 = the first turn after the setup)
    seat: int
    at: int  # actions played when the turn began
    end: int  # actions played once it ended (its end_turn included)
    view: GameView
    played: list[Action]  # the turn's actions net of undos, end_turn last


def walk(seed: int, options: Mapping[str, Any], actions: Iterable[tuple[int | None, Action]]
         ) -> list[Turn]:
    """Every turn of a stored game (the setup left out), from the seats' own views."""
    game = new_game_from(seed, GameOptions.from_dict(dict(options)))
    turns: list[Turn] = []
    start: tuple[int, int, int, GameView] | None = None
    for index, (seat, action) in enumerate(actions):
        if game.phase in TURN_PHASES and start is None:
            start = (game.turn, game.current, index, seat_view(game, game.current).copy())
        if action.get("type") == "end_turn" and start is not None:
            played = [*turn_actions(game), action]
            apply(game, action, seat)
            number, who, at, seen = start
            turns.append(Turn(number, who, at, index + 1, seen, played))
            start = None
            if len(turns) >= TURNS_MAX:
                break
            continue
        apply(game, action, seat)
    return turns


def turn_seed(review_seed: int, number: int, seat: int) -> int:
    """A turn's RNG seed: reproducible, unrelated to the deal and the deck."""
    text = f"review:{review_seed}:{number}:{seat}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def _keys(actions: list[Action]) -> tuple:
    return tuple(map(action_key, actions))


def _stream(seed: int, name: str) -> random.Random:
    """An RNG of its own for one use of a turn's seed (choosing, valuing): the streams
    are independent, and each is the same on any machine."""
    text = f"{name}:{seed}".encode()
    return random.Random(int.from_bytes(hashlib.sha256(text).digest()[:8], "big"))


@dataclass(slots=True)
class _Sampler:
    """Plays plans on decks drawn from the unseen cards by its own RNG, counting the work
    (turns simulated, allocations, endings: expert.work_units)."""

    game: Game
    unseen: list[int]  # the cards the seat has not seen, in id order: the shuffle test
    count: int  # the deck's size
    rng: random.Random
    memo: greedy.AllocationMemo
    stop: Callable[[], bool] | None
    turns: int = 0

    @property
    def work(self) -> float:
        return expert.work_units(self.turns, self.memo)

    def round(self, plans: list[expert.Plan]) -> None:
        """Every plan played once more, on one new deck (the same deck for each)."""
        self.rng.shuffle(self.unseen)
        deck = self.unseen[:self.count]
        for plan in plans:
            if self.stop is not None and self.stop():  # a sample is a few ms: yield at once
                raise Yielded
            value, turns = expert.sample_value(self.game, plan, deck, self.memo)
            plan.values.append(value)
            self.turns += turns


def choose(sampler: _Sampler, plans: list[expert.Plan], mine: int, work: float) -> int:
    """The expert's best plan, by successive halving over `work` units of sampled decks;
    the played plan (`mine`) and greedy's are never dropped. The chosen plan's mean here
    is the best of several noisy means, too high on average (the winner's curse): these
    decks choose, they never value."""
    keep = sorted({0, mine})
    alive = list(range(len(plans)))
    stages = max(1, (len(plans) - len(keep)).bit_length())
    per_stage = work / stages
    start, stage_start, rounds = sampler.work, 0.0, 0
    while True:
        sampler.round([plans[i] for i in alive])
        done = sampler.work - start
        rounds += 1
        if done >= work:
            break
        others = [i for i in alive if i not in keep]
        if done - stage_start >= per_stage and rounds >= expert.MIN_ROUNDS and len(others) > 1:
            others.sort(key=lambda i: (-plans[i].mean, i))
            alive = sorted([*keep, *others[: max(1, len(others) // 2)]])
            stage_start, rounds = done, 0
    return max(alive, key=lambda i: (plans[i].mean, i == mine, -i))


def value(sampler: _Sampler, plans: list[expert.Plan], work: float) -> None:
    """`plans` valued on `work` units of decks of their own (at least MIN_ROUNDS), the
    same decks for each (paired)."""
    start, rounds = sampler.work, 0
    while rounds < expert.MIN_ROUNDS or sampler.work - start < work:
        sampler.round(plans)
        rounds += 1


def appraise(view: GameView, played: list[Action], seed: int, work: float,
             stop: Callable[[], bool] | None = None) -> dict[str, Any]:
    """The played plan's value and the best plan's, from `view` (the seat's own, at the
    start of its turn), at `work` of the expert's FULL_WORK: CHOOSE_SHARE of it chooses
    the best plan, the rest values it and the played one on fresh decks (paired). `stop`
    (the pool's) raises Yielded: the caller queues the turn again."""
    rng = _stream(seed, "choose")
    game = determinize(view, rng)
    plans = expert.candidate_plans(game) if game.phase in (UPGRADE, MOVE) else []
    mine = next((i for i, p in enumerate(plans) if _keys(p.actions) == _keys(played)), None)
    if mine is None:
        plans.append(expert.Plan(list(played), "played"))
        mine = len(plans) - 1
    if len(plans) == 1:
        return {"loss": 0.0, "edge": 0.0, "se": 0.0, "played": None, "best": None,
                "plans": 1, "samples": 0, "best_plan": None}
    planned = max(1.0, expert.FULL_WORK * work)
    memo = greedy.AllocationMemo()
    chooser = _Sampler(game, unseen_cards(view), view["deck"], rng, memo, stop)
    best = choose(chooser, plans, mine, CHOOSE_SHARE * planned)
    valuer = _Sampler(game, unseen_cards(view), view["deck"], _stream(seed, "value"), memo,
                      stop)
    fresh = [expert.Plan(plans[mine].actions, "played")]
    if best != mine:
        fresh.append(expert.Plan(plans[best].actions, plans[best].label))
    value(valuer, fresh, planned - chooser.work)
    edge, se = expert.paired(fresh[-1].values, fresh[0].values)
    return {"loss": round(max(0.0, edge), 3), "edge": round(edge, 3),
            "se": round(se, 3) if math.isfinite(se) else None,
            "played": round(fresh[0].mean, 3), "best": round(fresh[-1].mean, 3),
            "plans": len(plans), "samples": fresh[0].samples,
            "best_plan": None if best == mine else plans[best].actions}


# --- one turn, in a worker --------------------------------------------------------------


def appraise_turn(turn: Turn, work: float, review_seed: int, yields: bool = True,
                  deadline: float | None = None,
                  stop: Callable[[], bool] | None = None) -> dict[str, Any]:
    """Entry point for pool workers: one turn's appraisal, with the outlines the replay
    draws (the expert's plan beside the played one) and the why. `deadline` is ignored:
    a review is never cut by time (it would not be reproducible); `stop` gives it up
    (Yielded), unless `yields` is False (a turn given up too often: see reviews.py)."""
    del deadline
    if not yields:
        stop = None
    found = appraise(turn.view, turn.played, turn_seed(review_seed, turn.number, turn.seat),
                     work, stop)
    entry: dict[str, Any] = {
        "turn": turn.number, "seat": turn.seat, "at": turn.at, "end": turn.end,
        "played": found["played"], "best": found["best"], "loss": found["loss"],
        "edge": found["edge"], "se": found["se"], "plans": found["plans"],
        "samples": found["samples"],
    }
    plan = found["best_plan"]
    if plan is not None:
        entry["expert"] = outline(plan)
        entry["mine"] = outline(turn.played)
        entry["why"] = why(turn.view, plan, turn.played)
    return entry


def outline(plan: list[Action]) -> dict[str, Any]:
    """What the replay outlines of a plan: its move's meeple and cells, the cups poured
    into, the orders served, a tile taken."""
    meeple = next((a["meeple"] for a in plan if a["type"] == "choose_meeple"), None)
    cups = sorted({a["cup"] for a in plan if a["type"] in ("pour", "empty")})
    return {
        "meeple": meeple, "path": path_of([a for a in plan
                                           if a["type"] not in ("upgrade", "skip_upgrade")]),
        "cups": cups, "serve": [a["card"] for a in plan if a["type"] == "serve"],
        "tile": next((a["tile"] for a in plan if a["type"] == "upgrade"), None),
    }


def _served(view: GameView, plan: list[Action]) -> list[tuple[str, int]]:
    """(name, tab counted from 1) of the orders a plan serves."""
    seat = view["seat"]
    assert seat is not None  # a seat's own view
    out = []
    for action in plan:
        if action["type"] != "serve":
            continue
        for t, tab in enumerate(view["players"][seat]["tabs"]):
            for card in tab:
                if card["id"] == action["card"]:
                    out.append((card["name"], t + 1))
    return out


def _gains(plan: list[Action]) -> dict[str, int]:
    total: dict[str, int] = {}
    for action in plan:
        if action["type"] == "step":
            for name, n in (action.get("gain") or {}).items():
                total[name] = total.get(name, 0) + n
    return dict(sorted(total.items()))


def why(view: GameView, best: list[Action], played: list[Action]) -> dict[str, Any]:
    """One line of why the expert's plan is better, as a sentence key `review.why.<kind>`
    and its parameters, in the board's own words (orders, tabs, ingredients, tiles; a
    cell is said by its ingredient, never by its coordinates)."""
    up_best = next((a for a in best if a["type"] in ("upgrade", "skip_upgrade")), None)
    up_mine = next((a for a in played if a["type"] in ("upgrade", "skip_upgrade")), None)
    if up_best is not None and up_mine is not None and up_best != up_mine:
        if up_best["type"] == "upgrade":
            return {"key": "review.why.upgrade", "args": {"tile": up_best["tile"]}}
        return {"key": "review.why.skip_upgrade", "args": {}}
    served, mine = _served(view, best), _served(view, played)
    mine_names = {name for name, _ in mine}
    saved = [name for name, tab in served if tab == 4 and name not in mine_names]
    if saved:
        return {"key": "review.why.save", "args": {"orders": saved}}
    if len(served) > len(mine):
        return {"key": "review.why.serve_more",
                "args": {"orders": [name for name, _ in served], "mine": len(mine)}}
    path, gains = path_of(best), _gains(best)
    rush = sum(1 for a in best if a["type"] == "step" and a.get("rush"))
    if path != path_of(played) and path:
        args: dict[str, Any] = {"cell": path[-1], "gains": gains}
        if rush:
            return {"key": "review.why.rush", "args": {**args, "rush": rush}}
        return {"key": "review.why.gather", "args": args}
    if any(a["type"] in ("pour", "empty", "return") for a in best):
        return {"key": "review.why.pour", "args": {}}
    return {"key": "review.why.later", "args": {}}


# --- the whole review ---------------------------------------------------------------------


def grade(entry: Mapping[str, Any]) -> str | None:
    """inaccuracy, mistake or blunder (or None) by the turn's loss, if it is clear of the
    estimate's noise (SIGNIFICANT standard errors)."""
    loss, se = entry["loss"], entry.get("se")
    if se is not None and loss < SIGNIFICANT * se:
        return None
    return next((name for name, at in GRADES if loss >= at), None)


def summarize(entries: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """Grades each turn; per player the turns, the total and mean loss, the count of each
    grade and the TOP biggest losses (turn indexes into `turns`)."""
    turns = []
    for entry in entries:
        marked = {**entry, "grade": grade(entry)}
        if marked["grade"] is None:
            marked.pop("expert", None)
            marked.pop("mine", None)
            marked.pop("why", None)
        turns.append(marked)
    per = []
    for seat in range(players):
        mine = [i for i, e in enumerate(turns) if e["seat"] == seat]
        lost = sum(turns[i]["loss"] for i in mine)
        counts = {name: sum(1 for i in mine if turns[i]["grade"] == name) for name, _ in GRADES}
        worst = sorted((i for i in mine if turns[i]["grade"] is not None),
                       key=lambda i: (-turns[i]["loss"], i))[:TOP]
        per.append({"seat": seat, "turns": len(mine), "lost": round(lost, 2),
                    "per_turn": round(lost / len(mine), 3) if mine else 0.0,
                    **counts, "worst": worst})
    return {"format": FORMAT, "turns": turns, "players": per}


def review_game(seed: int, options: Mapping[str, Any],
                actions: Iterable[tuple[int | None, Action]], work: float, review_seed: int,
                players: int) -> dict[str, Any]:
    """The whole review in this process (bench/, tests): every turn appraised in order."""
    entries = [appraise_turn(t, work, review_seed) for t in walk(seed, options, actions)]
    review = summarize(entries, players)
    review.update(work=work, seed=review_seed)
    return review


def walk_in_worker(seed: int, options: Mapping[str, Any], actions: list,
                   deadline: float | None = None,
                   stop: Callable[[], bool] | None = None) -> list[Turn]:
    """Entry point for pool workers: `walk`, off the event loop."""
    del deadline, stop
    return walk(seed, options, actions)
