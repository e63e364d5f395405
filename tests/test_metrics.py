"""GET /metrics: what a host's Prometheus sees after a little play, on the metrics
listener (METRICS_PORT) and never on the public port."""

from __future__ import annotations

import httpx
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from server.metrics import metrics_app
from tests.serving import free_port, served
from tests.ws.test_bad_input import refused, seated


def metrics_text(client) -> httpx.Response:
    """GET /metrics from the app's metrics listener (the app `client` serves)."""
    with TestClient(metrics_app(client.app.state.metrics)) as scraper:
        return scraper.get("/metrics")


def scrape(client) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    r = metrics_text(client)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(r.text) for s in family.samples}


def test_metrics_after_some_play(client, table, connect):
    t, seats = seated(table, connect)
    watcher = connect(t.code)
    watcher.hello()
    watcher.recv()
    table(3)  # a waiting room
    actor = seats[t.room.game.current]
    actor.send({"type": "act", "id": 1, "v": actor.v, "action": actor.view["game"]["legal"][0]})
    actor.expect("ack")
    refused(actor, {"type": "act", "id": 2, "v": t.room.v, "action": {"type": "fly"}},
            "malformed_action")
    m = scrape(client)
    assert m[("coffee_rush_rooms", (("status", "playing"),))] == 1
    assert m[("coffee_rush_rooms", (("status", "waiting"),))] == 1
    assert m[("coffee_rush_sockets", (("role", "player"),))] == 2
    assert m[("coffee_rush_sockets", (("role", "spectator"),))] == 1
    assert m[("coffee_rush_actions_total", (("code", ""), ("outcome", "accepted")))] == 1
    refusals = (("code", "malformed_action"), ("outcome", "refused"))
    assert m[("coffee_rush_actions_total", refusals)] == 1
    assert m[("coffee_rush_ack_latency_seconds_count", ())] == 1
    assert m[("coffee_rush_journal_commit_seconds_count", ())] >= 1  # the database journal
    assert m[("coffee_rush_journal_batch_size_count", ())] >= 1
    assert m[("coffee_rush_journal_fallback_lines", ())] == 0
    assert m[("process_resident_memory_bytes", ())] > 10 * 2**20
    assert ("coffee_rush_bot_think_seconds_count", (("level", "greedy"),)) not in m  # no bot yet


def test_bot_thinking_is_timed(client, table):
    t = table(2)
    r = client.post(f"/api/rooms/{t.code}/bot", json={"token": t.host_token, "level": "random"})
    assert r.status_code == 200
    client.post(f"/api/rooms/{t.code}/bot", json={"token": t.host_token, "level": "random"})
    t.start()
    room = t.room
    while room.status != "finished":
        client.portal.call(__import__("anyio").sleep, 0.05)
        if scrape(client).get(("coffee_rush_bot_think_seconds_count", (("level", "random"),))):
            break
    assert scrape(client)[("coffee_rush_bot_think_seconds_count", (("level", "random"),))] >= 1


def test_metrics_never_show_a_token(client, table):
    t = table(2)
    t.join_all()
    text = metrics_text(client).text
    assert t.host_token not in text and all(token not in text for token in t.tokens)


def test_metrics_are_served_on_their_own_port_not_the_public_one(tmp_path):
    """The public port answers /metrics with 404 (before: open to anyone, through nginx
    too); METRICS_HOST:METRICS_PORT serves it, and nothing else."""
    port = free_port()
    with served(tmp_path / "db.sqlite", METRICS_PORT=str(port)) as url:
        public = httpx.get(f"{url}/metrics")
        assert public.status_code == 404 and public.json()["error"]["code"] == "not_found"
        scraped = httpx.get(f"http://127.0.0.1:{port}/metrics")
        assert scraped.status_code == 200 and "coffee_rush_rooms" in scraped.text
        assert httpx.get(f"http://127.0.0.1:{port}/healthz").status_code == 404
