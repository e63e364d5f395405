"""The browser's typedefs of the game view are generated from server/rules/shapes.py."""

from __future__ import annotations

import pytest

from server.api.jsdoc import TYPES_JS, js_type, splice


def test_types_js_holds_the_generated_view_types() -> None:
    text = TYPES_JS.read_text()
    assert splice(text) == text, "run: python -m server.api.jsdoc"


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
