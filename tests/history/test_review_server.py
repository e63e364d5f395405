"""The expert's review of a finished game on a real server (issue 45): who may ask for it,
computed once in the bot workers and stored with the game, never again, not even after a
restart; then shown by the replay in Chromium (the loss bars, the jump links, the expert's
plan outlined beside the move played, in en/th/ko, at a phone's size)."""

from __future__ import annotations

import asyncio
import dataclasses
import re
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.db import store
from server.db.records import NewRoom, SeatRecord
from server.db.session import make_engine, session_factory
from tests.browser.ui import no_sideways_scroll, save_shot, wait_for
from tests.chromium import chromium, needs_chromium, watched_page
from tests.serving import served

from .helpers import T0, played

# SWEEP_INTERVAL: a claim its holder kept when stopped is taken up once its lease ran out,
# at the next sweep (60 s by default: most of this module's time, waiting).
SETTINGS = {"BOT_WORKERS": "1", "REVIEW_WORK": "0.02", "REVIEW_LEASE": "5",
            "SWEEP_INTERVAL": "1"}
TOKEN = "seat-token-of-ada-in-a-private-game"
COORDINATES = re.compile(r"\b[Rr][1-5][Cc][1-5]\b")


def _private_game(db: Path) -> int:
    """A private (unlisted) game whose room still knows its seats' token hashes."""
    game = played(9, 19, ("Ada", "Bram"))
    record = dataclasses.replace(game.record, room_code="PRIVAT9A",
                                 options={**game.record.options, "public": False})

    async def store_it() -> int:
        engine = make_engine(f"sqlite+aiosqlite:///{db}")
        try:
            async with session_factory(engine).begin() as session:
                await store.create_room(session, NewRoom(
                    "PRIVAT9A", record.options, record.seed, record.rules_version,
                    store.hash_token("host"), T0,
                    (SeatRecord(0, "Ada", None, store.hash_token(TOKEN)),
                     SeatRecord(1, "Bram", None, store.hash_token("another")))))
                return await store.save_finished_game(session, record)
        finally:
            await engine.dispose()

    return asyncio.run(store_it())


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory,
             seeded_db: tuple[Path, list[int]]) -> tuple[Path, list[int], int]:
    copy = tmp_path_factory.mktemp("reviews") / "games.db"
    shutil.copy(seeded_db[0], copy)
    return copy, seeded_db[1], _private_game(copy)


def _until_done(base: str, game_id: int,
                ended: tuple[str, ...] = ("done", "failed")) -> dict[str, Any]:
    for _ in range(600):
        state = httpx.get(f"{base}/api/games/{game_id}/review").json()
        if state["state"] in ended:
            return state
        asyncio.run(asyncio.sleep(0.2))
    raise AssertionError(f"the review of game {game_id} never reached {ended}: {state}")


def _claim(db: Path, game_id: int) -> tuple[str, str | None]:
    with sqlite3.connect(db) as conn:
        state, holder = conn.execute("SELECT state, claimed_by FROM game_reviews "
                                     "WHERE game_id = ?", (game_id,)).fetchone()
    return str(state), holder


def _computed(db: Path, game_id: int) -> int:
    with sqlite3.connect(db) as conn:
        row = conn.execute("SELECT computed FROM game_reviews WHERE game_id = ?",
                           (game_id,)).fetchone()
    return 0 if row is None else int(row[0])


def test_a_review_is_asked_computed_once_and_kept_across_restarts(database):
    db, ids, private = database
    public = ids[0]
    with served(db, **SETTINGS) as base:
        assert httpx.get(f"{base}/api/games/{public}/review").json() == {"state": "none"}
        # A private game: only its players (here, a seat's token) may ask.
        refused = httpx.post(f"{base}/api/games/{private}/review", json={})
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
        wrong = httpx.post(f"{base}/api/games/{private}/review", json={"token": "nope"})
        assert wrong.status_code == 403
        asked = httpx.post(f"{base}/api/games/{private}/review", json={"token": TOKEN})
        assert asked.status_code in (200, 202), asked.text
        # A public game: anyone.
        asked = httpx.post(f"{base}/api/games/{public}/review", json={})
        assert asked.status_code in (200, 202) and asked.json()["state"] in (
            "queued", "running", "done")
        done = _until_done(base, public)
        assert done["state"] == "done"
        review = done["review"]
        assert [p["seat"] for p in review["players"]] == [0, 1]
        assert all(t["loss"] >= 0 and (t["played"] is None or t["best"] >= t["played"] - 1e-9)
                   for t in review["turns"])
        again = httpx.post(f"{base}/api/games/{public}/review", json={})
        assert again.status_code == 200 and again.json() == done
        assert _until_done(base, private)["state"] == "done"
        # Asked, and the server stops at once: given back, or done; never lost.
        third = ids[3]
        assert httpx.post(f"{base}/api/games/{third}/review", json={}).status_code in (200, 202)
        _until_done(base, third, ("running", "done"))
    # Stopped while making it: given back to the queue (nobody's claim), not left running
    # under a holder that is gone until its lease runs out.
    assert _claim(db, third) in (("queued", None), ("done", None))
    with served(db, **SETTINGS) as base:  # a restart of the real server
        assert _until_done(base, public) == done
        assert httpx.post(f"{base}/api/games/{public}/review", json={}).json() == done
        assert _until_done(base, third)["state"] == "done"
    for game_id in (public, private, third):
        assert _computed(db, game_id) == 1  # computed once, whatever was asked


# --- in Chromium -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def reviewed(database) -> Iterator[tuple[str, int, dict[str, Any]]]:
    """The server, with a game's review made (4 players: every seat's colour)."""
    db, ids, _ = database
    game_id = ids[2]
    with served(db, **SETTINGS) as base:
        httpx.post(f"{base}/api/games/{game_id}/review", json={})
        yield base, game_id, _until_done(base, game_id)["review"]


@pytest.fixture(scope="module")
def browser(reviewed) -> Iterator[Any]:  # noqa: ANN001
    """One Chromium for the module's two pages, opened after the review is made (its
    polling runs asyncio.run(), which the sync API's running event loop would break)."""
    with chromium() as b:
        yield b


@needs_chromium
def test_the_replay_shows_the_review_its_bars_links_and_the_experts_plan(reviewed, browser):
    from playwright.sync_api import expect

    base, game_id, review = reviewed
    marked = [i for i, t in enumerate(review["turns"]) if t["grade"]]
    assert marked, "random play: the review marks some turns"
    with watched_page(browser, base) as page:
        page.goto(f"/games/{game_id}")
        panel = page.locator("#review")
        expect(panel).to_have_attribute("data-state", "done")
        # One bar per turn reviewed, the marked ones marked.
        expect(panel.locator(".rv-bar")).to_have_count(len(review["turns"]))
        expect(panel.locator(".rv-bar.rv-blunder, .rv-bar.rv-mistake, .rv-bar.rv-inaccuracy")
               ).to_have_count(len(marked))
        # Each player's line, and their biggest mistakes (at most three) as links.
        expect(panel.locator(".rv-player")).to_have_count(len(review["players"]))
        for p in review["players"]:
            links = panel.locator(f".rv-player[data-seat='{p['seat']}'] .rv-jump")
            expect(links).to_have_count(len(p["worst"]))
        worst = max(marked, key=lambda i: review["turns"][i]["loss"])
        entry = review["turns"][worst]
        panel.locator(f".rv-jump[data-turn='{worst}']").first.click()
        wait_for(page, f"document.body.dataset.step === '{entry['at']}'")
        # There: the expert's plan outlined beside the played one, and one line of why.
        assert page.locator(".review-expert").count() >= 1
        assert page.locator(".review-played").count() >= 1
        line = page.locator("#rv-at .rv-line")
        expect(line).to_contain_text(f"Turn {entry['turn']}")
        said = line.inner_text()
        assert not COORDINATES.search(said), said
        assert "review.why" not in said
        save_shot(page, "review-1440-en")
        # A bar is a jump too; stepping off the turn clears the outlines.
        first = review["turns"][0]
        panel.locator(".rv-bar").first.click()
        wait_for(page, f"document.body.dataset.step === '{first['at']}'")
        if not first.get("grade"):
            assert page.locator(".review-expert").count() == 0
        # Every string in th and ko, translated (not the English fallback; a string of
        # parameters only, review.marks, reads the same in every language).
        missing = page.evaluate(r"""async () => {
          const en = (await import('/static/js/lang/review.en.js')).default;
          const th = (await import('/static/js/lang/review.th.js')).default;
          const ko = (await import('/static/js/lang/review.ko.js')).default;
          const said = (v) => (typeof v === 'string' ? [v] : Object.values(v)).join(' ');
          const words = (v) => /[A-Za-z]{2,}/.test(said(v).replace(/\{[\w.#]+\}/g, ''));
          const bad = [];
          for (const k of Object.keys(en)) {
            for (const [name, table] of [['th', th], ['ko', ko]]) {
              const same = words(en[k]) && said(table[k]) === said(en[k]);
              if (!(k in table) || same) bad.push(`${name}:${k}`);
            }
          }
          return bad;
        }""")
        assert missing == []
        # The phone: the panel fits the width, the bars and links are inside the screen.
        page.set_viewport_size({"width": 360, "height": 740})
        page.goto(f"/games/{game_id}?step={entry['at']}")
        expect(panel).to_have_attribute("data-state", "done")
        for lang in ("th", "ko"):
            page.evaluate(f"import('/static/js/lang/i18n.js').then((m) => m.setLang('{lang}'))")
            expect(panel.locator(".rv-title")).not_to_have_text("The expert's review")
            no_sideways_scroll(page)
            for box in (panel.bounding_box(), panel.locator(".rv-bars").bounding_box(),
                        panel.locator(".rv-jump").first.bounding_box()):
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 361
            save_shot(page, f"review-360-{lang}", full_page=True)


TAB_TO_BARS = """() => document.activeElement && document.activeElement.matches('.rv-bar')"""


@needs_chromium
def test_the_loss_bars_are_read_and_played_with_the_keyboard(reviewed, browser):
    """The chart is one stop of the Tab order; each bar's name gives the player, the turn
    and the points lost; the arrow keys move along the turns (not the replay), Enter jumps
    to the focused turn and the focus stays on its bar."""
    from playwright.sync_api import expect

    base, game_id, review = reviewed
    turns = review["turns"]
    with watched_page(browser, base) as page:
        page.goto(f"/games/{game_id}")
        panel = page.locator("#review")
        expect(panel).to_have_attribute("data-state", "done")
        expect(panel.locator(".rv-bars")).to_have_attribute("role", "toolbar")
        expect(panel.locator(".rv-bar[tabindex='0']")).to_have_count(1)
        for _ in range(80):  # from the top of the page, Tab until a bar has the focus
            page.keyboard.press("Tab")
            if page.evaluate(TAB_TO_BARS):
                break
        assert page.evaluate(TAB_TO_BARS), "no bar is reachable with Tab"
        focused = page.locator(".rv-bar:focus")
        expect(focused).to_have_attribute("data-turn", "0")  # at the start: the first turn
        first = turns[0]
        expect(focused).to_have_accessible_name(re.compile(
            rf"^.+, turn {first['turn']}, −{first['loss']:.1f}"))
        start = page.locator("body").get_attribute("data-step")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        expect(focused).to_have_attribute("data-turn", "2")
        assert page.locator("body").get_attribute("data-step") == start  # the replay stayed
        third = turns[2]
        expect(focused).to_have_accessible_name(re.compile(
            rf"^.+, turn {third['turn']}, −{third['loss']:.1f}"))
        page.keyboard.press("Enter")
        wait_for(page, f"document.body.dataset.step === '{third['at']}'")
        expect(focused).to_have_attribute("data-turn", "2")  # the focus stayed on its bar
        expect(focused).to_have_attribute("aria-current", "step")
        page.keyboard.press("End")
        expect(focused).to_have_attribute("data-turn", str(len(turns) - 1))
        page.keyboard.press(" ")
        wait_for(page, f"document.body.dataset.step === '{turns[-1]['at']}'")
        # The Tab order leaves the chart at once: one stop for all the bars.
        page.keyboard.press("Tab")
        assert not page.evaluate(TAB_TO_BARS)
