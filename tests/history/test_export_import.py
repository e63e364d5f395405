"""Export a finished game as JSON; importing that JSON reproduces the same final state."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.history import ImportRefused, import_code, read_document, replay_document
from server.rules import RULES_VERSION, final_result, to_dict

from .helpers import Played


def exported(api: TestClient, game_id: int) -> dict[str, Any]:
    r = api.get(f"/api/games/{game_id}/export")
    assert r.status_code == 200
    assert r.headers["content-disposition"].startswith("attachment; filename=")
    return r.json()


def test_every_stored_game_replays_to_its_stored_scores(
    api: TestClient, ids: list[int], games: list[Played]
) -> None:
    for game_id, known in zip(ids, games, strict=True):
        final = replay_document(exported(api, game_id))
        assert to_dict(final) == to_dict(known.final)
        detail = api.get(f"/api/games/{game_id}").json()
        assert final_result(final) == detail["result"]
        assert [p["total"] for p in detail["players"]] == [
            s["total"] for s in final.result["scores"]
        ]


def test_the_document_is_self_contained(api: TestClient, ids: list[int],
                                        games: list[Played]) -> None:
    doc = exported(api, ids[2])
    record = games[2].record
    assert doc["format"] == 1 and doc["rules_version"] == RULES_VERSION
    assert (doc["seed"], doc["options"]) == (record.seed, record.options)
    assert doc["players"][3] == {"seat": 3, "name": "Eve", "bot": "greedy"}
    assert doc["actions"] == [[seat, action] for seat, action in record.actions]
    assert doc["result"] == record.result and doc["room_code"] == record.room_code


def test_import_round_trip_reproduces_the_same_game(
    api: TestClient, ids: list[int], games: list[Played],
    make_client: Callable[[str | None], TestClient], empty_db_url: str,
) -> None:
    doc = exported(api, ids[4])
    elsewhere = make_client(empty_db_url)
    r = elsewhere.post("/api/games/import", json=doc)
    assert r.status_code == 201, r.text
    new_id = r.json()["id"]
    assert r.json()["url"] == f"/games/{new_id}"
    again = elsewhere.get(f"/api/games/{new_id}/export").json()
    assert to_dict(replay_document(again)) == to_dict(games[4].final)
    for key in ("seed", "options", "players", "actions", "result", "started_at", "ended_at"):
        assert again[key] == doc[key], key
    assert again["room_code"] == import_code(read_document(doc))
    listed = elsewhere.get("/api/games", params={"player": "ADA"}).json()
    assert [g["id"] for g in listed["items"]] == [new_id]
    assert [p["total"] for p in listed["items"][0]["players"]] == [
        s["total"] for s in games[4].final.result["scores"]
    ]
    # The same document again is the same game: stored once.
    assert elsewhere.post("/api/games/import", json=doc).json()["id"] == new_id
    assert elsewhere.get("/api/games").json()["total"] == 1


def tamper(doc: dict[str, Any], how: str) -> dict[str, Any]:
    bad = copy.deepcopy(doc)
    if how == "action":  # the first meeple goes somewhere else: the game diverges
        first = bad["actions"][0][1]
        first["cell"] = "r4c4" if first["cell"] != "r4c4" else "r1c1"
    elif how == "seat":
        bad["actions"][5][0] = (bad["actions"][5][0] + 1) % bad["options"]["players"]
    elif how == "score":
        bad["result"]["scores"][0]["total"] += 1
    elif how == "winners":
        bad["result"]["winners"] = [bad["result"]["ranking"][-1]]
    elif how == "truncated":
        bad["actions"] = bad["actions"][:-1]
    elif how == "extra":
        bad["actions"].append([0, {"type": "end_turn"}])
    elif how == "seed":
        bad["seed"] += 1
    elif how == "rules":
        bad["rules_version"] += 1
    elif how == "format":
        bad["format"] = 2
    elif how == "players":
        bad["players"] = bad["players"][:-1]
    elif how == "bad_type":
        bad["actions"][3] = [0, "step"]
    return bad


@pytest.mark.parametrize(("how", "status", "code"), [
    ("action", 422, "illegal_action"),
    ("seat", 422, "illegal_action"),
    ("score", 422, "result_mismatch"),
    ("winners", 422, "result_mismatch"),
    ("truncated", 422, "not_finished"),
    ("extra", 422, "illegal_action"),
    ("seed", 422, "illegal_action"),
    ("rules", 409, "rules_version_mismatch"),
    ("format", 422, "unsupported_format"),
    ("players", 422, "malformed"),
    ("bad_type", 422, "malformed"),
])
def test_a_tampered_export_is_refused(
    api: TestClient, ids: list[int], how: str, status: int, code: str
) -> None:
    doc = tamper(exported(api, ids[1]), how)
    with pytest.raises(ImportRefused) as refused:
        replay_document(doc)
    assert (refused.value.status, refused.value.code) == (status, code)
    r = api.post("/api/games/import", json=doc)
    assert r.status_code == status and r.json()["error"]["code"] == code, r.text
    assert api.get("/api/games").json()["total"] == 5  # nothing stored


def test_junk_is_refused(api: TestClient) -> None:
    for body in (b"not json", b"[1, 2]", b"{}"):
        r = api.post("/api/games/import", content=body,
                     headers={"content-type": "application/json"})
        assert r.status_code == 422, body
        assert r.json()["error"]["code"] in ("malformed", "unsupported_format"), body
    r = api.post("/api/games/import", content=b" " * 2_000_001,
                 headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
