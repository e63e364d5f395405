"""Rebuild a playable Game from what one seat sees, with a sampled deck (R-HIDDEN).

A view holds everything public and the deck only as a count. A bot that wants to look
ahead fills the deck with the cards it has not seen, in an order drawn from its own RNG:
one "determinization" of the hidden information. The rebuilt game has the same public
view and the same legal actions as the real one; only the deck order (and the seed,
which a bot never needs) are invented.
"""

from __future__ import annotations

import random
from typing import cast

from server.rules import Game, GameOptions, GameView, PlayerView, Result
from server.rules.data import CARD_COUNT, CELL_INDEX, ING_INDEX, INGREDIENTS, UPGRADES
from server.rules.state import OVER, Player

_SEED = 0  # the real seed is secret until the game is over; only setup uses it


def visible_cards(view: GameView) -> set[int]:
    """Every card id face up in the view: tabs, completed, penalties, discard, set aside."""
    seen = {c["id"] for c in view["discard"]} | {c["id"] for c in view["set_aside"]}
    for p in view["players"]:
        for tab in p["tabs"]:
            seen.update(c["id"] for c in tab)
        seen.update(c["id"] for c in p["completed"])
        seen.update(c["id"] for c in p["penalties"])
    return seen


def unseen_cards(view: GameView) -> list[int]:
    """The ids that can still be in the deck, in id order."""
    seen = visible_cards(view)
    return [c for c in range(CARD_COUNT) if c not in seen]


def sample_deck(view: GameView, rng: random.Random) -> list[int]:
    """One possible deck: the unseen cards shuffled, as many as the view's deck count.

    In a finished game the true deck is public, so it is used as is.
    """
    result = view["result"]
    if view["phase"] == OVER and result:
        return list(result["deck"])[::-1]
    cards = unseen_cards(view)
    rng.shuffle(cards)
    # More unseen cards than the deck holds only if cards left the game unseen, which
    # the rules never do; truncating keeps the rebuild sound regardless.
    return cards[: view["deck"]]


def _vector(counts: dict[str, int]) -> list[int]:
    return [counts[name] for name in INGREDIENTS]


def _player(p: PlayerView) -> Player:
    return Player(
        meeples=[CELL_INDEX[c] for c in p["meeples"]],
        tabs=[[c["id"] for c in tab] for tab in p["tabs"]],
        cups=[[ING_INDEX[i] for i in cup] for cup in p["cups"]],
        completed=[c["id"] for c in p["completed"]],
        penalties=[c["id"] for c in p["penalties"]],
        rush=p["rush"],
        upgrades=[bool(p["upgrades"][name]) for name in UPGRADES],
        turns=p["turns"],
    )


# The fields of Game a view does not give (hidden, or only needed to undo): `rebuild`
# leaves them at their defaults, or fills them from elsewhere (the deck). Every other field
# comes back equal (tests/rules/test_state_fields.py): a new one needs its line in rebuild.
NOT_IN_A_VIEW = frozenset({"seed", "deck", "turn_log", "turn_start", "version"})


def rebuild(view: GameView, deck: list[int]) -> Game:
    """A Game equal to the viewed one in everything public, with `deck` as its deck.

    Undo history (turn log, turn start) is not in a view and is left empty: bots never undo.
    """
    move = view["move"]
    result = view.get("result")
    game = Game(
        seed=_SEED,
        players=[_player(p) for p in view["players"]],
        options=GameOptions.from_dict(view["options"]),
        deck=list(deck),
        set_aside=[c["id"] for c in view["set_aside"]],
        discard=[c["id"] for c in view["discard"]],
        supply=_vector(view["supply"]),
        rush_supply=view["rush_supply"],
        start=view["start"],
        current=view["current"],
        phase=view["phase"],
        pending=list(view["pending"]),
        closed=view["closed"],
        close_reason=view["close_reason"],
        turn=view["turn"],
        hand=_vector(view["hand"]),
        moving=move["meeple"],
        steps=move["steps"],
        path=[CELL_INDEX[c] for c in move["path"]],
        served=view["served"],
        upgraded=view["upgraded"],
    )
    if result is not None:  # a finished game is public: its seed included
        game.seed = int(result["seed"])  # the view sends it as text (exact past 2^53)
        game.result = cast(Result, {k: v for k, v in result.items() if k not in ("seed", "deck")})
    return game


def determinize(view: GameView, rng: random.Random) -> Game:
    """Rebuild the viewed game with a deck sampled from the unseen cards."""
    return rebuild(view, sample_deck(view, rng))
