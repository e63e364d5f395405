"""Log lines as text (default) or as JSON objects, one per line (LOG_FORMAT=json).

A line about a room carries its display code in `room` (pass `extra={"room": code}`).
Tokens are never logged: they travel only in request bodies and frames, which are not.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

from uvicorn.config import LOGGING_CONFIG

from server.config import Settings


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        room = getattr(record, "room", None)
        if room is not None:
            line["room"] = room
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def log_config(settings: Settings) -> dict[str, Any]:
    """A logging.config.dictConfig for uvicorn and the server's own loggers."""
    level = settings.LOG_LEVEL.upper()
    if settings.LOG_FORMAT == "text":
        config = {**LOGGING_CONFIG, "loggers": dict(LOGGING_CONFIG["loggers"])}
        config["loggers"]["server"] = {"handlers": ["default"], "level": level,
                                       "propagate": False}
        return config
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "server.logs.JsonFormatter"}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "json",
                                "stream": "ext://sys.stderr"}},
        "loggers": {
            name: {"handlers": ["stderr"], "level": level, "propagate": False}
            for name in ("server", "uvicorn", "uvicorn.error", "uvicorn.access")
        },
        "root": {"handlers": ["stderr"], "level": "WARNING"},
    }
