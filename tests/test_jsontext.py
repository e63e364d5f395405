"""server.jsontext: compact JSON text, the same whichever way orjson is asked to write it."""

from __future__ import annotations

import json

import orjson
import pytest

from server.jsontext import dumpb, dumps


def test_string_keys_and_non_string_keys_read_as_json_would_write_them():
    for value in ({"a": [1, {"b": None}], "é": "ก\u2028"}, {1: "one", "x": {2: [True]}}, [],
                  None, "text", 2**63 - 1):
        assert json.loads(dumps(value)) == json.loads(json.dumps(value, ensure_ascii=False))
        assert dumpb(value) == dumps(value).encode()
    assert dumps({1: 2, "a": {3: 4}}) == '{"1":2,"a":{"3":4}}'


def test_what_cannot_be_json_is_refused_as_before():
    for value in ({"a": object()}, {"a": 2**64}, {(1, 2): 3}, float("nan")):
        try:
            expected = orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
        except orjson.JSONEncodeError:
            with pytest.raises(orjson.JSONEncodeError):
                dumpb(value)
        else:
            assert dumpb(value) == expected
