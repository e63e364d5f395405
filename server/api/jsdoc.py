"""Render the browser's JSDoc typedefs of the game view (server/rules/shapes.py), of every
action (the shapes in server/rules/actions/) and of every event (the shapes of
server/rooms/events.py's registry), into the generated block of static/js/core/types.js.

    python -m server.api.jsdoc          # rewrite the generated block in place
    python -m server.api.jsdoc --check  # exit 1 if the file has drifted
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from server.rooms.events import EVENTS
from server.rules import shapes
from server.rules.registry import ACTIONS

TYPES_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "core" / "types.js"
BEGIN = "// BEGIN GENERATED VIEW TYPES (python -m server.api.jsdoc)"
END = "// END GENERATED VIEW TYPES"

_NAMES = {"int": "number", "float": "number", "str": "string", "bool": "boolean",
          "None": "null", "Any": "any", "object": "any"}
_TOKEN = re.compile(r"\s*([A-Za-z_][A-Za-z_0-9.]*|'[^']*'|[\[\],|])")


def js_type(annotation: str) -> str:
    """A Python annotation as written in shapes.py (e.g. `list[CardView] | None`) in
    JSDoc's TypeScript syntax (`CardView[] | null`)."""
    tokens = _TOKEN.findall(annotation)
    at = 0

    def union() -> str:
        nonlocal at
        parts = [term()]
        while at < len(tokens) and tokens[at] == "|":
            at += 1
            parts.append(term())
        return " | ".join(parts)

    def term() -> str:
        nonlocal at
        name = tokens[at]
        at += 1
        if at < len(tokens) and tokens[at] == "[":
            at += 1
            args = [union()]
            while tokens[at] == ",":
                at += 1
                args.append(union())
            at += 1  # "]"
            if name == "list":
                inner = args[0]
                return f"({inner})[]" if "|" in inner else f"{inner}[]"
            if name == "dict":
                return f"Record<{args[0]}, {args[1]}>"
            if name in ("Literal", "typing.Literal"):
                return " | ".join(args)
            raise ValueError(f"no JSDoc for {name}[...] in {annotation!r}")
        if name.startswith("'"):
            return '"' + name[1:-1] + '"'
        return _NAMES.get(name, name)

    rendered = union()
    if at != len(tokens):
        raise ValueError(f"cannot read the annotation {annotation!r}")
    return rendered


def _typedef(shape: type) -> list[str]:
    """A TypedDict as a JSDoc typedef, every key written out (inherited ones too)."""
    doc = " ".join((shape.__doc__ or "").split())
    lines = ["/**"] + [f" * {line}" for line in _wrap(doc)] + [" * @typedef {{"]
    for key, hint in shape.__annotations__.items():
        written = hint.__forward_arg__ if hasattr(hint, "__forward_arg__") else \
            hint.__name__ if isinstance(hint, type) else str(hint)
        optional = written.startswith("NotRequired[")
        if optional:
            written = written[len("NotRequired["):-1]
        lines.append(f" *   {key}{'?' if optional else ''}: {js_type(written)},")
    return [*lines, f" * }}}} {shape.__name__}", " */", ""]


def _wrap(text: str, width: int = 86) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + ([line] if line else [])


def render() -> str:
    lines = [BEGIN, ""]
    for shape in shapes.SHAPES:
        lines += _typedef(shape)
    for name, doc, kinds in (
            ("Action", "An action (the shapes in server/rules/actions/).",
             [a.shape for a in ACTIONS.values()]),
            ("Event", "An event of a patch frame (server/rooms/events.py).",
             [e.shape for e in EVENTS.values()])):
        for shape in kinds:
            lines += _typedef(shape)
        union = " | ".join(shape.__name__ for shape in kinds)
        lines += ["/**", f" * {doc}", f" * @typedef {{{union}}} {name}", " */", ""]
    return "\n".join([*lines, END])


def splice(text: str) -> str:
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[:start] + render() + text[end:]


def main() -> None:
    current = TYPES_JS.read_text()
    wanted = splice(current)
    if "--check" in sys.argv:
        sys.exit(0 if wanted == current else 1)
    TYPES_JS.write_text(wanted)


if __name__ == "__main__":
    main()
