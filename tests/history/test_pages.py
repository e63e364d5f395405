"""The pages /games (the list) and /games/{id} (the replay viewer) render from the database."""

from __future__ import annotations

import html
import json
import re

from fastapi.testclient import TestClient

from .helpers import Played


def test_the_list_page_shows_players_scores_dates_and_lengths(
    api: TestClient, ids: list[int], games: list[Played]
) -> None:
    r = api.get("/games")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    page = html.unescape(r.text)
    for known, game_id in zip(games, ids, strict=True):
        row = page[page.index(f'<tr data-game="{game_id}">'):]
        row = row[:row.index("</tr>")]
        assert f'href="/games/{game_id}"' in row
        for p in known.record.players:
            assert p.name in row
        totals = [int(n) for n in re.findall(r'data-args=\'\{"n": (-?\d+)\}\'', row)]
        assert sorted(totals) == sorted(s["total"] for s in known.final.result["scores"])
        assert f'datetime="{known.record.ended_at.isoformat()}"' in row
        args = [json.loads(a) for a in re.findall(r"data-args='(.*?)'", row)]
        assert max(known.final.result["turns"]) in [a["turns"] for a in args if "turns" in a]
    assert "/static/js/replay/games.js" in page


def test_the_list_page_filters_by_player(api: TestClient, ids: list[int]) -> None:
    page = api.get("/games", params={"player": "chloé"}).text
    shown = [int(n) for n in re.findall(r'<tr data-game="(\d+)">', page)]
    assert shown == [ids[2], ids[1]]
    assert 'value="chloé"' in page


def test_the_replay_page_embeds_the_first_view_and_every_step(
    api: TestClient, ids: list[int], games: list[Played]
) -> None:
    r = api.get(f"/games/{ids[0]}")
    assert r.status_code == 200
    data = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>',
                     r.text, re.S)
    assert data is not None
    replay = json.loads(data.group(1))
    assert len(replay["steps"]) == len(games[0].record.actions)
    assert [s["name"] for s in replay["room"]["seats"]] == ["Ada", "Bram"]
    first = re.search(r'<script type="application/json" id="initial-view">(.*?)</script>',
                      r.text, re.S)
    assert first is not None and json.loads(first.group(1))["game"] == replay["initial"]
    # the live table's markup, driven by the replay script
    for marker in ('id="board"', 'id="players"', 'id="rp-forward"', "/static/js/replay/replay.js",
                   f'href="/api/games/{ids[0]}/export"'):
        assert marker in r.text, marker


def test_an_unknown_replay_page_is_404(api: TestClient) -> None:
    assert api.get("/games/4242").status_code == 404


def test_a_finished_rooms_links_lead_to_its_replay(
    api: TestClient, ids: list[int], games: list[Played]
) -> None:
    """The final screen's "Watch the replay" is /r/{code}/replay; once the room itself is
    gone from memory, its table link /r/{code} leads to the replay too (not a dead end)."""
    code = games[0].record.room_code
    for path in (f"/r/{code}/replay", f"/r/{code[:4]}-{code[4:]}".lower(), f"/r/{code}"):
        r = api.get(path, follow_redirects=False)
        assert (r.status_code, r.headers["location"]) == (303, f"/games/{ids[0]}"), path


def test_a_room_never_played_is_still_not_found(api: TestClient) -> None:
    for path in ("/r/ZZZZZZZZ", "/r/ZZZZZZZZ/replay", "/r/not-a-code/replay"):
        r = api.get(path, headers={"accept": "text/html"})
        assert r.status_code == 404, path
