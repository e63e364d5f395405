"""Render the browser's JSDoc typedefs of the game view (server/rules/seatview.py), of every
action (the shapes in server/rules/actions/) and of every event (the shapes of
server/rooms/events.py's registry), into the generated block of static/js/core/types.js;
and the same union of the action shapes for mypy, into server/rules/action.py.

    python -m server.api.jsdoc          # rewrite the generated blocks in place
    python -m server.api.jsdoc --check  # exit 1 if a file has drifted
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from server.rooms.events import EVENTS
from server.rules import seatview
from server.rules.registry import ACTIONS

ROOT = Path(__file__).resolve().parents[2]
TYPES_JS = ROOT / "static" / "js" / "core" / "types.js"
BEGIN = "// BEGIN GENERATED VIEW TYPES (python -m server.api.jsdoc)"
END = "// END GENERATED VIEW TYPES"
ACTION_PY = ROOT / "server" / "rules" / "action.py"
UNION_BEGIN = "    # BEGIN GENERATED UNION (python -m server.api.jsdoc)"
UNION_END = "    # END GENERATED UNION"

_NAMES = {"int": "number", "float": "number", "str": "string", "bool": "boolean",
          "None": "null", "Any": "any", "object": "any"}
_TOKEN = re.compile(r"\s*([A-Za-z_][A-Za-z_0-9.]*|'[^']*'|[\[\],|])")


def js_type(annotation: str) -> str:
    """A Python annotation as written in a shape (e.g. `list[CardView] | None`) in
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
    for shape in seatview.SHAPES:
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


def render_union() -> str:
    """server/rules/action.py's block: an import of each registered action shape, then
    their union, in the registry's order (lines wrapped at 94 characters)."""
    lines = [UNION_BEGIN]
    for a in sorted(ACTIONS.values(), key=lambda a: a.shape.__module__):
        module = a.shape.__module__.rsplit(".", 1)[1]
        lines.append(f"    from .actions.{module} import {a.shape.__name__}")
    union = "    Action: TypeAlias = ("
    for i, a in enumerate(ACTIONS.values()):
        piece = a.shape.__name__ if i == 0 else f" | {a.shape.__name__}"
        if len(union) + len(piece) > 93:
            lines.append(union)
            union, piece = " " * 24, piece.lstrip()
        union += piece
    return "\n".join([*lines, union + ")", UNION_END])


def splice_union(text: str) -> str:
    start = text.index(UNION_BEGIN)
    end = text.index(UNION_END) + len(UNION_END)
    return text[:start] + render_union() + text[end:]


def main() -> None:
    drifted = False
    for path, fresh in ((TYPES_JS, splice), (ACTION_PY, splice_union)):
        current = path.read_text()
        wanted = fresh(current)
        drifted |= wanted != current
        if "--check" not in sys.argv:
            path.write_text(wanted)
    if "--check" in sys.argv:
        sys.exit(1 if drifted else 0)


if __name__ == "__main__":
    main()
