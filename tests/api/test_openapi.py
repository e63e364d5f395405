"""The OpenAPI document says what the server does (issue 41.19): every request its schemas
allow is taken (or refused only for the state it meets: no such room, a seat taken, not
signed in...), pages document the JSON errors they answer, OPTIONS names the methods a
path takes, and the data the browser reads is described field by field."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.api.rules_data import rules_data
from server.api.rules_models import RulesData
from server.config import Settings
from server.main import create_app
from tests.api.schema_values import resolve, values
from tests.serving import ROOT

ERROR_BODY = "#/components/schemas/ErrorBody"
# Refusals that depend on the state a request meets, not on its shape.
STATE = {401, 403, 404, 409, 429, 503}
# Replaying a document is what checks it: its shape alone cannot say its result is right.
NOT_DRAWN = {("post", "/api/games/import")}


def operations(doc: dict[str, Any]) -> list[tuple[str, str]]:
    return [(method, path) for path, ops in doc["paths"].items() for method, op in ops.items()
            if (method, path) not in NOT_DRAWN
            and ("requestBody" in op or any(p["in"] == "query" for p in op.get("parameters", ())))]


@pytest.fixture
def client(make_settings: Callable[..., Settings]) -> Iterator[TestClient]:
    """With the real templates: pages are requested too."""
    settings = make_settings(TEMPLATES_DIR=ROOT / "templates", ROOM_CREATE_RATE=100_000)
    # A drawn sign-up leaves a session cookie: later requests say they come from this
    # site, as the page's own fetch does (a cookie without Origin or Sec-Fetch-Site is refused).
    with TestClient(create_app(settings), headers={"Sec-Fetch-Site": "same-origin"}) as c:
        yield c


@pytest.fixture
def doc(client: TestClient) -> dict[str, Any]:
    return client.get("/api/openapi.json").json()


def full_room(client: TestClient) -> tuple[str, dict[str, str]]:
    """A 4-seat room with every seat taken: its code and the tokens a body may name."""
    made = client.post("/api/rooms", json={"players": 4}).json()
    seats = [client.post(f"/api/rooms/{made['code']}/join", json={"name": f"P{n}"}).json()
             for n in range(4)]
    assert "seat_token" in seats[0], seats
    return made["code"], {"token": made["host_token"], "seat_token": seats[0]["seat_token"]}


def empty_room(client: TestClient) -> tuple[str, dict[str, str]]:
    made = client.post("/api/rooms", json={"players": 4}).json()
    return made["code"], {"token": made["host_token"], "seat_token": made["host_token"]}


def test_every_request_the_schema_allows_is_taken(client: TestClient,
                                                  doc: dict[str, Any]) -> None:
    """Bodies and queries drawn from each operation's schema are never refused for their
    shape (400 or 422) unless the schema names that refusal: a field whose description
    says "else 422 name_invalid" announces a check a schema cannot express."""
    refused: dict[tuple[str, str], tuple[Any, str]] = {}
    for method, path in operations(doc):
        op = doc["paths"][path][method]
        schema = op.get("requestBody", {}).get("content", {}).get("application/json", {})
        body = schema.get("schema")
        named = announced(resolve_all(doc, body)) if body is not None else set()
        query = {p["name"]: values(doc, p["schema"]) for p in op.get("parameters", ())
                 if p["in"] == "query"}
        room = empty_room if path.endswith("/join") else full_room
        found = check_operation(client, method, path, room, body, query, named, doc)
        if found is not None:
            refused[(method, path)] = found
    assert refused == {}, "\n".join(f"{m} {p}: {v!r} -> {why}"
                                     for (m, p), (v, why) in refused.items())


def check_operation(
    client: TestClient, method: str, path: str,
    room: Callable[[TestClient], tuple[str, dict[str, str]]],
    body: dict[str, Any] | None, query: dict[str, Any], named: set[str], doc: dict[str, Any],
) -> tuple[Any, str] | None:
    """The first request of this operation refused for its shape (body or query, and the
    refusal), or None."""
    first: list[tuple[Any, str]] = []
    bodies = values(doc, body) if body is not None else st.none()

    # 20 draws an operation: with these fixed draws every check a handler makes on the
    # shape beyond its schema (the "else 422" ones) is met by the 6th at the latest (join's
    # and the lesson's name_invalid by the 3rd, sign-up's by the 1st, clock's malformed by
    # the 6th); 40 cost twice the time and met no other shape refusal.
    @settings(max_examples=20, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(bodies, st.fixed_dictionaries({}, optional=query))
    def probe(value: Any, params: dict[str, Any]) -> None:
        if first:
            return
        keys = [k for k in ("token", "seat_token") if isinstance(value, dict) and k in value]
        url = path.replace("{game_id}", "1").replace("{name}", "x")
        # A room is made only for a request that names one (in its path or its tokens): it
        # costs five requests, and a room nobody names changes nothing of what is checked.
        if "{code}" in path or keys:
            code, tokens = room(client)
            if keys:
                value.update({k: tokens[k] for k in keys})
            url = url.replace("{code}", code)
        # In a query, a whole number is written as one ("3", not "3.0").
        params = {k: int(v) if isinstance(v, float) and v.is_integer() else v
                  for k, v in params.items() if v is not None}
        sent: dict[str, Any] = {"params": params}
        if body is not None:
            sent["json"] = value
        r = client.request(method.upper(), url, **sent)
        if r.status_code in (400, 422):
            error = r.json()["error"]
            if error["code"] not in named:
                first.append((value if body is not None else params,
                              f"{r.status_code} {error['code']}: {error['message']}"))
        else:
            assert r.status_code < 400 or r.status_code in STATE, (path, value, r.text)

    probe()
    return first[0] if first else None


def announced(schema: Any) -> set[str]:
    """The codes a schema names in its descriptions as "else 422 a, b" (or 400)."""
    found = re.findall(r"else 4(?:00|22) ([a-z_]+(?:, [a-z_]+)*)", json.dumps(schema))
    return {code for codes in found for code in codes.split(", ")}


def resolve_all(doc: dict[str, Any], schema: Any) -> Any:
    if isinstance(schema, dict):
        return {k: resolve_all(doc, v) for k, v in resolve(doc, schema).items()}
    if isinstance(schema, list):
        return [resolve_all(doc, v) for v in schema]
    return schema


def test_pages_document_the_json_errors_they_answer(client: TestClient,
                                                    doc: dict[str, Any]) -> None:
    """A page refuses a request it cannot take (a wrong method, a malformed query, a body
    too large) in JSON, as every route does; only its 404 is also a page."""
    pages = [(path, op) for path, ops in doc["paths"].items() for op in ops.values()
             if "text/html" in op["responses"].get("200", {}).get("content", {})]
    assert len(pages) >= 8
    for path, op in pages:
        for status, answer in op["responses"].items():
            if status.startswith(("4", "5")):
                content = answer["content"]
                assert content["application/json"]["schema"]["$ref"] == ERROR_BODY, \
                    (path, status)
                assert set(content) <= ({"application/json", "text/html"} if status == "404"
                                        else {"application/json"}), (path, status)
    r = client.post("/rules", json={})
    assert r.status_code == 405 and r.headers["content-type"] == "application/json"
    assert set(r.json()["error"]) == {"code", "message"}


def test_options_names_the_methods_a_path_takes(client: TestClient) -> None:
    """/api/games/import takes POST only: the game route beside it (/api/games/{game_id})
    takes numbers, not "import"."""
    r = client.options("/api/games/import")
    assert r.status_code == 405 and r.headers["allow"] == "POST"
    assert client.get("/api/games/import").headers["allow"] == "POST"
    assert client.options("/api/games/12").headers["allow"] == "GET, HEAD"


def test_rules_data_is_documented_field_by_field(client: TestClient,
                                                 doc: dict[str, Any]) -> None:
    answer = doc["paths"]["/api/rules-data"]["get"]["responses"]["200"]
    schema = resolve(doc, answer["content"]["application/json"]["schema"])
    assert set(schema["properties"]) == set(rules_data())  # every key, no more
    for name, field in schema["properties"].items():
        assert field.get("description"), name
    options = resolve(doc, schema["properties"]["options"]["items"])
    assert {"name", "control", "default", "choices"} <= set(options["properties"])
    assert schema["properties"]["turn_phases"]["items"]["enum"] == rules_data()["turn_phases"]
    sent = client.get("/api/rules-data").json()
    assert sent == json.loads(json.dumps(rules_data()))
    RulesData.model_validate(sent)  # and nothing it does not declare


def test_the_room_options_are_documented(doc: dict[str, Any]) -> None:
    create = doc["components"]["schemas"]["CreateRoom"]["properties"]
    for name in ("mode", "hints", "rated", "public", "clock", "starting_player"):
        assert create[name].get("description"), name
    assert create["mode"]["enum"] == ["realtime", "turn_based"]
