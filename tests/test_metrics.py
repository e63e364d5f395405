"""GET /metrics: what a host's Prometheus sees after a little play."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from tests.ws.test_bad_input import refused, seated


def scrape(client) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    r = client.get("/metrics")
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
    text = client.get("/metrics").text
    assert t.host_token not in text and all(token not in text for token in t.tokens)
