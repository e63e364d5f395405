"""A room's accepted actions, kept as JSON text, read back as the (seat, action) pairs they
were: in order, by index and slice, equal to the same pairs in a list; what comes back is
what the journal and a restart give (a trip through JSON)."""

from __future__ import annotations

from server.rooms.actionlog import ActionLog

MOVE = {"type": "move", "meeple": 1, "to": "c3"}
POUR = {"type": "pour", "ingredient": "milk", "cup": 2}
STOP = {"type": "stop"}


def test_actions_come_back_in_order_by_index_slice_and_iteration() -> None:
    log = ActionLog()
    log.append(0, MOVE)
    log.append(0, POUR)
    log.append(1, STOP)
    assert len(log) == 3
    assert list(log) == [(0, MOVE), (0, POUR), (1, STOP)]
    assert log[0] == (0, MOVE) and log[-1] == (1, STOP)
    assert log[1:] == [(0, POUR), (1, STOP)]
    assert log == [(0, MOVE), (0, POUR), (1, STOP)] and log != [(0, MOVE)]
    assert log == ActionLog([(0, MOVE), (0, POUR), (1, STOP)])
    assert ActionLog() == [] and not ActionLog()


def test_a_read_action_is_a_fresh_copy_as_json_makes_it() -> None:
    action = {"type": "move", "path": (1, 2), "to": "c3"}
    log = ActionLog([(2, action)])
    seat, back = log[0]
    assert (seat, back) == (2, {"type": "move", "path": [1, 2], "to": "c3"})
    back["to"] = "changed"  # the log keeps its own text
    assert log[0][1]["to"] == "c3"
    action["to"] = "changed too"
    assert log[0][1]["to"] == "c3"


def test_indexes_past_either_end_and_text_beyond_ascii_read_as_in_a_list() -> None:
    import pytest

    pairs = [(0, {"type": "chat", "text": "สวัสดี 안녕"}), (3, STOP), (1, MOVE)]
    log = ActionLog(pairs)
    assert log[0] == pairs[0] and log[-3] == pairs[0] and log[2] == pairs[2]
    assert log[::-1] == pairs[::-1] and log[5:] == [] and log[-2:-1] == [pairs[1]]
    for beyond in (3, -4):
        with pytest.raises(IndexError):
            log[beyond]
