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


class ClientFaults(logging.Filter):
    """A client's fault is not the server's error. uvicorn logs a text frame that is not
    UTF-8 at ERROR with its traceback (~1 KiB of log for a 10-byte frame: anyone could fill
    the disk); it is answered with close 1007, and becomes one INFO line."""

    MESSAGES = frozenset({"Invalid UTF-8 sequence received from client."})

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg not in self.MESSAGES:
            return True
        record.exc_info, record.exc_text = None, None
        record.levelno, record.levelname = logging.INFO, "INFO"
        return logging.getLogger(record.name).isEnabledFor(logging.INFO)


FILTERS = {"client_faults": {"()": "server.logs.ClientFaults"}}


def log_config(settings: Settings) -> dict[str, Any]:
    """A logging.config.dictConfig for uvicorn and the server's own loggers."""
    level = settings.LOG_LEVEL.upper()
    if settings.LOG_FORMAT == "text":
        config = {**LOGGING_CONFIG, "filters": FILTERS,
                  "loggers": dict(LOGGING_CONFIG["loggers"])}
        config["loggers"]["server"] = {"handlers": ["default"], "level": level,
                                       "propagate": False}
        config["loggers"]["uvicorn.error"] = {**config["loggers"]["uvicorn.error"],
                                              "filters": ["client_faults"]}
        return config
    loggers: dict[str, dict[str, Any]] = {
        name: {"handlers": ["stderr"], "level": level, "propagate": False}
        for name in ("server", "uvicorn", "uvicorn.error", "uvicorn.access")
    }
    loggers["uvicorn.error"]["filters"] = ["client_faults"]
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "server.logs.JsonFormatter"}},
        "filters": FILTERS,
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "json",
                                "stream": "ext://sys.stderr"}},
        "loggers": loggers,
        "root": {"handlers": ["stderr"], "level": "WARNING"},
    }
