"""A structural JSON diff producing RFC 6902 operations.

Objects are compared key by key, lists element by element (a change in length adds or
removes at the tail), anything else is replaced when it differs. No move/copy detection:
views are small and this keeps the diff linear and predictable.

Contract: a value keeps its JSON type from one version to the next (views never turn a
boolean into a number, and hold no floats). Then Python's `==` is JSON equality, so whole
unchanged subtrees are skipped at C speed instead of being walked key by key.
"""

from __future__ import annotations

from typing import Any

Op = dict[str, Any]


def escape(token: str) -> str:
    """A JSON Pointer reference token (RFC 6901): '~' -> '~0', '/' -> '~1'."""
    if "~" in token or "/" in token:
        return token.replace("~", "~0").replace("/", "~1")
    return token


def diff(old: Any, new: Any, path: str = "") -> list[Op]:
    """The operations that turn `old` into `new`, with paths under `path`."""
    ops: list[Op] = []
    _diff(old, new, path, ops)
    return ops


def _diff(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    if old is new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        same_keys = old.keys() == new.keys()
        for key, value in old.items():
            if same_keys or key in new:
                other = new[key]
                # Inlined for the common cases (the same object, an equal value, a changed
                # scalar): a call per key is most of the cost of diffing a view.
                if value is other:
                    continue
                if type(value) is not type(other):
                    _diff(value, other, f"{path}/{escape(key)}", ops)
                elif value != other:
                    if isinstance(value, (dict, list)):
                        _diff(value, other, f"{path}/{escape(key)}", ops)
                    else:
                        ops.append({"op": "replace", "path": f"{path}/{escape(key)}",
                                    "value": other})
            else:
                ops.append({"op": "remove", "path": f"{path}/{escape(key)}"})
        if not same_keys:
            for key, value in new.items():
                if key not in old:
                    ops.append({"op": "add", "path": f"{path}/{escape(key)}", "value": value})
        return
    if isinstance(old, list) and isinstance(new, list):
        common = min(len(old), len(new))
        for i in range(common):
            a, b = old[i], new[i]
            if a is b:
                continue
            if type(a) is not type(b):
                _diff(a, b, f"{path}/{i}", ops)
            elif a != b:
                if isinstance(a, (dict, list)):
                    _diff(a, b, f"{path}/{i}", ops)
                else:
                    ops.append({"op": "replace", "path": f"{path}/{i}", "value": b})
        # Remove from the end backwards so each index is valid when applied.
        for i in range(len(old) - 1, common - 1, -1):
            ops.append({"op": "remove", "path": f"{path}/{i}"})
        for i in range(common, len(new)):
            ops.append({"op": "add", "path": f"{path}/-", "value": new[i]})
        return
    # Python has True == 1 == 1.0; the JSON texts differ, so the types must match too.
    if type(old) is not type(new) or old != new:
        ops.append({"op": "replace", "path": path, "value": new})
