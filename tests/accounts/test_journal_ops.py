"""A seat's account travels through the journal's operations (the database, or the
fallback file while it is down) and comes back the same; older lines still read."""

from __future__ import annotations

from server.db import ops
from server.db.records import SeatRecord


def test_a_seats_account_survives_the_journal_line() -> None:
    seats = (SeatRecord(0, "Alice", None, "h0", account_id=7), SeatRecord(1, "Bob", None, "h1"),
             SeatRecord(2, "greedy bot", "greedy"))
    op = ops.decode(ops.encode(ops.seats_changed("ABCDEFGH", seats, 0)))
    assert ops.seat_records(op["seats"]) == seats
    assert op["seats"][1] == [1, "Bob", None, "h1"]  # no account: the line as before


def test_lines_written_before_accounts_still_read() -> None:
    assert ops.seat_records([[0, "Ana", None, "h", "greedy"], [1, "Bo", None, "g"]]) == (
        SeatRecord(0, "Ana", None, "h", "greedy"), SeatRecord(1, "Bo", None, "g"))
