"""The expert bot: determinized Monte-Carlo search over whole-turn plans (R-HIDDEN).

At the first decision of its turn the bot lists candidate plans for the whole turn: its
upgrade choice (greedy's rule, its own order of tiles, at most MAX_TILES), then the
ENDINGS best distinct ways to move by greedy's measure (and the RUSH_ENDINGS best that pay
Rush Tokens for extra steps: `Style.rush_tables`), each followed by greedy's pour and
serves; after the best few moves also other pours (`Style`: greedy's allocation with one of
its target orders left out, so that the turn's plan includes which orders to work and
which to let fall). It samples decks from the cards it has not seen (the deck is the only hidden
thing), plays every plan on each sampled deck (common random numbers: plans differ by the
plan, not by the luck of the draw), lets greedy play every seat for HORIZON more turns,
and scores the position for itself against its best opponent (`evaluate`): WIN times its
expected result, the real one if the game ended, else value.py's chance of winning from
there (2 players only: 4-player games did better on the margin alone), plus its margin in
points (the score as it stands, plus what is coming: orders on the tabs weighted by their
chance of becoming penalties, cups on course for an order, Rush Tokens). The penalty race
is in both: the rollouts show a plan that deals the opponent orders they cannot serve, or
leaves ours to fall off tab 4, and the win chance knows that whoever reaches the fifth
penalty first mostly loses (before the model, 100 2-player games: the expert lost 29 of
the 33 games it closed, and won 56 of the 67 greedy closed).

Work is counted, not timed (budget.py), in allocations' worth of CPU (`work_units`: the
simulated turns, the pour allocations computed and the move endings scored, which is
where a search spends its time; counting turns alone let positions with many endings,
Diagonal Movement say, run past 1 s): FULL_WORK units at a budget of 1.0, spent by
successive halving (every plan gets the same rounds, then the worse half of the
others is dropped). Greedy's plan is never dropped, and another replaces it only when it
beats it on the same decks by MARGIN standard errors: with a dozen samples a plan, noise
would otherwise choose worse plans about as often as better ones. The same view, budget
and RNG seed give the same decision on any machine; and since decks are only ever sampled
from the unseen cards in id order, the decision is the same for every real deck
consistent with the view.

The penalty race, made explicit (endgame.py): when the orders on tab 4 would bring the
fifth penalty at the end of the turn, the candidates also include the best rescues (moves
that serve those orders with any Rush Tokens up to endgame.RESCUE_RUSH and cups emptied
for them), and in the rollouts our own turns play the best rescue (at most
ROLLOUT_RESCUE_RUSH tokens) where greedy would not look for one: a rescue now is worth
little if the rollout then takes the fifth penalty next turn anyway. The level `expert`
lets the other seats' rollout turns rescue too (`Style.opponent_rescues`): a race is
judged against an opponent that rescues, not against greedy, who never does. Its work is
counted too (path steps, STEPS_PER_UNIT, measured at about 1.7 us a step).

`Style` tells the expert's versions apart: `EXPERT_1` (the level `expert-1`, kept for
comparisons) is the expert before issue 48, on the same code path; `EXPERT` is the level
`expert`.

Later decisions of the turn follow the plan, looked up by the public view (per process,
as strong does); a miss plans again with MISS_SHARE of the work. `decide` returns the
action with a one-line reason: what a hint for a learning player needs.

Measured strength, the tuning history and how to reproduce the figures: docs/BOTS.md.
"""

from __future__ import annotations

import math
import random
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from server.rules import Action, Game, GameView, apply, public_view
from server.rules.actions import action_key
from server.rules.data import INGREDIENTS, UPGRADE_INDEX
from server.rules.scoring import total
from server.rules.state import MOVE, OVER, POUR, UPGRADE, Player

from . import endgame, greedy, rollout, value
from . import multiset as ms
from .budget import Budget, log_cut
from .determinize import determinize, unseen_cards
from .orders import Allocation, Allocator, player_orders
from .paths import Ending
from .strong import fingerprint

LEVEL = "expert"
FULL_WORK = 7000  # work units (work_units) per search at budget 1.0: ~0.35 s of one core here
TURN_UNITS = rollout.TURN_UNITS  # the work counting's constants (rollout.work_units)
ENDINGS_PER_UNIT = rollout.ENDINGS_PER_UNIT
STEPS_PER_UNIT = rollout.STEPS_PER_UNIT
# A search stops in the middle of a round once its work reaches WORK_CAP times the planned
# work (that round's samples dropped). Checked only as rounds ended, rollouts full of
# rescues for a seat with many Rush Tokens and three tab-4 orders made one round cost 2-3
# times the planned work (a decision of 1.2 s, issue 48's seventh try; 2 searches in 198
# went past twice the plan, docs/BOTS.md).
WORK_CAP = 2.0
MISS_SHARE = 0.1  # of the work, for a search that starts mid-turn (a plan not found)
MIN_ROUNDS = 2  # rounds every plan gets before any is dropped
MARGIN = 1.0  # standard errors by which a plan must beat greedy's to replace it
ENDINGS = 8  # moves compared per upgrade choice
# And the best RUSH_ENDINGS moves that spend Rush Tokens on extra steps (at most RUSH_STEPS)
# for more ingredients, each token valued at RUSH_STEP_COST, when they are not among those
# already: greedy spends tokens only to serve more, and ends 4-player games with 2.4 unused.
# 4 players: 60.4% of 400 games of seed 2027 with 4 (56.1% without); paired on 200 games
# of seed 31, +5.2% (standard error 3.8%). At RUSH_TABLES only for expert-1; the expert
# pays at 2 players too (`Style.rush_tables`).
RUSH_ENDINGS = 4
RUSH_TABLES = (3, 4)
RUSH_STEPS = 2
RUSH_STEP_COST = 0.3
HORIZON = 4  # turns played by greedy after ours, at least until it is our turn again
# Rollouts go on to the end of the game once the token is closed or the deck holds END_DECK
# cards or fewer, for at most END_TURNS more turns (None: off; 4 players, 200 paired games
# of seed 31: +1.7% with END_DECK 8, standard error 2.5%, not kept).
END_DECK: int | None = None
END_TURNS = 12
LOOKAHEAD = 0.0  # weight of greedy's value of our next move
UPGRADE_SEARCH = False  # also try the other upgrade choice (short looks undervalue tiles)
RISK = 0.6  # weight of the expected penalties from the orders on the tabs
CUP_SHARE = 0.15  # a cup part-way to an order: this share of a point per token
RUSH_VALUE = 0.2
WIN = 3.0  # a finished game won (lost) outweighs a few points either way
POINTS = 1.0  # weight of the margin in points
RESCUE = True  # offer endgame.py's rescues when tab 4 threatens the penalty limit
RESCUE_SLACK = 0  # offer them too when tab 4 would bring us this close to the limit
RESCUE_ROLLOUTS = True  # and play the best rescue in our own rollout turns
ROLLOUT_RESCUE_RUSH = 3  # with at most this many Rush Tokens (a cheaper search)
OPPONENT_RUSH = 0  # Rush-paid steps the other seats consider in rollouts (greedy: 2)
OWN_RUSH = 0  # and our own rollout turns (at RUSH_TABLES: RUSH_ROLLOUT)
# At RUSH_TABLES our own rollout turns pay for up to this many steps as greedy does (to
# serve more), as the expert that spends its tokens will. 4 players, with RUSH_ENDINGS 4:
# 67.0% of 400 games of seed 2027 (60.4% without, same deals: +6.6%, standard error 3.0%).
RUSH_ROLLOUT = 2
# Unfinished games at these table sizes: value.py's chance of winning (else the margin
# only). 4 players did better without it: 61.0% of 400 games before the model, 55.0%
# with it (seed 2027); paired on 100 deals (seed 31), 64.5% without, 59.2% with.
VALUE_MODEL = (2,)
# Without the model, the chance of winning may be read off the standings: the product over
# the opponents of a logistic of the gap, SOFT_SCALE points wide (None: the margin alone).
# 4 players, paired on seed 31: see docs/BOTS.md (not kept).
SOFT_SCALE: float | None = None
CACHE_SIZE = 512
# Greedy-vs-greedy, 100 games (2 players): this order won 56% [46, 65] against greedy's.
UPGRADE_PREFERENCE = (
    "double_corners", "double_specialties", "double_meeples", "diagonal_movement",
)
# At most two tiles (Double Corners, Double Specialties): each costs three cards for two
# points, and the expert's third and fourth did not pay back. 2 players, 100 paired games
# (seed 31): 79.0% with two, 74.0% with three, 72.5% with four. In 100 4-player games no
# seat reached a third before the deck was short (UPGRADE_DECK), so none changed.
MAX_TILES = 2
UPGRADE_DECK = greedy.EARLY_DECK



@dataclass(frozen=True, slots=True)
class Style:
    """What tells the expert's versions apart. `EXPERT_1` is the expert as it stood before
    issue 48 (kept as the level `expert-1` so that the two can be compared on the same
    deals); `EXPERT` adds the searches below. Every other setting is this module's."""

    level: str
    # The POUR_ENDINGS best moves also get up to POURS other pours as plans of their own:
    # greedy's allocation with one of its target orders left out (that order is let fall,
    # or left for later, and the hand goes to the others), the rest returned (R-POUR).
    pour_endings: int = 0
    pours: int = 0
    # The other seats' rollout turns play the best rescue too (endgame.py) when their
    # tab-4 orders threaten the penalty limit, as greedy never does: the penalty race is
    # then judged against an opponent that rescues.
    opponent_rescues: bool = False
    # Rush-paid steps every seat's rollout turns consider, as greedy's move does (None:
    # OPPONENT_RUSH for the other seats, own_rush for ours). Issue 48, third session:
    # replayed 2-player games against expert-1 (seed 4848), the bots really served 1.35
    # orders a turn (1.93 once someone holds 3 penalties) where the rollout turn from the
    # same position served 1.15 (1.59) without Rush and 1.37 (1.85) with 2 steps.
    # With 2, paired on 200 deals of seed 4848 against expert-1: 57.0% against 53.2%
    # (+3.8%, standard error 4.6%), the fifth penalty alone as often (36.5% against
    # 35.0%), CPU max 0.88 s (the counting misses part of its cost): not kept.
    rollout_rush: int | None = None
    # Table sizes at which the plans include the RUSH_ENDINGS best Rush-paid moves.
    rush_tables: tuple[int, ...] = RUSH_TABLES


EXPERT_1 = Style("expert-1")
# Measured against expert-1 (2 players, seed 4848, paired deals): the best 3 moves with 2
# other pours each, and races played out from 3 penalties for 8 turns, won 43.9% of 33
# games [28.5, 60.6] (45.3% of the 16 whole blocks) and took the fifth penalty alone in
# 42% of them: the extra plans cut the decks each plan is sampled on from 8-11 to 2-7,
# and the race rollouts let greedy play the opponent, who never rescues (stopped, not
# kept). One other pour after the best move keeps the samples (6-10). Retried with the
# other seats rescuing, neither the race rollouts nor a first screen of the plans won on
# seed 4848 (docs/BOTS.md, issue 48's second session; both gone from the code).
# The other seats rescuing in the rollouts, paired on the same 100 deals of seed 4848
# (tuning) against expert-1: 50.5% with, 44.5% without (+6.0%, standard error 3.8%; of
# the games only one of the two won, with won 12, without 6); the fifth penalty taken
# alone as often (34 games against 35) but less often lost (won 17.6% against 5.7%).
# Rush-paid plans and own rollout turns at 2 players too (`rush_tables`; issue 48's
# seventh try, docs/BOTS.md): against expert-1, paired on 200 deals of seed 4848 (tuning),
# 64.5% against 53.2% (+11.2%, standard error 4.2%); on 400 fresh deals (seed 5101) 60.9%
# against 47.6% before. Against greedy (5105) 80.2% against 79.8%: no gain there.
EXPERT = Style(LEVEL, pour_endings=1, pours=1, opponent_rescues=True,
               rush_tables=(2, 3, 4))

_plans: OrderedDict[tuple[str, str], Action] = OrderedDict()


@dataclass(slots=True)
class Plan:
    actions: list[Action]  # the rest of the turn, end_turn included
    label: str  # what the plan does, for the reason line
    values: list[float] = field(default_factory=list)  # one per sampled deck, in order

    @property
    def samples(self) -> int:
        return len(self.values)

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else float("-inf")


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action
    why: str


def upgrade_action(game: Game) -> Action:
    """Upgrade while the deck holds UPGRADE_DECK cards or more (greedy's rule), in the
    expert's order of tiles, at most MAX_TILES of them."""
    player = game.players[game.current]
    if len(game.deck) < UPGRADE_DECK or sum(player.upgrades) >= MAX_TILES:
        return {"type": "skip_upgrade"}
    tile = next(t for t in UPGRADE_PREFERENCE if not player.upgrades[UPGRADE_INDEX[t]])
    return {"type": "upgrade", "tile": tile}


def _upgrade_choices(game: Game) -> list[Action]:
    if game.phase != UPGRADE:
        return []
    player = game.players[game.current]
    first = upgrade_action(game)
    choices = [first]
    if first["type"] == "upgrade":
        choices.append({"type": "skip_upgrade"})
    elif sum(player.upgrades) < MAX_TILES:
        for tile in UPGRADE_PREFERENCE:
            if not player.upgrades[UPGRADE_INDEX[tile]]:
                choices.append({"type": "upgrade", "tile": tile})
                break
    return choices


def _finish_plan(
    game: Game, meeple: int, ending: Ending, pour: Allocation | None = None,
    exact: bool = False,
) -> list[Action]:
    """The move to `ending`, then `pour`'s emptying and pouring if given, then greedy's
    pour of what is left (`exact`: `pour`'s returns instead), its serves and the end of
    the turn."""
    g = game.clone()
    actions: list[Action] = []
    seat, turn = g.current, g.turn
    poured: list[Action] = []
    while g.current == seat and g.turn == turn and g.phase != OVER:
        if g.phase == MOVE:
            action = greedy.move_action(g, meeple, ending)
            if action["type"] == "step":
                ending = replace(ending, path=ending.path[1:])
        elif g.phase == POUR and pour is not None:
            player = g.players[seat]
            poured = [{"type": "empty", "cup": k} for k, c in enumerate(pour.cups)
                      if c.empty_first and player.cups[k]]
            poured += [{"type": "pour", "ingredient": INGREDIENTS[ing], "cup": k}
                       for k, c in enumerate(pour.cups)
                       for ing, count in enumerate(ms.unpack(c.add)) for _ in range(count)]
            if exact:
                poured += [{"type": "return", "ingredient": INGREDIENTS[ing]}
                           for ing, count in enumerate(ms.unpack(pour.returned))
                           for _ in range(count)]
                poured.append({"type": "done_pouring"})
            pour = None
            continue
        elif poured:
            action = poured.pop(0)
        else:
            action = greedy.act(g)
        actions.append(action)
        apply(g, action)
    return actions


def _label(prefix: list[Action], served: int, rush: int, saved: int = 0) -> str:
    parts = []
    if prefix and prefix[0]["type"] == "upgrade":
        parts.append(f"upgrade {prefix[0]['tile'].replace('_', ' ')}")
    if saved:
        parts.append(f"save {saved} order{'s' if saved > 1 else ''} from tab 4")
    else:
        parts.append(f"serve {served}" if served else "serve none")
    if rush:
        parts.append(f"spend {rush} rush")
    return ", ".join(parts)


def _other_pours(base: Game, meeple: int, ending: Ending, limit: int) -> list[Allocation]:
    """Up to `limit` pours other than greedy's after this move: greedy's allocation with
    one of its target orders left out, distinct from greedy's and from each other."""
    g = base.clone()
    rollout.play_move(g, meeple, ending.path)
    if g.phase != POUR:
        return []
    player = g.players[g.current]
    orders = player_orders(player)
    hand = ms.pack(g.hand)
    first = Allocator(player.cups, orders).allocate(hand)
    seen = {_pour_key(first)}
    found: list[Allocation] = []
    for target in [c.target for c in first.cups if c.target is not None]:
        alloc = Allocator(player.cups, [o for o in orders if o.card != target]).allocate(hand)
        key = _pour_key(alloc)
        if key not in seen:
            seen.add(key)
            found.append(alloc)
            if len(found) >= limit:
                break
    return found


def _pour_key(alloc: Allocation) -> tuple:
    return tuple((c.empty_first, c.add) for c in alloc.cups), alloc.returned


def candidate_plans(game: Game, style: Style = EXPERT) -> list[Plan]:
    """Whole-turn plans, greedy's first: upgrade choices x the best ENDINGS moves, other
    pours after the best few (`style`), and when the tab-4 orders threaten the penalty
    limit, the best rescues (endgame.py)."""
    plans: list[Plan] = []
    upgrades: list[Action | None] = [*_upgrade_choices(game)] or [None]
    if not UPGRADE_SEARCH:
        upgrades = upgrades[:1]
    for up in upgrades:
        base = game.clone()
        prefix: list[Action] = []
        if up is not None:
            apply(base, up)
            prefix.append(up)
        choices = greedy.best_endings(base, ENDINGS)
        if RUSH_ENDINGS and game.n in style.rush_tables:
            rushed = greedy.best_endings(base, ENDINGS + RUSH_ENDINGS, RUSH_STEPS,
                                         rush_cost=RUSH_STEP_COST)
            known_endings = {(c.meeple, c.ending.path) for c in choices}
            choices += [c for c in rushed if c.ending.rush
                        and (c.meeple, c.ending.path) not in known_endings][:RUSH_ENDINGS]
        for choice in choices:
            plans.append(Plan(prefix + _finish_plan(base, choice.meeple, choice.ending),
                              _label(prefix, choice.served, choice.ending.rush)))
        if style.pours:
            known_plans = {tuple(map(action_key, p.actions)) for p in plans}
            for choice in choices[: style.pour_endings]:
                for alloc in _other_pours(base, choice.meeple, choice.ending, style.pours):
                    actions = prefix + _finish_plan(base, choice.meeple, choice.ending, alloc,
                                                    exact=True)
                    key = tuple(map(action_key, actions))
                    if key not in known_plans:
                        known_plans.add(key)
                        label = _label(prefix, alloc.served, choice.ending.rush)
                        plans.append(Plan(actions, label + ", another pour"))
        if RESCUE and endgame.at_risk(base, RESCUE_SLACK):
            known = {tuple(map(action_key, p.actions)) for p in plans}
            for r in endgame.rescues(base):
                actions = prefix + _finish_plan(base, r.meeple, r.ending, r.pour)
                if tuple(map(action_key, actions)) not in known:
                    plans.append(Plan(actions, _label(prefix, r.saved, r.rush, r.saved)))
    return plans


def standing(player: Player) -> float:
    """A player's score as it stands plus what is coming."""
    return (total(player) - RISK * value.risk(player)
            + CUP_SHARE * value.cup_progress(player) + RUSH_VALUE * player.rush)


def evaluate(game: Game, seat: int) -> float:
    """The position for `seat`: WIN times its expected result (+1 a win, -1 a loss: a
    finished game's, or value.py's chance of winning from here) plus POINTS times its
    margin over its best opponent (final scores, or standings)."""
    if game.phase == OVER:
        assert game.result is not None
        totals = [s["total"] for s in game.result["scores"]]
        best_other: float = max(t for i, t in enumerate(totals) if i != seat)
        winners = game.result["winners"]
        share = 1.0 / len(winners) if seat in winners else 0.0
        return WIN * (2 * share - 1) + POINTS * (totals[seat] - best_other)
    standings = [standing(p) for p in game.players]
    mine = standings[seat]
    best_other = max(s for i, s in enumerate(standings) if i != seat)
    chance = value.win_chance(game, seat) if game.n in VALUE_MODEL else None
    if chance is None and SOFT_SCALE is not None:
        chance = _chance_ahead(standings, seat, SOFT_SCALE)
    expected = 0.0 if chance is None else 2 * chance - 1
    return WIN * expected + POINTS * (mine - best_other)


def _chance_ahead(standings: list[float], seat: int, scale: float) -> float:
    """The chance `seat` stays ahead of every opponent, each gap in standing read as a
    logistic `scale` points wide, the opponents taken as independent."""
    chance = 1.0
    for i, other in enumerate(standings):
        if i != seat:
            chance /= 1.0 + math.exp(max(-30.0, min(30.0, (other - standings[seat]) / scale)))
    return chance


def sample_value(
    game: Game, plan: Plan, deck: list[int], memo: greedy.AllocationMemo,
    style: Style = EXPERT,
) -> tuple[float, int]:
    """(value, simulated turns): the plan played on `deck`, then HORIZON greedy turns
    (`style`: the other seats may rescue too), then what greedy's
    best move would make of our next turn (LOOKAHEAD of its value)."""
    seat = game.current
    g = game.clone()
    g.deck = deck[:]
    for action in plan.actions:
        apply(g, action)
    turns = 1
    while _rolls_on(g, seat, turns):
        if g.current != seat:
            _opponent_turn(g, memo, style)
        else:
            own_turn(g, memo, style)
        turns += 1
    value = evaluate(g, seat)
    if g.phase != OVER and LOOKAHEAD:
        if g.phase == UPGRADE:
            apply(g, greedy.upgrade_action(g))
        value += LOOKAHEAD * greedy.best_endings(g, 1, rollout.ROLLOUT_RUSH, memo)[0].value
        turns += 1
    return value, turns


def own_turn(game: Game, memo: greedy.AllocationMemo, style: Style = EXPERT) -> None:
    """Our own turn in a rollout: the best rescue when the tab-4 orders threaten the
    penalty limit, else greedy's turn with the expert's upgrade rule and Rush
    (`style.rollout_rush`, else own_rush)."""
    rush = own_rush(game, style) if style.rollout_rush is None else style.rollout_rush
    if not _rescue_turn(game, memo, upgrade_action, rush):
        rollout.finish_turn(game, memo, rush, upgrade_action)


def _opponent_turn(game: Game, memo: greedy.AllocationMemo, style: Style) -> None:
    """Another seat's turn in a rollout: greedy's, or (`style.opponent_rescues`) the best
    rescue when its tab-4 orders threaten the penalty limit; Rush-paid steps as
    `style.rollout_rush` says (else OPPONENT_RUSH)."""
    rush = OPPONENT_RUSH if style.rollout_rush is None else style.rollout_rush
    if not (style.opponent_rescues
            and _rescue_turn(game, memo, greedy.upgrade_action, rush)):
        rollout.finish_turn(game, memo, rush)


def _rolls_on(game: Game, seat: int, turns: int) -> bool:
    """Whether a rollout goes on: HORIZON turns and on until our turn, then (END_DECK)
    on to the end of a game about to end."""
    if game.phase == OVER:
        return False
    if turns <= HORIZON or game.current != seat:
        return True
    return (END_DECK is not None and turns <= HORIZON + END_TURNS
            and (game.closed or len(game.deck) <= END_DECK))


def own_rush(game: Game, style: Style = EXPERT) -> int:
    """The Rush-paid steps our own rollout turns consider at this table size."""
    return RUSH_ROLLOUT if game.n in style.rush_tables else OWN_RUSH


def _rescue_turn(
    game: Game, memo: greedy.AllocationMemo, upgrade: Callable[[Game], Action], rush: int,
) -> bool:
    """In a rollout, a turn when the tab-4 orders threaten the penalty limit: play the
    best rescue (endgame.py) if there is one, else the turn with `upgrade`'s rule and
    `rush` Rush-paid steps; False (nothing played) when no such threat."""
    if not RESCUE_ROLLOUTS or not endgame.at_risk(game):
        return False
    if game.phase == UPGRADE:
        apply(game, upgrade(game))
    found = endgame.rescues(game, 1, ROLLOUT_RESCUE_RUSH, memo)
    if not found:
        rollout.finish_turn(game, memo, rush, upgrade)
        return True
    for action in _finish_plan(game, found[0].meeple, found[0].ending, found[0].pour):
        apply(game, action)
    return True


work_units = rollout.work_units


def search(
    game: Game, view: GameView, rng: random.Random, budget: Budget, share: float,
    style: Style = EXPERT,
) -> tuple[Plan, int]:
    """The best plan by successive halving over sampled decks, within the work budget;
    and how many plans were compared.

    Greedy's plan (the first) is never dropped, and another plan replaces it only if it
    beats it on the same decks by more than MARGIN standard errors: with a dozen samples
    a plan, noise would otherwise pick worse plans about as often as better ones."""
    plans = candidate_plans(game, style)
    if len(plans) == 1:
        return plans[0], 1
    unseen = unseen_cards(view)
    deck_count = view["deck"]
    planned = max(1, int(FULL_WORK * budget.work * share))
    turns_done = 0
    memo = greedy.AllocationMemo()
    alive = list(range(len(plans)))
    # Halve after this many rounds of the alive plans: split the work evenly by stage.
    stages = max(1, (len(plans) - 1).bit_length())
    per_stage = planned / stages
    stage_start = 0.0
    rounds_in_stage = 0
    while True:
        rng.shuffle(unseen)
        deck = unseen[:deck_count]
        cut = False
        for i in alive:
            value, turns = sample_value(game, plans[i], deck, memo, style)
            plans[i].values.append(value)
            turns_done += turns
            work = work_units(turns_done, memo)
            cut = work >= WORK_CAP * planned or budget.expired()
            if cut:
                break
        if cut:  # the samples of a round cut short are dropped
            whole = len(plans[alive[-1]].values)  # the rounds every alive plan has
            for i in alive:
                del plans[i].values[whole:]
            if budget.expired():
                log_cut(style.level, int(work), planned, budget)
            break
        stage_work = work - stage_start
        rounds_in_stage += 1
        if work >= planned:
            break
        if stage_work >= per_stage and rounds_in_stage >= MIN_ROUNDS and len(alive) > 2:
            rest = sorted(alive[1:], key=lambda i: (-plans[i].mean, i))
            alive = [0, *sorted(rest[: max(1, len(rest) // 2)])]
            stage_start, rounds_in_stage = work, 0
    return plans[_pick(plans, alive)], len(plans)


def _pick(plans: list[Plan], alive: list[int]) -> int:
    """The alive plan with the best paired edge over greedy's, if it is a clear one."""
    base = plans[0].values
    if not base:  # not one whole round
        return 0
    best, best_edge = 0, 0.0
    for i in alive[1:]:
        mean, se = paired(plans[i].values, base)
        if mean > MARGIN * se and mean > best_edge:  # se is inf below 2 samples
            best, best_edge = i, mean
    return best


def paired(a: list[float], b: list[float]) -> tuple[float, float]:
    """Mean of a - b over the same decks (the alive plans all have every one) and its
    standard error (inf below 2 samples)."""
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def _why(best: Plan, plans_count: int) -> str:
    if not best.samples:
        return (f"{best.label}: greedy's plan, the search of {plans_count} plans cut in its "
                "first round")
    return (f"{best.label}: best of {plans_count} plans over {best.samples} sampled decks "
            f"(mean edge {best.mean:+.2f})")


def _remember_plan(game: Game, actions: list[Action], style: Style) -> None:
    g = game.clone()
    for action in actions:
        if g.phase == OVER:
            break
        key = (style.level, fingerprint(public_view(g)))
        _plans[key] = action
        _plans.move_to_end(key)
        while len(_plans) > CACHE_SIZE:
            _plans.popitem(last=False)
        if action["type"] == "end_turn":
            break
        apply(g, action)


def decide(
    view: GameView, rng: random.Random, budget: Budget, use_plans: bool = True,
    style: Style = EXPERT,
) -> Decision:
    """The expert's action for this view, and one line saying why (`style`: which
    version of the expert)."""
    legal = view["legal"]
    if len(legal) == 1:
        return Decision(legal[0], "the only legal action")
    if use_plans:
        planned = _plans.get((style.level, fingerprint(view)))
        if planned is not None:
            for candidate in legal:
                if action_key(candidate) == action_key(planned):
                    return Decision(candidate, "following the plan made at the start of the turn")
    game = determinize(view, rng)
    if game.phase not in (UPGRADE, MOVE):
        return Decision(greedy.as_legal(greedy.act(game), legal), "greedy: serve and pour")
    turn_start = game.phase == UPGRADE or (
        game.steps == 0 and not game.upgraded and (game.n > 2 or game.moving is None)
    )
    best, compared = search(game, view, rng, budget, 1.0 if turn_start else MISS_SHARE, style)
    _remember_plan(game, best.actions, style)
    return Decision(greedy.as_legal(best.actions[0], legal), _why(best, compared))


def choose(view: GameView, rng: random.Random, budget: Budget) -> Action:
    # EXPERT looked up at the call: bench/bots_paired.py --style varies it in-process.
    return decide(view, rng, budget, style=EXPERT).action


def choose_v1(view: GameView, rng: random.Random, budget: Budget) -> Action:
    """The level `expert-1`: the expert before issue 48 (EXPERT_1), for comparisons."""
    return decide(view, rng, budget, style=EXPERT_1).action
