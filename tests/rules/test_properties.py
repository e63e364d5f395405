"""Properties of random legal play (OpenSpiel-style random simulation, driven by Hypothesis).

Every game is fixed by a `Setup` (seed, options, and the seed of the random player), so a
failing example prints everything needed to replay it. The component counts below are
written out again from RULES.md on purpose: the engine's own tables are not trusted here.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from server.rules import (
    Game,
    RuleError,
    apply,
    can_undo,
    check_invariants,
    from_dict,
    legal_actions,
    new_game,
    to_dict,
    view,
)

# R-COMP-2, R-COMP-3, R-COMP-4, R-COMP-5, R-END-PEN
SUPPLY = {
    "coffee": 18, "milk": 12, "steam": 12, "ice": 12,
    "chocolate": 12, "caramel": 12, "tea": 12, "water": 12,
}
CARDS = 80
RUSH_TOKENS = 15
CUP_CAPACITY = 4
PENALTY_LIMIT = 5
CELLS = [f"r{r}c{c}" for r in range(1, 5) for c in range(1, 5)]
TILES = ["double_meeples", "diagonal_movement", "double_corners", "double_specialties"]
ENDINGS = {"deck", "penalties", "stall"}
ERROR_CODES = {"malformed_action", "illegal_action", "not_your_turn", "game_over",
               "nothing_to_undo"}

# Generous: a 2-player game draws a card every turn, so it lasts at most ~80 turns; in 3-4
# player games unserved orders turn into penalties within 4 turns. A turn is a few dozen
# actions at most (steps are paid with the 15 Rush Tokens, pours with gained tokens).
MAX_ACTIONS = 6000
MAX_UNDOS = 25

# The shape of every action (R-SETUP, R-UPG, R-MOVE, R-POUR, R-PROC, R-END), from the brief.
REQUIRED = {
    "place": ("cell",), "starting_cup": ("cup",), "upgrade": ("tile",), "skip_upgrade": (),
    "choose_meeple": ("meeple",), "step": ("cell",), "stop": (), "pour": ("ingredient", "cup"),
    "return": ("ingredient",), "empty": ("cup",), "done_pouring": (), "serve": ("cup", "card"),
    "end_turn": (), "undo": (),
}
INFORMATIONAL = {"step": ("gain", "rush")}
VALID_VALUES: dict[str, list] = {
    "cell": CELLS, "cup": [0, 1, 2], "meeple": [0, 1], "ingredient": list(SUPPLY),
    "tile": TILES, "card": list(range(CARDS)),
}

SETTINGS = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@dataclass(frozen=True)
class Setup:
    seed: int
    players: int
    starting_player: int | None
    starter_orders: bool
    play_seed: int  # seeds the random player's choices
    undo_rate: float
    purposeful: bool  # see choose(): uniform play almost never serves an order

    def new(self) -> Game:
        return new_game(seed=self.seed, players=self.players,
                        starting_player=self.starting_player,
                        starter_orders=self.starter_orders)


@st.composite
def setups(draw: st.DrawFn, undo: bool = True) -> Setup:
    players = draw(st.sampled_from([2, 3, 4]))
    return Setup(
        seed=draw(st.integers(0, 2**64 - 1)),
        players=players,
        starting_player=draw(st.none() | st.integers(0, players - 1)),
        starter_orders=draw(st.booleans()),
        play_seed=draw(st.integers(0, 2**32 - 1)),
        undo_rate=draw(st.sampled_from([0.0, 0.05, 0.2])) if undo else 0.0,
        purposeful=draw(st.booleans()),
    )


def identity(action: dict) -> tuple:
    """What makes two actions the same action: the type and its required fields."""
    return (action["type"], *(action[name] for name in REQUIRED[action["type"]]))


def fits(tokens: list[str], recipes: list[Counter]) -> bool:
    """Could these tokens still become one of these recipes?"""
    have = Counter(tokens)
    return any(not have - recipe for recipe in recipes)


def choose(game: Game, rng: random.Random, purposeful: bool) -> dict:
    """A random legal action: uniform, or (purposeful) mostly one that works towards an order.

    Uniform play serves about one order in twenty games, so upgrades, Rush Token gains and
    Too Many Orders would go untested; the purposeful player serves several per game.
    """
    legal = legal_actions(game)
    if not purposeful or rng.random() < 0.1:
        return rng.choice(legal)
    for kind in ("serve", "upgrade"):
        wanted = [a for a in legal if a["type"] == kind]
        if wanted:
            return rng.choice(wanted)
    if game.phase not in ("move", "pour"):
        return rng.choice(legal)
    v = view(game, None)
    me = v["players"][v["current"]]
    recipes = [Counter(card["recipe"]) for tab in me["tabs"] for card in tab]
    cups = me["cups"]
    if game.phase == "move":
        hand = [ing for ing, count in v["hand"].items() for _ in range(count)]
        useful = [
            a for a in legal
            if a["type"] == "step" and not a["rush"]
            and any(fits(cup + hand + list(a["gain"]), recipes) for cup in cups)
        ]
        if useful:
            return rng.choice(useful)
        if any(a["type"] == "stop" for a in legal) and rng.random() < 0.7:
            return {"type": "stop"}
        return rng.choice(legal)
    good = [a for a in legal
            if a["type"] == "pour" and fits(cups[a["cup"]] + [a["ingredient"]], recipes)]
    spoilt = [a for a in legal if a["type"] == "empty" and not fits(cups[a["cup"]], recipes)]
    rest = [a for a in legal if a["type"] in ("return", "done_pouring")]
    return rng.choice(good or spoilt or rest or legal)


def play(setup: Setup, each: Callable[[Game], Game | None] | None = None
         ) -> tuple[Game, list[dict]]:
    """Play a random legal game to the end, with occasional undos; return it and its actions.

    `each(game)` runs on the first state and after every action; if it returns a game,
    play goes on with that one instead.
    """
    rng = random.Random(setup.play_seed)
    game = setup.new()
    log: list[dict] = []
    undos = 0
    if each:
        game = each(game) or game
    while game.phase != "over":
        assert len(log) < MAX_ACTIONS, "the game does not end (R-END)"
        if undos < MAX_UNDOS and can_undo(game) and rng.random() < setup.undo_rate:
            action = {"type": "undo"}
            undos += 1
        else:
            action = choose(game, rng, setup.purposeful)
        apply(game, action)
        log.append(action)
        if each:
            game = each(game) or game
    return game, log


def advance(setup: Setup, actions: int) -> Game:
    """The state after up to `actions` random legal actions (fewer if the game ends)."""
    rng = random.Random(setup.play_seed)
    game = setup.new()
    for _ in range(actions):
        if game.phase == "over":
            break
        apply(game, choose(game, rng, setup.purposeful))
    return game


def walk(value: object, key: str | None = None) -> Iterator[tuple[str | None, object]]:
    """Every (key, value) pair in a JSON-like tree; list items inherit their list's key."""
    yield key, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v, key)


# --- conservation ------------------------------------------------------------------------


def count_components(v: dict) -> None:
    """Independent bookkeeping from a spectator's view (R-COMP-2..5, R-MOVE)."""
    cards = [c["id"] for c in v["discard"] + v["set_aside"]]
    tokens = Counter(v["supply"]) + Counter(v["hand"])
    rush = v["rush_supply"]
    for p in v["players"]:
        for tab in p["tabs"]:
            cards += [c["id"] for c in tab]
        cards += [c["id"] for c in p["completed"] + p["penalties"]]
        for cup in p["cups"]:
            assert len(cup) <= CUP_CAPACITY, "R-COMP-4: a cup holds at most 4 tokens"
            tokens.update(cup)
        assert p["rush"] >= 0
        rush += p["rush"]
    assert len(set(cards)) == len(cards), "R-COMP-3: a card is in two places"
    assert len(cards) + v["deck"] == CARDS, "R-COMP-3: cards appeared or vanished"
    assert min(v["supply"].values()) >= 0 and min(v["hand"].values()) >= 0
    assert dict(tokens) == SUPPLY, "R-COMP-2: ingredient tokens are not conserved"
    assert v["rush_supply"] >= 0
    assert rush == RUSH_TOKENS, "R-COMP-5: Rush Tokens are not conserved"

    moving = v["move"]["meeple"] if v["phase"] == "move" else None
    standing = [
        cell
        for seat, p in enumerate(v["players"])
        for i, cell in enumerate(p["meeples"])
        if not (seat == v["current"] and i == moving)
    ]
    assert len(set(standing)) == len(standing), "R-MOVE: two meeples on one cell"
    if v["phase"] != "placement":
        per_player = 2 if len(v["players"]) == 2 else 1
        assert all(len(p["meeples"]) == per_player for p in v["players"]), "R-COMP-4"


def check_state(game: Game) -> None:
    check_invariants(game)
    count_components(view(game, None))


@SETTINGS
@given(setups())
def test_every_state_conserves_every_component(setup: Setup) -> None:
    """R-COMP-2, R-COMP-3, R-COMP-5: tokens, cards and Rush Tokens are conserved after every
    action, undos (R-TURN) included; R-MOVE: two meeples never share a cell, except while
    the moving meeple passes through."""
    play(setup, check_state)


@SETTINGS
@given(setups())
def test_every_legal_action_applies(setup: Setup) -> None:
    """Legal actions are sound: each one applies without error and leads to a sound state;
    `undo` is accepted whenever can_undo says so (R-TURN). Completeness, that anything not
    listed is refused, is test_refused_actions_change_nothing's job."""

    def try_all(game: Game) -> None:
        for action in legal_actions(game):
            trial = game.clone()
            apply(trial, action)
            check_invariants(trial)
        if can_undo(game):
            trial = game.clone()
            apply(trial, {"type": "undo"})
            check_invariants(trial)

    play(setup, try_all)


# --- the end of the game --------------------------------------------------------------------


def expected_total(p: dict) -> int:
    """R-SCORE: +1 per completed order, +2 per active tile, -1 per penalty card."""
    return len(p["completed"]) + 2 * sum(p["upgrades"].values()) - len(p["penalties"])


@SETTINGS
@given(setups())
def test_game_ends_fairly_and_scores_follow_r_score(setup: Setup) -> None:
    """R-END: every game ends, with a known reason, after everyone had the same number of
    turns. R-SCORE: totals follow the formula; ranking by total, then completed orders,
    then Rush Tokens; equal keys share a place; the winners are everyone in first place."""
    game, log = play(setup)
    v = view(game, None)
    result = game.result
    # Shown by --hypothesis-show-statistics: what the examples covered.
    event(f"{setup.players} players, ended by {result and result['reason']}")
    for kind in ("undo", "serve", "upgrade"):
        event(f"{kind}: {'yes' if any(a['type'] == kind for a in log) else 'no'}")
    assert v["phase"] == "over" and result is not None and v["closed"]
    players = v["players"]
    n = len(players)

    turns = [p["turns"] for p in players]
    assert len(set(turns)) == 1 and turns[0] >= 1, f"unequal turns {turns} (R-END-5)"
    assert result["turns"] == turns
    assert v["turn"] == sum(turns)

    reason = result["reason"]
    assert reason in ENDINGS and reason == v["close_reason"]
    if reason == "penalties":  # R-END-PEN
        assert any(len(p["penalties"]) >= PENALTY_LIMIT for p in players)
    elif reason == "deck":  # R-END-DECK
        assert v["deck"] == 0
    else:  # R-END-STALL: 3-4 players only, and no order can ever arrive again
        assert n > 2
        assert all(not tab for p in players for tab in p["tabs"])

    totals = [expected_total(p) for p in players]
    assert [s["total"] for s in result["scores"]] == totals
    assert [p["score"]["total"] for p in players] == totals

    keys = [(totals[s], len(players[s]["completed"]), players[s]["rush"]) for s in range(n)]
    ranking = result["ranking"]
    assert sorted(ranking) == list(range(n))
    ranked = [keys[s] for s in ranking]
    assert ranked == sorted(ranked, reverse=True), "R-SCORE: ranking breaks the tie-breaks"
    for s in range(n):
        assert result["places"][s] == 1 + sum(k > keys[s] for k in keys)
    assert result["winners"] == [s for s in range(n) if keys[s] == max(keys)]


# --- replay and serialization ------------------------------------------------------------------


@SETTINGS
@given(setups(), st.integers(0, 2**32 - 1))
def test_replay_and_json_round_trip_reproduce_the_game(setup: Setup, swap_seed: int) -> None:
    """Randomness is state: (seed, options, actions) replays a game exactly, and
    to_dict -> JSON text -> from_dict gives back the same state, which plays on identically
    (the live game is swapped for its reloaded copy at random points)."""
    swap = random.Random(swap_seed)

    def reload_sometimes(game: Game) -> Game | None:
        if swap.random() >= 0.08:
            return None
        before = to_dict(game)
        loaded = from_dict(json.loads(json.dumps(before)))
        assert to_dict(loaded) == before
        assert legal_actions(loaded) == legal_actions(game)
        assert view(loaded, game.current) == view(game, game.current)
        return loaded

    game, log = play(setup, reload_sometimes)
    final = to_dict(game)
    assert to_dict(from_dict(json.loads(json.dumps(final)))) == final

    replay = setup.new()
    for action in log:
        apply(replay, action)
    assert to_dict(replay) == final


# --- refusals ------------------------------------------------------------------------------------

json_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=6,
)


@st.composite
def junk_actions(draw: st.DrawFn) -> object:
    """Something that is not a well-formed action, whatever the state of the game."""
    kind = draw(st.sampled_from(["not_dict", "no_type", "missing", "bad_value", "extra"]))
    if kind == "not_dict":
        return draw(json_values.filter(lambda x: not isinstance(x, dict)) | st.tuples(json_scalars))
    if kind == "no_type":
        fields = draw(st.dictionaries(st.text(max_size=6), json_values, max_size=3))
        bad_type = draw(json_values.filter(lambda t: not (isinstance(t, str) and t in REQUIRED)))
        if draw(st.booleans()):
            fields["type"] = bad_type
        else:
            fields.pop("type", None)
        return fields
    with_args = [t for t, names in REQUIRED.items() if names]
    type_ = draw(st.sampled_from(with_args if kind in ("missing", "bad_value") else
                                 list(REQUIRED)))
    action = {"type": type_}
    for name in REQUIRED[type_]:
        action[name] = draw(st.sampled_from(VALID_VALUES[name]))
    if kind == "missing":
        del action[draw(st.sampled_from(REQUIRED[type_]))]
    elif kind == "bad_value":
        name = draw(st.sampled_from(REQUIRED[type_]))
        valid = VALID_VALUES[name]
        # type(x) is compared too: True == 1 and 1.0 == 1, but neither is a cup number.
        action[name] = draw(
            (json_values | st.sampled_from(["r0c1", "r5c5", "R1C1", " r1c1", "COFFEE", 80, -1]))
            .filter(lambda x: not any(type(x) is type(ok) and x == ok for ok in valid))
        )
    else:
        allowed = {"type", *REQUIRED[type_], *INFORMATIONAL.get(type_, ())}
        action[draw(st.text(max_size=8).filter(lambda k: k not in allowed))] = draw(json_values)
    return action


def every_wellformed_action() -> list[dict]:
    out: list[dict] = []
    for type_, names in REQUIRED.items():
        combos: list[dict] = [{"type": type_}]
        for name in names:
            combos = [{**c, name: value} for c in combos for value in VALID_VALUES[name]]
        out += combos
    return out


WELLFORMED = every_wellformed_action()


def refused(game: Game, action: object, seat: int | None = None) -> RuleError:
    """Apply must raise a RuleError with a known code and change nothing."""
    before = to_dict(game)
    try:
        apply(game, action, seat)
    except RuleError as error:
        assert error.code in ERROR_CODES
        assert error.message
        assert to_dict(game) == before, f"refused {action!r} but the state changed"
        return error
    raise AssertionError(f"{action!r} for seat {seat} was accepted")


@SETTINGS
@given(setups(undo=False), st.integers(0, 400), st.lists(junk_actions(), max_size=12),
       st.data())
def test_refused_actions_change_nothing(setup: Setup, steps: int, junk: list[object],
                                        data: st.DataObject) -> None:
    """Typed refusals: junk, illegal, out-of-turn, after-the-end and impossible undo actions
    all raise RuleError with a stable code and leave the state untouched (R-TURN)."""
    game = advance(setup, steps)
    for action in junk:
        seat = data.draw(st.none() | st.integers(-2, 5), label="seat")
        refused(game, action, seat)

    legal = legal_actions(game)
    over = game.phase == "over"
    legal_ids = {identity(a) for a in legal}
    for action in WELLFORMED:
        if action["type"] == "undo":
            if not can_undo(game):
                assert refused(game, action).code in {"nothing_to_undo", "game_over"}
        elif identity(action) not in legal_ids:
            code = refused(game, action).code
            assert code == ("game_over" if over else "illegal_action")

    wrong_seats = [s for s in range(-1, setup.players + 1) if s != game.current]
    for seat in wrong_seats:
        assert legal_actions(game, seat) == []
        for action in [*legal, {"type": "undo"}]:
            assert refused(game, action, seat).code in {"not_your_turn", "game_over"}

    for action in legal:  # R-MOVE: an echoed step preview must be the true one
        if action["type"] == "step":
            (name, count), = action["gain"].items()
            refused(game, {**action, "gain": {name: count + 1}})
            refused(game, {**action, "rush": not action["rush"]})


# --- hidden information ---------------------------------------------------------------------


@SETTINGS
@given(setups())
def test_views_never_reveal_the_deck_before_the_end(setup: Setup) -> None:
    """R-HIDDEN: until the game is over no view (any seat, or a spectator) holds the seed,
    a deck list, or any card still in the deck; afterwards the seed and deck are public."""

    def hidden(game: Game) -> None:
        state = to_dict(game)
        undrawn = set(state["deck"])
        viewers = [None, *range(game.n)]
        for seat in viewers:
            v = json.loads(json.dumps(view(game, seat)))
            if game.phase == "over":
                assert v["result"]["seed"] == str(setup.seed)  # exact, as text, past 2^53
                assert sorted(v["result"]["deck"]) == sorted(undrawn)
                continue
            for key, value in walk(v):
                assert key != "seed", f"seed visible to {seat}"
                assert not (key == "deck" and isinstance(value, list)), "deck order visible"
                if key in ("id", "card", "cards") and type(value) is int:
                    assert value not in undrawn, f"undrawn card {value} visible to {seat}"
                if setup.seed > 10**6:  # small numbers legitimately appear as counts
                    assert value != setup.seed, f"seed visible to {seat}"

    play(setup, hidden)
