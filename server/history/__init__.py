"""Finished games after the fact: replaying them step by step, exporting and importing them.

    replay.py    rebuild a stored game with the engine: the final state, or every step
    document.py  the export document (format 1): build it, read and verify an import
    present.py   plain JSON for the API and pages: summaries, details, the replay
    outcome.py   how a stored game ended beyond the engine's reasons (abandoned)
    reviews.py   the expert's reviews: asked, queued, computed in the bot workers, stored
"""

from .document import (
    FORMAT,
    Document,
    ImportRefused,
    export_document,
    finished_game,
    import_code,
    read_document,
    replay_document,
    verify,
)
from .replay import ReplayError, Step, replay_game, replay_steps

__all__ = [
    "FORMAT", "Document", "ImportRefused", "ReplayError", "Step", "export_document",
    "finished_game", "import_code", "read_document", "replay_document", "replay_game",
    "replay_steps", "verify",
]
