"""The room option `hints` (issue 27): off by default and then absent from what is stored,
so rooms and games from before it read the same; on, it is kept, and a stored game's hint
records pass the export document's check."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from server.history.document import TalkItem
from server.rooms import RoomOptions

HINT = {"kind": "hint", "n": 3, "seat": 1, "action": {"type": "choose_meeple", "meeple": 0},
        "path": ["r3c2", "r4c2"], "after": 31, "at": 1234,
        "why": {"key": "hint.why.move", "args": {"cell": "r4c2", "gains": {"milk": 2}}}}


def test_hints_are_off_by_default_and_then_not_stored() -> None:
    assert RoomOptions(players=2).hints is False
    assert "hints" not in RoomOptions(players=2).to_dict()
    assert RoomOptions.from_dict({"players": 2}).hints is False


def test_hints_on_are_stored_and_read_back() -> None:
    options = RoomOptions(players=3, hints=True)
    assert options.to_dict()["hints"] is True
    assert RoomOptions.from_dict(options.to_dict()) == options


def test_a_stored_hint_is_a_talk_item_of_the_export_document() -> None:
    items = TypeAdapter(list[TalkItem])
    assert items.validate_python([HINT])[0].model_dump() == HINT
    with pytest.raises(ValidationError):  # a why is a hint sentence key, nothing else
        items.validate_python([{**HINT, "why": {"key": "err.internal", "args": {}}}])
    with pytest.raises(ValidationError):
        items.validate_python([{**HINT, "path": ["x9"]}])
