"""Pages: the table embeds the spectator view safely; unknown rooms are a 404 page."""

from __future__ import annotations

import json
import re

from server.api.pages import script_json


def test_table_page_embeds_the_spectator_view(client):
    created = client.post("/api/rooms", json={"players": 2}).json()
    code = created["code"]
    client.post(f"/api/rooms/{code}/join", json={"name": "</script><b>&"})
    page = client.get(f"/r/{code.lower()}")
    assert page.status_code == 200 and f"<h1>{code}</h1>" in page.text
    embedded = re.search(r'type="application/json">(.*)</script>', page.text).group(1)
    assert "<" not in embedded and ">" not in embedded and "&" not in embedded
    view = json.loads(embedded)
    assert view["you"] == {"seat": None, "role": "spectator"} and view["game"] is None
    assert view["room"]["seats"][0]["name"] == "</script><b>&"


def test_unknown_table_is_a_404_page(client):
    """A browser gets the site's page (tests/browser/test_error_pages.py looks at it);
    a client that does not ask for HTML gets the usual JSON error."""
    page = client.get("/r/K7QX-PM2A", headers={"Accept": "text/html,*/*;q=0.8"})
    assert page.status_code == 404 and "text/html" in page.headers["content-type"]
    assert 'data-i18n="error.room.title"' in page.text and 'href="/"' in page.text
    api = client.get("/r/K7QX-PM2A")
    assert api.status_code == 404 and api.json()["error"]["code"] == "not_found"


def test_script_json_round_trips():
    value = {"a": "<!-- </script> & \u2028"}
    assert json.loads(str(script_json(value))) == value
