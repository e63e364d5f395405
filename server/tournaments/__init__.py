"""Tournaments: Swiss and round robin at tables of 2 to 4, rounds that start themselves
(pairing.py the pure pairing and standings, store.py the queries, service.py the scheduler,
the rooms' listener and the page's watchers, frames.py the page socket's frames)."""

from .service import Tournaments, Watcher, document

__all__ = ["Tournaments", "Watcher", "document"]
