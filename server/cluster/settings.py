"""What cluster mode needs from the settings, refused in one line when it is missing."""

from __future__ import annotations

from sqlalchemy.engine import make_url

from server.config import Settings


class ClusterConfigError(ValueError):
    pass


def check_cluster_settings(settings: Settings, journal: object = None) -> None:
    backend = make_url(settings.DATABASE_URL).get_backend_name()
    if backend != "postgresql":
        raise ClusterConfigError(
            f"cluster mode (REDIS_URL is set) needs a PostgreSQL DATABASE_URL, not {backend}: "
            "every instance must read and write the same journal"
        )
    if journal is not None:
        raise ClusterConfigError("cluster mode journals to the database; no journal can be given")
