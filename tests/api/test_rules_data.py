"""Component data comes from the server (server/api/rules_data.py), never a copy in JS."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path

from fastapi.testclient import TestClient

from server.api.models import SeatBot
from server.api.rules_data import rules_data
from server.bots.levels import LEVELS
from server.main import create_app
from server.rules.data import INGREDIENTS, UPGRADES

JS = Path(__file__).resolve().parents[2] / "static" / "js"
EMBEDDED = re.compile(r'<script type="application/json" id="rules-data">(.*?)</script>')


def test_the_api_and_every_page_give_the_same_data(make_settings):
    settings = make_settings(TEMPLATES_DIR=JS.parents[1] / "templates")  # the real pages
    with TestClient(create_app(settings)) as client:
        _pages_embed_the_data(client)


def _pages_embed_the_data(client: TestClient) -> None:
    data = client.get("/api/rules-data").json()
    assert data == rules_data()
    assert data["board"][0] == ["ice", "caramel", "steam", "coffee"]
    assert data["corners"] == ["r1c1", "r1c4", "r4c1", "r4c4"]
    assert data["specialty_cells"] == ["r1c2", "r2c4", "r3c1", "r4c3"]
    code = client.post("/api/rooms", json={"players": 2}).json()["code"]
    for path in ("/", f"/r/{code}", "/rules", "/games"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert json.loads(EMBEDDED.search(page.text).group(1)) == data, path


def test_the_bot_level_choices_are_the_bots_packages() -> None:
    literal = SeatBot.model_fields["level"].annotation
    assert typing.get_args(literal) == tuple(LEVELS) == tuple(rules_data()["bot_levels"])


def test_no_component_data_is_copied_into_the_client() -> None:
    data = rules_data()
    copies = [data["code_alphabet"], '"over"', *(f'"{tile}"' for tile in UPGRADES),
              '"thumbs", "sweat"', '"random", "greedy"', '"placement", "starting_cup"']
    ingredient_list = re.compile(r'\[\s*"(?:%s)",\s*"(?:%s)"' % (("|".join(INGREDIENTS),) * 2))
    for path in JS.rglob("*.js"):
        text = path.read_text()
        for copy in copies:
            assert copy not in text, f"{path.relative_to(JS)} copies {copy}"
        assert not ingredient_list.search(text), f"{path.relative_to(JS)} lists ingredients"
