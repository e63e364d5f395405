"""api/ never rules (docs/ARCHITECTURE.md): its routes call rooms/ (or db/), and from
rules/ they read only data and declarations (component data, the rules version, phase
names, shapes, the action registry for the client's list), never a rule: no apply, no
legality, no game state judged here. Checked on the source, name by name."""

from __future__ import annotations

import ast
from pathlib import Path

API = Path(__file__).resolve().parents[2] / "server" / "api"

# What api/ may take from server.rules: data and declarations, no function of the game.
DATA = {
    "server.rules": {"MAX_PLAYERS", "OVER", "PHASES", "RULES_VERSION", "TURN_PHASES", "seatview"},
    "server.rules.data": None,  # the component data (any name)
    "server.rules.registry": {"ACTIONS"},  # the declarations, for the client's list and docs
}


def imports_from_rules() -> list[tuple[str, str, str]]:
    found = []
    for path in sorted(API.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("server.rules"):
                found += [(path.name, node.module or "", alias.name) for alias in node.names]
            elif isinstance(node, ast.Import):
                found += [(path.name, a.name, "*") for a in node.names
                          if a.name.startswith("server.rules")]
    return found


def test_api_reads_only_data_and_declarations_from_the_rules() -> None:
    rules = [(f, m, n) for f, m, n in imports_from_rules()
             if m not in DATA or (DATA[m] is not None and n not in DATA[m])]
    assert rules == []


def test_the_check_sees_the_imports_it_allows() -> None:
    """Not vacuous: api/ does read the rules' data."""
    assert ("rules_data.py", "server.rules.registry", "ACTIONS") in imports_from_rules()
