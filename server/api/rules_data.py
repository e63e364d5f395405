"""The component data the browser needs, from the modules that own it (never a JS copy).

Served at GET /api/rules-data and embedded in every page as
`<script type="application/json" id="rules-data">` (data, not script: the CSP forbids
inline script); static/js/core/rules-data.js reads it.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from server.bots.levels import LEVELS
from server.error_codes import ERRORS
from server.rooms.chat import REACTIONS, TEXT_MAX
from server.rooms.codes import ALPHABET, LENGTH
from server.rooms.events import EVENTS
from server.rooms.options import option_form
from server.rooms.seating import NAME_MAX
from server.rules import OVER, PHASES, RULES_VERSION, TURN_PHASES
from server.rules.data import (
    BOARD_ROWS,
    CELL_NAMES,
    CORNERS,
    INGREDIENTS,
    SPECIALTY_CELLS,
    SPECIALTY_INGREDIENTS,
    UPGRADES,
)
from server.rules.registry import ACTIONS

from .errors import EVERY_ROUTE
from .rules_models import RulesData

router = APIRouter(responses=EVERY_ROUTE)


def rules_data() -> dict[str, Any]:
    return {
        "rules_version": RULES_VERSION,
        "board": [list(row) for row in BOARD_ROWS],  # ingredient names, row by row
        "cells": list(CELL_NAMES),  # "r1c1".."r4c4", row by row
        "specialty_ingredients": [i for i in INGREDIENTS if i in SPECIALTY_INGREDIENTS],
        "specialty_cells": [CELL_NAMES[c] for c in sorted(SPECIALTY_CELLS)],
        "corners": [CELL_NAMES[c] for c in sorted(CORNERS)],
        "ingredients": list(INGREDIENTS),
        "tiles": list(UPGRADES),
        "phases": list(PHASES),
        "phase_over": OVER,
        "turn_phases": list(TURN_PHASES),  # a player's turn: upgrade, move, pour, process
        "actions": [a.public() for a in ACTIONS.values()],
        "events": [e.public() for e in EVENTS.values()],
        "bot_levels": list(LEVELS),
        "options": option_form(),  # the lobby's form and the waiting room's summary
        "name_max": NAME_MAX,
        "code_alphabet": ALPHABET,
        "code_length": LENGTH,
        "chat_max": TEXT_MAX,
        "reactions": list(REACTIONS),
        "error_codes": list(ERRORS),  # each has its sentence `err.<code>` in every language
    }


@router.get("/api/rules-data", response_model=None, responses={200: {"model": RulesData}})
async def get_rules_data() -> dict[str, Any]:
    """The board, ingredients, tiles, phases, action types, bot levels, limits and error
    codes."""
    return rules_data()
