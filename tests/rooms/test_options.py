"""One options type (server.rules.GameOptions, extended by RoomOptions), one conversion to a
new game: a live room and a stored game's replay deal the same game from the same options,
and every schema of the options is derived from the dataclasses."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import jinja2
import pytest

from server.config import Settings
from server.history.replay import start as replay_start
from server.rooms import RoomManager, RoomOptions
from server.rooms.option_models import CreateRoom, DocumentOptions, RoomOptionsModel
from server.rooms.options import CONTROLS, ROOM_OPTION_NAMES, option_form
from server.rules import GAME_OPTION_NAMES, GameOptions, MalformedAction, new_game, to_dict

ROOT = Path(__file__).resolve().parents[2]

CASES = [
    RoomOptions(players, starter_orders=starter, starting_player=start, public=public)
    for players, starter, public in itertools.product((2, 3, 4), (False, True), (False, True))
    for start in (None, players - 1)
]


@pytest.mark.parametrize("options", CASES, ids=str)
def test_a_room_and_a_replay_deal_the_same_game(options: RoomOptions) -> None:
    room = RoomManager(Settings()).build("ABCDEFGH", options, seed=2**63 + 5, host_token_hash="h")
    live = room.new_game()
    stored = replay_start(room.seed, room.options.to_dict())  # as the journal keeps them
    assert to_dict(live) == to_dict(stored)
    assert live.options == options.game_options() == stored.options


def test_new_game_is_the_same_conversion() -> None:
    options = GameOptions(3, starter_orders=True, starting_player=2)
    assert to_dict(new_game(9, 3, 2, True)) == to_dict(
        RoomManager(Settings()).build(
            "ABCDEFGH", RoomOptions(3, starter_orders=True, starting_player=2), 9, "h"
        ).new_game())
    assert options.game_options() is options


def test_room_options_round_trip_through_their_stored_form() -> None:
    options = RoomOptions(4, starter_orders=True, starting_player=1, public=True,
                          clock={"turn": 30, "bank": 120})
    assert RoomOptions.from_dict(options.to_dict()) == options
    assert "clock" not in RoomOptions(2).to_dict()  # absent without a clock, as before


def test_a_new_room_option_is_stored_with_no_more_code() -> None:
    """Storage is derived from the fields: a new one is kept when set, and absent at its
    default, as every room option is, so that a room stored before it existed reads the
    same (the room info has always carried `public`)."""
    extended = dataclasses.make_dataclass(
        "Extended", [("dummy", int, dataclasses.field(default=0, metadata={
            "description": "a test option"}))],
        bases=(RoomOptions,), frozen=True, kw_only=True)
    options = extended(3, dummy=7, hints=True)
    assert options.to_dict() == {"players": 3, "starter_orders": False,
                                 "starting_player": None, "public": False, "hints": True,
                                 "dummy": 7}
    assert extended.from_dict(options.to_dict()) == options
    assert "dummy" not in extended(3).to_dict()
    assert extended.from_dict({"players": 3}) == extended(3)


def test_bad_options_are_refused_by_the_rules() -> None:
    for bad in ({"players": 5}, {"players": 2, "starting_player": 2}, {"starter_orders": True}):
        with pytest.raises(MalformedAction):
            GameOptions.from_dict(bad)


@pytest.mark.parametrize("model", [CreateRoom, DocumentOptions, RoomOptionsModel])
def test_every_schema_has_exactly_the_declared_options(model) -> None:
    assert tuple(model.model_fields) == ROOM_OPTION_NAMES
    assert ROOM_OPTION_NAMES[: len(GAME_OPTION_NAMES)] == GAME_OPTION_NAMES
    for f in dataclasses.fields(RoomOptions):
        declared = model.model_fields[f.name]
        default = None if f.default is dataclasses.MISSING else f.default
        assert (declared.default if not declared.is_required() else None) == default
        assert declared.description == f.metadata["description"]


def test_create_room_checks_the_starting_seat_with_the_rules() -> None:
    assert CreateRoom.model_validate({"players": 3, "starting_player": 2})
    with pytest.raises(ValueError, match="R-SETUP-1"):
        CreateRoom.model_validate({"players": 3, "starting_player": 3})


def test_an_option_with_a_control_is_in_the_lobby_form_and_its_sentences() -> None:
    """A new option a host chooses needs no form or summary code: the `control` in its
    field's metadata puts it in /api/rules-data `options` (the waiting room's summary) and
    in the lobby's form, with its sentence keys."""
    extended = dataclasses.make_dataclass(
        "Extended", [("dummy", bool, dataclasses.field(default=False, metadata={
            "description": "a test option", "control": "check"}))],
        bases=(RoomOptions,), frozen=True, kw_only=True)
    form = option_form(extended)
    assert [o["name"] for o in form] == [*(o["name"] for o in option_form()), "dummy"]
    assert form[-1] == {"name": "dummy", "control": "check", "default": False, "choices": [
        {"value": False, "key": "option.dummy.false"},
        {"value": True, "key": "option.dummy.true"}]}
    page = jinja2.Environment(loader=jinja2.FileSystemLoader(ROOT / "templates"))
    html = page.get_template("lobby.html").render(
        options=form, rooms={"open": [], "live": []}, rules_data_json="{}")
    assert '<input type="checkbox" name="dummy" >' in html
    assert 'data-i18n="option.dummy"' in html


def test_every_option_in_the_form_is_a_room_option_with_a_known_control() -> None:
    assert {o["name"] for o in option_form()} <= set(ROOM_OPTION_NAMES)
    assert {o["control"] for o in option_form()} <= set(CONTROLS)
    # the choices of a count are its bounds (R-SETUP: 2 to 4 players)
    players = next(o for o in option_form() if o["name"] == "players")
    assert [c["value"] for c in players["choices"]] == [2, 3, 4]
