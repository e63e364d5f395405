"""An action is one declaration (issue 44): a module added to server/rules/actions/, and
nothing else, is registered, listed in its phase at its place, checked, applied, and sent
to the browser in /api/rules-data; the typed union (server/rules/action.py) takes it in
when regenerated. Run on a copy of the sources with one module added."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.serving import edited_sources

# A house rule as a developer would add it: a button, after the pours and returns, that
# gives back every token in hand (R-POUR's return, all at once).
MODULE = '''"""Return every token in hand at once (R-POUR)."""

from __future__ import annotations

from typing import Literal, TypedDict

from ..actiontype import Events, Key, declare, keep
from ..state import POUR, Game


class ReturnAll(TypedDict):
    type: Literal["return_all"]


_RETURN_ALL = keep(("return_all",), ReturnAll(type="return_all"))


def legal(game: Game, out: list[ReturnAll]) -> None:
    if any(game.hand):
        out.append(_RETURN_ALL)


def apply(game: Game, key: Key, legal: ReturnAll) -> Events:
    for ing, count in enumerate(game.hand):
        game.supply[ing] += count
    game.hand = [0] * len(game.hand)
    return []


ACTION = declare(ReturnAll, phases=(POUR,), order=4, rule="R-POUR", control="button",
                 legal=legal, apply=apply)
'''

PROBE = '''
import json, random
from server.api.rules_data import rules_data
from server.rules import apply, is_over, legal_actions, new_game
from server.rules.actions import action_key
from server.rules.registry import ACTIONS

game, rng, seen = new_game(5, 3), random.Random(5), None
while seen is None and not is_over(game):
    legal = legal_actions(game)
    if {"type": "return_all"} in legal:
        seen = {"legal": [a["type"] for a in legal], "hand": sum(game.hand),
                "supply": sum(game.supply)}
        apply(game, {"type": "return_all"})
        seen |= {"after": [a["type"] for a in legal_actions(game)],
                 "hand_after": sum(game.hand), "supply_after": sum(game.supply)}
    else:
        apply(game, rng.choice(legal))
print(json.dumps({"types": list(ACTIONS), "key": list(action_key({"type": "return_all"})),
                  "data": [a for a in rules_data()["actions"] if a["type"] == "return_all"],
                  "seen": seen}))
'''

UNION = "from server.api.jsdoc import render_union; print(render_union())"


def test_a_new_action_type_is_one_module(tmp_path: Path) -> None:
    src = edited_sources(tmp_path / "src", added={"server/rules/actions/return_all.py": MODULE})
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=src, capture_output=True,
                         text=True, check=True).stdout
    found = json.loads(out)
    assert found["types"][found["types"].index("done_pouring") + 1] == "return_all"
    assert found["key"] == ["return_all"]
    assert found["data"] == [{"type": "return_all", "fields": [], "phases": ["pour"],
                              "rule": "R-POUR", "control": "button"}]
    seen = found["seen"]
    assert seen["legal"][-1] == "return_all" and "done_pouring" not in seen["legal"]
    assert seen["hand_after"] == 0 and seen["supply_after"] == seen["supply"] + seen["hand"]
    assert seen["after"][-1] == "done_pouring" and "return_all" not in seen["after"]
    # mypy's union is regenerated, not written (static/ is shared with the copy: only read)
    assert "ReturnAll" not in (src / "server" / "rules" / "action.py").read_text()
    union = subprocess.run([sys.executable, "-c", UNION], cwd=src, capture_output=True,
                           text=True, check=True).stdout
    assert "from .actions.return_all import ReturnAll" in union and "| ReturnAll" in union
