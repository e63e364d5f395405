"""The Origin check: browsers on other sites may not open a table's socket.

Clients that send no Origin (bots, scripts) are allowed; browsers always send one.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers


def origin_allowed(headers: Headers, allowed: list[str]) -> bool:
    origin = headers.get("origin")
    if origin is None:
        return True
    origin = origin.rstrip("/")
    if "*" in allowed or origin in allowed:
        return True
    # Same origin: the page was served by this host.
    return urlsplit(origin).netloc.lower() == headers.get("host", "").lower()
