"""The structural diff against the jsonpatch library, on hand-picked and generated pairs."""

from __future__ import annotations

import copy
import json

import jsonpatch
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.rooms.diff import diff

KEYS = st.sampled_from(["a", "b", "", "~", "/", "a/b", "~1", "x~0/y", "é"])

# The diff's contract (see server/rooms/diff.py): a value keeps its JSON type from one
# version to the next — views never turn a boolean into a number — so each generated pair
# uses either booleans or integers, never both, and no floats.
def json_values(numbers: st.SearchStrategy) -> st.SearchStrategy:
    return st.recursive(
        st.none() | numbers | st.text(max_size=3),
        lambda inner: st.lists(inner, max_size=5) | st.dictionaries(KEYS, inner, max_size=5),
        max_leaves=25,
    )


JSON_PAIRS = st.sampled_from([st.booleans(), st.integers(-3, 3)]).flatmap(
    lambda numbers: st.tuples(json_values(numbers), json_values(numbers))
)


def check(old, new):
    ops = diff(old, new)
    before = copy.deepcopy(old)
    patched = jsonpatch.apply_patch(old, ops)
    assert old == before, "diff or patch mutated the input"
    assert json.dumps(patched, sort_keys=True) == json.dumps(new, sort_keys=True), ops
    return ops


@given(JSON_PAIRS)
@settings(max_examples=400, derandomize=True, deadline=None)
def test_patch_turns_old_into_new(pair):
    check(*pair)


@given(json_values(st.booleans() | st.integers(-3, 3)))
@settings(max_examples=100, derandomize=True, deadline=None)
def test_no_ops_between_equal_documents(doc):
    assert diff(doc, copy.deepcopy(doc)) == []


@pytest.mark.parametrize(("old", "new", "ops"), [
    ({"a": 1}, {"a": 1}, []),
    ({"a": True}, {"a": 1}, [{"op": "replace", "path": "/a", "value": 1}]),
    ({"a": 1}, {"a": 1.0}, [{"op": "replace", "path": "/a", "value": 1.0}]),
    ([1, 2, 3], [1], [{"op": "remove", "path": "/2"}, {"op": "remove", "path": "/1"}]),
    ([1], [1, 2], [{"op": "add", "path": "/-", "value": 2}]),
    ({"a/b": {"~": 1}}, {"a/b": {"~": 2}}, [{"op": "replace", "path": "/a~1b/~0", "value": 2}]),
    ({"x": []}, {"x": {}}, [{"op": "replace", "path": "/x", "value": {}}]),
    (1, [1], [{"op": "replace", "path": "", "value": [1]}]),
])
def test_known_diffs(old, new, ops):
    assert check(old, new) == ops


def test_prefix():
    assert diff({"a": 1}, {"a": 2}, "/game") == [{"op": "replace", "path": "/game/a", "value": 2}]
