"""Account names: one key for names that look the same, and no name that passes for a bot
or the site."""

from __future__ import annotations

import pytest

from server.accounts.errors import AccountError
from server.accounts.names import NAME_MAX, name_key
from server.accounts.reserved import check_name
from server.bots.levels import LEVELS
from server.rooms.seating import NAME_MAX as SEAT_NAME_MAX


@pytest.mark.parametrize("other", [
    "alice", "ALICE", "Al ice", "\u0410lice",  # a Cyrillic А
    "Ａｌｉｃｅ",  # fullwidth
    "A\u200blice",  # a zero-width space
    "AIice" if name_key("I") == name_key("l") else "alice",
])
def test_names_that_look_the_same_have_one_key(other: str) -> None:
    assert name_key(other) == name_key("Alice")


@pytest.mark.parametrize("other", ["Alicia", "Bob", "Alice2", "อลิซ", "앨리스"])
def test_different_names_have_different_keys(other: str) -> None:
    assert name_key(other) != name_key("Alice")


@pytest.mark.parametrize("name", [
    "expert", "Greedy", "strong bot", "Bot A", "bot", "B0t", "Bot A (expert)", "random-bot",
    "บอต ก", "봇A", "ВОТ",  # Cyrillic look-alikes of "BOT"
    "Robot", "ExpertBot", "admin", "Coffee Rush",  # issue 41.8 (tests/accounts/test_reserved.py)
])
def test_a_name_that_passes_for_a_bot_is_reserved(name: str) -> None:
    with pytest.raises(AccountError) as refused:
        check_name(name, LEVELS)
    assert refused.value.code == "name_reserved"


@pytest.mark.parametrize("name", ["Robin", "Abbott", "Expert Ana", "greedy Gus", "봄", "Ana"])
def test_ordinary_names_are_allowed(name: str) -> None:
    assert check_name(name, LEVELS) == name


def test_a_name_needs_a_letter_or_digit_and_fits_a_seat() -> None:
    assert NAME_MAX == SEAT_NAME_MAX
    for name in ("!!!", "x" * (NAME_MAX + 1)):
        with pytest.raises(AccountError):
            check_name(name, LEVELS)
