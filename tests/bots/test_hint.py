"""A hint is what the expert would do from the seat's own view (R-HIDDEN), with one line
of why, and the same for every deck order consistent with that view."""

from __future__ import annotations

from server.bots import greedy, hint
from server.rules import MOVE, POUR, PROCESS, UPGRADE, apply, view

from .helpers import positions, shuffled_views
from .test_strong_eval import _midgame

WORK = 0.05  # a twentieth of the expert's work: the same code, quickly


def _turn_positions(seed: int, phases: tuple[str, ...], every: int, count: int):
    """Seeded random play, every `every`-th position in one of `phases`, `count` of them."""
    found = 0
    for i, game in enumerate(positions(seed, 2)):
        if game.phase in phases and i % every == 0:
            yield game.clone()
            found += 1
            if found == count:
                return


def test_hint_is_the_same_for_every_deck_order_consistent_with_the_view():  # R-HIDDEN
    games = [_midgame(seed, 3) for seed in (1, 5)]
    games += list(_turn_positions(9, (POUR, PROCESS), 3, 2))
    games += list(_turn_positions(4, (MOVE, UPGRADE), 5, 1))
    phases = set()
    for game in games:
        hints = set()
        for seen in shuffled_views(game):
            given = hint.suggest(seen, hint.hint_seed("K7QXPM2A", 12, game.current), WORK)
            hints.add(repr(given))
        assert len(hints) == 1, hints
        phases.add(game.phase)
    assert {MOVE, POUR, PROCESS} <= phases


def test_a_move_hint_is_the_whole_path_and_says_what_it_gains_and_serves():  # R-MOVE, R-PROC
    game = _midgame(1, 2)
    seen = view(game, game.current)
    given = hint.suggest(seen, 7, WORK)
    assert given["action"] in seen["legal"]
    path, why = given["path"], given["why"]
    assert path and why["args"]["cell"] == path[-1]
    assert why["args"]["steps"] == len(path)  # "walk 3 steps to …": the walk the board numbers
    assert why["key"] in ("hint.why.move", "hint.why.move_serve", "hint.why.move_rush",
                          "hint.why.move_rush_serve")
    assert sum(why["args"]["gains"].values()) >= len(path)  # a token at least per step
    # The path is a legal move: walking it step by step is accepted by the engine.
    real = game.clone()
    apply(real, given["action"])
    for cell in path:
        step = next(a for a in view(real, real.current)["legal"] if a.get("cell") == cell)
        apply(real, step)
    assert real.phase in (MOVE, POUR)


def test_a_move_hint_says_how_many_rush_tokens_its_extra_steps_cost():  # R-MOVE, R-FAQ-1
    game = _midgame(3, 4)
    while game.phase != MOVE:
        apply(game, greedy.act(game))
    game.players[game.current].rush = 2
    seen = view(game, game.current)
    walked = game.clone()
    plan: list[dict] = []
    while sum(a["type"] == "step" for a in plan) < 5:  # three free steps, two paid
        legal = view(walked, walked.current)["legal"]
        action = next(a for a in legal if a["type"] in ("choose_meeple", "step"))
        plan.append(action)
        apply(walked, action)
    line = hint.why(seen, plan)
    assert line["key"] == "hint.why.move_rush" and line["args"]["rush"] == 2
    free_only = hint.why(seen, plan[:-2])
    assert free_only["key"] == "hint.why.move" and "rush" not in free_only["args"]


def _greedy_to_a_serve(seed: int):
    """Greedy plays a seeded game until a turn reaches the process phase with a serve."""
    game = _midgame(seed, 0)
    for _ in range(400):
        if game.phase == PROCESS and any(
                a["type"] == "serve" for a in view(game, game.current)["legal"]):
            return game
        apply(game, greedy.act(game))
    raise AssertionError("no serve in 400 greedy actions")


def test_a_serve_hint_names_the_order_and_its_tab():  # R-PROC
    game = _greedy_to_a_serve(3)
    seen = view(game, game.current)
    given = hint.suggest(seen, 3, WORK)
    assert given["action"]["type"] == "serve" and given["path"] == []
    tabs = seen["players"][seen["seat"]]["tabs"]
    tab = next(t for t, cards in enumerate(tabs)
               for c in cards if c["id"] == given["action"]["card"])
    card = next(c for c in tabs[tab] if c["id"] == given["action"]["card"])
    assert given["why"]["key"] == ("hint.why.serve_specialty" if card["specialty"]
                                   else "hint.why.serve")
    assert given["why"]["args"] == {"order": card["name"], "tab": tab + 1}


def test_every_why_has_its_sentence_in_every_language():
    from tests.api.test_strings import LANGUAGES, table

    for lang in LANGUAGES:
        assert {f"hint.why.{kind}" for kind in hint.WHY} <= table(lang), lang


def test_every_legal_action_of_a_random_game_has_a_why_the_browser_can_say():
    """Whatever the expert suggests, its line is one of the sentences, with its parameters
    (no cell or order left empty)."""
    kinds = {f"hint.why.{kind}" for kind in hint.WHY}
    said = set()
    for game in positions(21, 2):
        if game.phase == "over":
            break
        seen = view(game, game.current)
        for action in seen["legal"]:
            line = hint.why(seen, [action])
            assert line["key"] in kinds and None not in line["args"].values(), (action, line)
            said.add(line["key"])
    assert {"hint.why.move", "hint.why.pour", "hint.why.place"} <= said
