"""Render the generated sections of docs/PROTOCOL.md: the JSON Schemas (from the pydantic
models), the error-code table (from server/error_codes.py), and the lists of action types
(server/rules/registry.py) and events (server/rooms/events.py).

    python -m server.ws.schema_doc          # rewrite the generated section in place
    python -m server.ws.schema_doc --check  # exit 1 if the file has drifted
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pydantic import BaseModel

from server import error_codes
from server.api.account_models import ACCOUNT_REQUEST_MODELS, ACCOUNT_RESPONSE_MODELS
from server.api.models import REQUEST_MODELS, RESPONSE_MODELS
from server.rooms import events
from server.rooms.outgoing import SERVER_FRAMES
from server.rules.registry import ACTIONS

from .frames import CLIENT_FRAMES

DOC = Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md"
BEGIN = "<!-- BEGIN GENERATED SCHEMAS (python -m server.ws.schema_doc) -->"
END = "<!-- END GENERATED SCHEMAS -->"


def _section(title: str, models: tuple[type[BaseModel], ...]) -> list[str]:
    lines = [f"### {title}", ""]
    for model in models:
        schema = json.dumps(model.model_json_schema(), indent=2, sort_keys=True)
        lines += [f"#### {model.__name__}", "", "```json", schema, "```", ""]
    return lines


def render() -> str:
    lines = [BEGIN, ""]
    lines += _section("Client -> server frames", CLIENT_FRAMES)
    lines += _section("Server -> client frames", SERVER_FRAMES)
    lines += _section("HTTP request bodies", REQUEST_MODELS)
    lines += _section("HTTP responses", RESPONSE_MODELS)
    lines += _section("Account request bodies", ACCOUNT_REQUEST_MODELS)
    lines += _section("Account responses", ACCOUNT_RESPONSE_MODELS)
    lines.append(END)
    return "\n".join(lines)


def _replace(document: str, begin: str, end_marker: str, fresh: str) -> str:
    start, end = document.index(begin), document.index(end_marker) + len(end_marker)
    return document[:start] + fresh + document[end:]


ACTIONS_BEGIN = "<!-- BEGIN GENERATED ACTIONS (python -m server.ws.schema_doc) -->"
ACTIONS_END = "<!-- END GENERATED ACTIONS -->"


def render_actions() -> str:
    """The list of action types, from the engine's registry (server/rules/registry.py)."""
    items = []
    for a in ACTIONS.values():
        shape = f"`{a.name}{{{','.join(a.fields)}}}`" if a.fields else f"`{a.name}`"
        if a.apply is None:
            shape += " (offered through `can_undo`, not `legal`)"
        items.append(f"{shape} ({a.rule}; {', '.join(a.phases)})" if a.apply else shape)
    return "\n".join([ACTIONS_BEGIN, "", f"Actions: {', '.join(items)}.", "", ACTIONS_END])


def splice(document: str) -> str:
    """The document with its generated sections (schemas, error codes, actions, events)
    replaced by fresh ones."""
    document = _replace(document, BEGIN, END, render())
    document = _replace(document, ACTIONS_BEGIN, ACTIONS_END, render_actions())
    document = _replace(document, events.BEGIN, events.END, events.render_list())
    return _replace(document, error_codes.BEGIN, error_codes.END, error_codes.render_table())


def main(argv: list[str]) -> int:
    current = DOC.read_text()
    fresh = splice(current)
    if "--check" in argv:
        if fresh != current:
            print(f"{DOC} is out of date: run python -m server.ws.schema_doc", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(fresh)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
