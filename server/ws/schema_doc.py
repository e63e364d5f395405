"""Render the JSON Schema section of docs/PROTOCOL.md from the pydantic models.

    python -m server.ws.schema_doc          # rewrite the generated section in place
    python -m server.ws.schema_doc --check  # exit 1 if the file has drifted
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pydantic import BaseModel

from server.api.models import REQUEST_MODELS, RESPONSE_MODELS

from .frames import CLIENT_FRAMES, SERVER_FRAMES

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
    lines.append(END)
    return "\n".join(lines)


def splice(document: str) -> str:
    """The document with its generated section replaced by a fresh one."""
    start, end = document.index(BEGIN), document.index(END) + len(END)
    return document[:start] + render() + document[end:]


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
