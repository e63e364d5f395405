"""The action: one union of every action type's shape (each a TypedDict in its module of
actions/), so mypy follows an action from a client's frame to `apply`.

The union is said twice, the same both times: for mypy, the block below, generated from
the registry with the browser's typedefs (`python -m server.api.jsdoc`; tests/api/
test_jsdoc.py fails when it drifts); at run time, the union of the registry's shapes, so
a module added to or taken from actions/ needs nothing else to run. The block only ever
runs under a type checker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias, Union, cast

from .actions import ACTIONS, action_key

if TYPE_CHECKING:
    # BEGIN GENERATED UNION (python -m server.api.jsdoc)
    from .actions.choose_meeple import ChooseMeeple
    from .actions.done_pouring import DonePouring
    from .actions.empty import Empty
    from .actions.end_turn import EndTurn
    from .actions.place import Place
    from .actions.pour import Pour
    from .actions.return_ import Return
    from .actions.serve import Serve
    from .actions.skip_upgrade import SkipUpgrade
    from .actions.starting_cup import StartingCup
    from .actions.step import Step
    from .actions.stop import Stop
    from .actions.undo import Undo
    from .actions.upgrade import Upgrade
    Action: TypeAlias = (Place | StartingCup | Upgrade | SkipUpgrade | ChooseMeeple | Step
                        | Stop | Pour | Return | Empty | DonePouring | Serve | EndTurn | Undo)
    # END GENERATED UNION
else:
    Action = Union[tuple(a.shape for a in ACTIONS.values())]  # noqa: UP007 - made at run time


def parse_action(data: object) -> Action:
    """`data` as an action once its shape is checked (MalformedAction if it is none): the
    same dict, so parsing costs only the check. Where outside data becomes an action (a
    client's frame, an imported game); the engine checks every action again."""
    action_key(data)
    return cast("Action", data)
