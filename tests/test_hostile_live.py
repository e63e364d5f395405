"""Property-based hostile input against a real server: random frames and random requests.

Whatever arrives, the server answers with a documented code, never a 500 or a traceback,
and the game it guards does not change.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from tests.serving import served_process

FRAME_CODES = {"malformed", "unknown_type", "forbidden", "not_started", "stale",
               "not_your_turn", "illegal_action", "malformed_action", "game_over",
               "nothing_to_undo", "too_large", "spectators_full"}
HTTP_CODES = {"bad_host", "forbidden_origin", "unsupported_media_type", "too_large",
              "malformed", "not_found", "forbidden", "room_full", "name_invalid", "invisible_text",
              "not_waiting",
              "seats_empty", "game_over", "not_finished", "rate_limited", "unsupported_format",
              "rules_version_mismatch", "illegal_action", "result_mismatch", "method_not_allowed",
              "unavailable"}

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
                      st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)
frame = st.fixed_dictionaries(
    {"type": st.sampled_from(["hello", "act", "ping", "shout", ""])},
    optional={"id": json_value, "v": json_value, "token": json_value,
              "action": st.one_of(json_value, st.fixed_dictionaries(
                  {"type": st.sampled_from(["stop", "place", "step", "undo", "end_turn"])},
                  optional={"cell": json_value, "cup": json_value}))},
)
raw = st.one_of(st.text(max_size=200), st.binary(max_size=200).map(lambda b: b.decode("latin-1")),
                st.just('{"type": "act", "id": "\\ud800", "v": 1, "action": {}}'),
                st.just("[" * 3000 + "]" * 3000))


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    folder = tmp_path_factory.mktemp("hostile")
    log = folder / "server.log"
    with log.open("wb") as stderr, served_process(
        folder / "db.sqlite", stderr=stderr, WS_FLOOD_MESSAGES="100000", BOT_WORKERS="0",
        ROOM_CREATE_RATE="100000", PRESENCE_INTERVAL="0", WS_PER_ADDRESS="100000",
    ) as (url, _), httpx.Client(base_url=url, timeout=10) as api:
        room = api.post("/api/rooms", json={"players": 2}).json()
        tokens = [api.post(f"/api/rooms/{room['code']}/join", json={"name": n}).json()
                  ["seat_token"] for n in ("Ana", "Bo")]
        api.post(f"/api/rooms/{room['code']}/start", json={"token": room["host_token"]})
        yield {"url": url, "api": api, "code": room["code"], "tokens": tokens}
        text = log.read_text()
    assert "Traceback" not in text and "Exception in ASGI" not in text, text[-3000:]


def game_state(game: dict) -> str:
    info = game["api"].get(f"/api/rooms/{game['code']}").json()
    info.pop("spectators")
    return json.dumps(info, sort_keys=True)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(texts=st.lists(st.one_of(frame.map(lambda f: json.dumps(f)), raw), min_size=1,
                      max_size=5))
def test_random_frames_get_coded_answers_and_change_nothing(game, texts):
    before = game_state(game)
    with connect(f"ws{game['url'][4:]}/ws/{game['code']}", open_timeout=10) as ws:
        for text in texts:
            ws.send(text)
            ws.send('{"type": "ping"}')  # every frame is answered before this pong
            while (answer := json.loads(ws.recv(timeout=10)))["type"] != "pong":
                assert answer["type"] in ("snapshot", "patch", "watcher", "error"), answer
                if answer["type"] == "error":
                    assert answer["code"] in FRAME_CODES and answer["message"], answer
    assert game_state(game) == before


paths = st.sampled_from([
    "/api/rooms", "/api/rooms/{code}", "/api/rooms/{code}/join", "/api/rooms/{code}/leave",
    "/api/rooms/{code}/start", "/api/rooms/{code}/kick", "/api/rooms/{code}/bot",
    "/api/rooms/{code}/rematch", "/api/games", "/api/games/{id}", "/api/games/{id}/replay",
    "/api/games/import", "/games/{id}", "/r/{code}", "/healthz",
])
segment = st.one_of(st.integers(min_value=-(2**80), max_value=2**80).map(str),
                    st.text(alphabet=st.characters(codec="ascii", exclude_characters="/?#"),
                            max_size=12).map(lambda t: quote(t, safe="")))


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(method=st.sampled_from(["GET", "POST", "PUT", "DELETE"]), path=paths,
       code=st.one_of(segment, st.just("GAME")), game_id=segment,
       body=st.one_of(json_value.map(lambda v: json.dumps(v).encode()), st.binary(max_size=300)),
       content_type=st.sampled_from(["application/json", "text/plain", "", "application/json; x"]),
       origin=st.sampled_from([None, "https://evil.example", "null"]))
def test_random_requests_get_coded_answers_and_change_nothing(
    game, method, path, code, game_id, body, content_type, origin
):
    before = game_state(game)
    url = path.format(code=game["code"] if code == "GAME" else code, id=game_id)
    headers = {"content-type": content_type} if content_type else {}
    if origin:
        headers["origin"] = origin
    r = game["api"].request(method, url, content=body, headers=headers)
    assert r.status_code < 500, (method, url, r.status_code, r.text)
    if r.status_code >= 400 and r.headers.get("content-type", "").startswith("application/json"):
        assert r.json()["error"]["code"] in HTTP_CODES, r.text
    assert game_state(game) == before
