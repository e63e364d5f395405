"""The browser's typedefs of the game view are generated from server/rules/seatview.py, and
the action union mypy checks (server/rules/action.py) from the action modules."""

from __future__ import annotations

import pytest

from server.api.jsdoc import ACTION_PY, TYPES_JS, js_type, splice, splice_union


def test_types_js_holds_the_generated_view_types() -> None:
    text = TYPES_JS.read_text()
    assert splice(text) == text, "run: python -m server.api.jsdoc"


def test_the_action_union_is_every_registered_shape() -> None:
    text = ACTION_PY.read_text()
    assert splice_union(text) == text, "run: python -m server.api.jsdoc"


@pytest.mark.parametrize(("python", "js"), [
    ("int", "number"),
    ("str | None", "string | null"),
    ("list[CardView]", "CardView[]"),
    ("list[list[str]]", "string[][]"),
    ("list[int | None]", "(number | null)[]"),
    ("dict[str, bool]", "Record<string, boolean>"),
    ("dict[str, Any]", "Record<string, any>"),
    ("FinalResult | None", "FinalResult | null"),
])
def test_annotations_read_as_jsdoc(python: str, js: str) -> None:
    assert js_type(python) == js
