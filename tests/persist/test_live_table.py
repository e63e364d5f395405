"""tests/persist/live.py's Table: one whose set-up fails closes what it opened. Left open,
its socket fails whichever test of the worker is running when the garbage collector finds it
(a ResourceWarning is an error here), far from the cause."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from tests.cluster.conftest import At
from tests.persist.live import Table
from tests.serving import served


def test_a_table_that_fails_to_set_up_leaves_no_socket_open(tmp_path: Path) -> None:
    with served(tmp_path / "rooms.db") as url:
        with pytest.raises(KeyError):  # a table of five: the create is refused, no code
            Table(At(url), 5, seed=1)  # type: ignore[arg-type]
        gc.collect()  # a socket left open warns here, in this test
