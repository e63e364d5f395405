"""The HTTP boundary: every hostile request gets a 4xx in the one error shape, never a 500."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient

from server.main import create_app
from tests.serving import ROOT

JSON = {"content-type": "application/json"}


def refused(r, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code and r.json()["error"]["message"], r.text


@pytest.mark.parametrize("path", ["/api/games/{}", "/api/games/{}/replay",
                                  "/api/games/{}/export", "/games/{}"])
@pytest.mark.parametrize("game_id", [2**63, 2**64 + 5, 10**40, -(2**63) - 1])
def test_ids_beyond_64_bits_are_malformed_not_a_crash(client, path, game_id):
    refused(client.get(path.format(game_id)), 422, "malformed")


def test_the_largest_id_is_simply_not_found(client):
    refused(client.get(f"/api/games/{2**63 - 1}"), 404, "not_found")


@pytest.mark.parametrize("depth", [1100, 100_000])
def test_deeply_nested_import_is_malformed(client, depth):
    body = b"[" * depth + b"]" * depth
    refused(client.post("/api/games/import", content=body, headers=JSON), 422, "malformed")
    nested = b'{"format": ' + b'{"a":' * depth + b"1" + b"}" * depth + b"}"
    refused(client.post("/api/games/import", content=nested, headers=JSON), 422, "malformed")


@pytest.mark.parametrize("path", ["/api/rooms", "/api/games/import"])
@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x"])
def test_state_changing_routes_take_only_json(client, path, content_type):
    headers = {} if content_type is None else {"content-type": content_type}
    refused(client.post(path, content=b'{"players": 2}', headers=headers),
            415, "unsupported_media_type")
    assert client.app.state.rooms.rooms == {}


def test_json_with_a_charset_is_json(client):
    r = client.post("/api/rooms", content=b'{"players": 2}',
                    headers={"content-type": "application/json; charset=utf-8"})
    assert r.status_code == 201, r.text


@pytest.mark.parametrize("path", ["/api/rooms", "/api/games/import"])
def test_foreign_origins_cannot_change_state(client, path):
    r = client.post(path, json={"players": 2}, headers={"origin": "https://evil.example"})
    refused(r, 403, "forbidden_origin")
    assert client.app.state.rooms.rooms == {}
    ok = client.post("/api/rooms", json={"players": 2}, headers={"origin": "http://testserver"})
    assert ok.status_code == 201


@pytest.mark.parametrize("host", ["evil.example", "rebind.attacker.test:8000", "", "[::2]"])
def test_unknown_host_names_are_refused(client, host):
    refused(client.get("/api/rooms", headers={"host": host}), 400, "bad_host")
    refused(client.post("/api/rooms", json={"players": 2}, headers={"host": host}),
            400, "bad_host")
    assert client.app.state.rooms.rooms == {}


def test_a_rebinding_page_cannot_open_a_socket(client, table):
    from starlette.websockets import WebSocketDisconnect

    code = table().code
    with pytest.raises(WebSocketDisconnect) as refused_ws, client.websocket_connect(
        f"/ws/{code}", headers={"host": "rebind.attacker.test", "origin": "http://rebind.attacker.test"}
    ):
        pass
    assert refused_ws.value.code == 1008


def test_default_hosts_are_the_configured_host_and_loopback(make_settings):
    settings = make_settings(ALLOWED_HOSTS=[], HOST="games.example.org")
    assert settings.allowed_hosts == ["127.0.0.1", "::1", "games.example.org", "localhost"]
    app = create_app(settings)
    with TestClient(app, base_url="http://games.example.org:8000") as c:
        assert c.get("/api/rooms").status_code == 200
    with TestClient(app, base_url="http://[::1]:8000") as c:
        assert c.get("/api/rooms").status_code == 200
    with TestClient(app) as c:  # "testserver"
        refused(c.get("/api/rooms"), 400, "bad_host")


def test_declared_oversize_bodies_are_refused_unread(client):
    r = client.post("/api/rooms", content=b"{}", headers={**JSON, "content-length": "70000"})
    refused(r, 413, "too_large")
    r = client.post("/api/rooms", content=b" " * 70_000, headers=JSON)
    refused(r, 413, "too_large")


def test_an_unexpected_failure_uses_the_error_shape(settings):
    app = create_app(settings)

    @app.get("/api/boom")
    async def boom() -> None:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.get("/api/boom")
    refused(r, 500, "internal")
    assert "a bug" not in r.text and "Traceback" not in r.text


@pytest.mark.parametrize("path", ["/", "/rules", "/games", "/api/rooms", "/r/ZZZZ-ZZZZ",
                                  "/nowhere", "/static/js/table/main.js", "/api/openapi.json"])
def test_security_headers_on_every_answer(make_settings, path):
    with TestClient(create_app(make_settings(TEMPLATES_DIR=ROOT / "templates"))) as c:
        r = c.get(path)
    assert r.status_code in (200, 404), r.text
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"


def test_openapi_states_the_error_shape_and_typed_bodies(client):
    doc = client.get("/api/openapi.json").json()
    error_ref = "#/components/schemas/ErrorBody"
    api = {path: methods for path, methods in doc["paths"].items() if path.startswith("/api/")}
    assert len(api) >= 14
    for path, methods in api.items():
        for method, op in methods.items():
            for status in ("400", "413", "422", "500"):
                schema = op["responses"][status]["content"]["application/json"]["schema"]
                assert schema["$ref"] == error_ref, (path, method, status)
            if method == "post":
                assert "415" in op["responses"] and "403" in op["responses"], path
    ok = doc["paths"]["/api/rooms/{code}"]["get"]["responses"]["200"]["content"]
    assert ok["application/json"]["schema"]["$ref"].endswith("/RoomInfo")
    created = doc["paths"]["/api/rooms"]["post"]["responses"]["201"]["content"]
    assert created["application/json"]["schema"]["$ref"].endswith("/CreatedRoom")
    assert client.get("/docs").status_code == 404  # no CDN-fed Swagger UI page


def test_openapi_lists_every_answer(client):
    """Issue 25.13: 404 on the events route and the room and game pages, 405 on every route,
    and the import's body (an export document, its nested models resolvable)."""
    doc = client.get("/api/openapi.json").json()
    for path in ("/api/rooms/{code}/events", "/r/{code}", "/games/{game_id}"):
        assert "404" in doc["paths"][path]["get"]["responses"], path
    for path, methods in doc["paths"].items():
        for method, op in methods.items():
            assert "405" in op["responses"], (path, method)
    body = doc["paths"]["/api/games/import"]["post"]["requestBody"]
    schema = body["content"]["application/json"]["schema"]
    assert body["required"] and "format" in schema["properties"]
    refs = re.findall(r'"\$ref": "#/([^"]+)"', json.dumps(doc))
    for ref in refs:  # every reference points at something in the document
        node = doc
        for part in ref.split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]


def test_schema_valid_numbers_are_taken(client):
    """Issue 25.13: JSON Schema's integer is any number without a fraction: 3.0 players and
    a 3600.0 s bank are what the schema allows, so they are taken; 3.5 and "3" are not."""
    r = client.post("/api/rooms", json={"players": 3.0, "clock": {"turn": 60.0, "bank": 3600.0}})
    assert r.status_code == 201, r.text
    options = client.get(f"/api/rooms/{r.json()['code']}").json()["options"]
    assert options["players"] == 3 and options["clock"] == {"turn": 60, "bank": 3600}
    for players in (3.5, "3", True):
        refused(client.post("/api/rooms", json={"players": players}), 422, "malformed")


def test_the_schema_says_a_name_needs_a_visible_character(client):
    """Issue 25.13: an empty name was schema-valid yet refused; the schema now says so."""
    doc = client.get("/api/openapi.json").json()
    name = doc["components"]["schemas"]["JoinRoom"]["properties"]["name"]
    assert name["pattern"] == r"\S"
    code = client.post("/api/rooms", json={"players": 2}).json()["code"]
    for empty in ("", "   "):
        assert not re.search(name["pattern"], empty)
        refused(client.post(f"/api/rooms/{code}/join", json={"name": empty}), 422, "name_invalid")
