"""The guided first game (issue 45): its fixed teaching deal (R-SETUP-L) and its guide.
Followed pointer by pointer against the greedy bot, as a room plays it, the lesson meets
every concept it teaches in four turns each and ends when the deck runs out (R-END-DECK);
its deal is the same whatever the room's seed, a normal game's deal is untouched; the
guide works from the seat's own view only (R-HIDDEN)."""

from __future__ import annotations

import random

from server.bots import greedy, lesson
from server.bots.budget import Budget
from server.rules import OVER, GameOptions, apply, new_game_from, view
from server.rules.data import LESSON_DECK

from .helpers import shuffled_views
from .test_strong_eval import _midgame

LESSON = GameOptions(2, starting_player=lesson.LEARNER, lesson=True)


def play_the_lesson(seed: int) -> tuple[list[str], object]:
    """The lesson as a room plays it: the learner follows every pointer (the learner's own
    view), the bot seat is greedy (its own view, a seeded determinization). The notes met."""
    game = new_game_from(seed, LESSON)
    rng = random.Random(seed)
    notes = []
    while game.phase != OVER:
        seat = game.current
        seen = dict(view(game, seat))
        if seat == lesson.LEARNER:
            pointer = lesson.suggest(seen)
            assert pointer is not None and pointer["action"] in seen["legal"]
            notes.append(pointer["note"])
            action = pointer["action"]
        else:
            action = greedy.choose(seen, rng, Budget(1.0))
        apply(game, action)
    return notes, game


def test_following_the_pointers_meets_every_concept_and_ends_with_the_deck():  # R-END-DECK
    notes, game = play_the_lesson(seed=3)
    # Every concept but two: a token no cup wants (`return`) never comes on this deal, and
    # the end is said by the browser over the final scores.
    assert set(notes) == set(lesson.NOTES) - {"return", "end"}
    order = [n for i, n in enumerate(notes) if n not in notes[:i]]
    assert order[:4] == ["board", "meeples", "starting_cup", "orders"]  # in the order met
    assert order.index("serve") < order.index("flow") < order.index("upgrade")
    assert game.close_reason == "deck" and [p.turns for p in game.players] == [4, 4]
    assert len(notes) == 50  # the learner's decisions: the lesson's length


def test_the_lesson_is_the_same_game_whatever_the_rooms_seed():  # R-SETUP-L
    first, game = play_the_lesson(seed=3)
    again, other = play_the_lesson(seed=2**63 + 11)
    assert first == again and game.result["scores"] == other.result["scores"]
    dealt = new_game_from(99, LESSON)
    assert [p.tabs for p in dealt.players] == [p.tabs for p in new_game_from(5, LESSON).players]
    assert len(dealt.deck) == len(LESSON_DECK) - 5  # 2 + 1 to the learner, 1 + 1 to the bot


def test_a_normal_deal_is_still_shuffled_from_the_seed():  # R-SETUP-1
    normal = GameOptions(2, starting_player=0)
    assert new_game_from(3, normal).deck != new_game_from(4, normal).deck
    assert len(new_game_from(3, normal).deck) == 80 - 5


def test_the_guide_is_the_same_for_every_deck_order_consistent_with_the_view():  # R-HIDDEN
    for game in (_midgame(1, 3), _midgame(5, 3)):
        pointers = {repr(lesson.suggest(seen)) for seen in shuffled_views(game)}
        assert len(pointers) == 1, pointers


def test_no_pointer_when_there_is_nothing_to_decide():
    _, game = play_the_lesson(seed=3)
    assert lesson.suggest(dict(view(game, lesson.LEARNER))) is None
