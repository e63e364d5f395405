"""GET /api/games (pages, player filter), /api/games/{id} and /api/games/{id}/replay."""

from __future__ import annotations

from collections.abc import Callable

import jsonpatch
from fastapi.testclient import TestClient

from server.rules import apply, new_game, view

from .helpers import Played


def names(item: dict) -> list[str]:
    return [p["name"] for p in item["players"]]


def test_the_list_is_newest_first_and_paginated(api: TestClient, ids: list[int]) -> None:
    first = api.get("/api/games", params={"per_page": 2}).json()
    assert (first["total"], first["page"], first["per_page"], first["pages"]) == (5, 1, 2, 3)
    assert [g["id"] for g in first["items"]] == [ids[4], ids[3]]
    third = api.get("/api/games", params={"per_page": 2, "page": 3}).json()
    assert [g["id"] for g in third["items"]] == [ids[0]]
    beyond = api.get("/api/games", params={"per_page": 2, "page": 4}).json()
    assert beyond["items"] == [] and beyond["total"] == 5
    everything = api.get("/api/games").json()
    assert [g["id"] for g in everything["items"]] == ids[::-1]


def test_a_list_item_has_players_scores_date_and_length(
    api: TestClient, ids: list[int], games: list[Played]
) -> None:
    item = api.get("/api/games").json()["items"][-1]  # the oldest: Ada v Bram
    record, result = games[0].record, games[0].final.result
    assert item["id"] == ids[0] and names(item) == ["Ada", "Bram"]
    assert [p["total"] for p in item["players"]] == [s["total"] for s in result["scores"]]
    assert [p["place"] for p in item["players"]] == result["places"]
    assert item["ended_at"] == record.ended_at.isoformat()
    assert item["duration"] == (record.ended_at - record.started_at).total_seconds()
    assert item["turns"] == max(result["turns"]) and item["action_count"] == len(record.actions)
    assert item["end_reason"] == result["reason"] and item["url"] == f"/games/{ids[0]}"


def test_the_player_filter_ignores_case(api: TestClient, ids: list[int]) -> None:
    found = api.get("/api/games", params={"player": " ADA "}).json()
    assert found["total"] == 3
    assert [g["id"] for g in found["items"]] == [ids[4], ids[1], ids[0]]
    assert all(any(n.casefold() == "ada" for n in names(g)) for g in found["items"])
    assert api.get("/api/games", params={"player": "Zoë"}).json()["total"] == 0
    paged = api.get("/api/games", params={"player": "eve", "per_page": 1, "page": 2}).json()
    assert paged["total"] == 3 and [g["id"] for g in paged["items"]] == [ids[3]]


def test_bad_paging_is_malformed(api: TestClient) -> None:
    for params in ({"per_page": 101}, {"page": 0}, {"per_page": "x"}):
        r = api.get("/api/games", params=params)
        assert r.status_code == 422 and r.json()["error"]["code"] == "malformed", params


def test_detail_has_every_action_in_order(
    api: TestClient, ids: list[int], games: list[Played]
) -> None:
    record = games[2].record
    detail = api.get(f"/api/games/{ids[2]}").json()
    assert detail["actions"] == [[seat, action] for seat, action in record.actions]
    assert any(action["type"] == "undo" for _, action in detail["actions"])
    assert (detail["seed"], detail["options"]) == (record.seed, record.options)
    assert detail["result"] == games[2].final.result
    assert [p["bot"] for p in detail["players"]] == [None, None, None, "greedy"]


def test_unknown_games_are_not_found(api: TestClient) -> None:
    for path in ("/api/games/999", "/api/games/999/replay", "/api/games/999/export"):
        r = api.get(path)
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found", path


def test_without_a_database_the_history_is_unavailable(
    make_client: Callable[[str | None], TestClient],
) -> None:
    r = make_client(None).get("/api/games")
    assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"


def test_replay_patches_rebuild_the_engine_view_of_every_step(
    api: TestClient, ids: list[int], games: list[Played]
) -> None:
    record = games[1].record
    replay = api.get(f"/api/games/{ids[1]}/replay").json()
    assert replay["room"]["seats"][2]["name"] == "Ada" and replay["you"]["seat"] is None
    steps = replay["steps"]
    assert [[s["seat"], s["action"]] for s in steps] == [list(a) for a in record.actions]
    game = new_game(record.seed, 3)
    shown = replay["initial"]
    assert shown == view(game, None)
    for step, (seat, action) in zip(steps, record.actions, strict=True):
        events = apply(game, action, seat)
        shown = jsonpatch.apply_patch(shown, step["ops"])
        assert shown == view(game, None), step["index"]
        assert step["events"] == events and step["turn"] == game.turn
    assert shown["phase"] == "over" and replay["turns"] == game.turn
    assert [s["total"] for s in shown["result"]["scores"]] == [
        s["total"] for s in record.result["scores"]
    ]
