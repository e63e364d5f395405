"""Who is who and continuity, in a real Chromium against a real server:

- every seat has a distinct, stable name with its badge (two greedy bots differ, two
  people called Alice differ), a stand-in is shown playing *for* its player, log lines
  carry badges, another player's hand is never called yours;
- reloading, or arriving mid-game, shows what happened before;
- a tab whose seat moved elsewhere, or whose connection is down, is dimmed and inert, says
  why, and can take the seat back;
- "Play again" keeps everyone seated, each with a new seat token on their own page;
- no developer wording reaches a player; a double click creates one table.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.serving import served

from .players import RandomPlayer, join
from .test_full_games import CANDIDATES
from .ui import button, screenshot, settled, wait_for

pytestmark = pytest.mark.browser
FAST = {"TEST_FIXED_SEED": "7", "BOT_DELAY": "0.3", "BOT_BUDGET": "0.05", "BOT_WORKERS": "1",
        "SEAT_GRACE": "0", "TAKEOVER_LEVEL": "greedy", "ROOM_CREATE_RATE": "1000"}


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Bots that move every 0.3 s; an away player gets a greedy stand-in at once."""
    with served(tmp_path_factory.mktemp("who-db") / "who.db", **FAST) as url:
        yield url


def seat_page(new_page, code: str, token: str | None, **size: int) -> Page:  # noqa: ANN001
    page = new_page(**size)
    if token:
        page.add_init_script(f"localStorage.setItem('cr.seat.{code.replace('-', '')}', '{token}')")
    page.goto(f"/r/{code.replace('-', '')}")
    return page


def create(base_url: str, players: int, **options: object) -> tuple[str, str]:
    made = httpx.post(f"{base_url}/api/rooms", json={"players": players, **options}).json()
    return made["code"], made["host_token"]


def test_every_seat_is_recognisable_and_history_survives_a_reload(
    new_page, base_url: str  # noqa: ANN001
) -> None:
    code, host = create(base_url, 4, starting_player=0)
    join(base_url, code, "Alice")  # seat 0, never connects: a stand-in plays for her
    for seat in (1, 2):
        httpx.post(f"{base_url}/api/rooms/{code}/bot",
                   json={"token": host, "seat": seat, "level": "greedy"}).raise_for_status()
    httpx.post(f"{base_url}/api/rooms/{code}/join", json={"name": "Alice", "seat": 3})
    httpx.post(f"{base_url}/api/rooms/{code}/start", json={"token": host}).raise_for_status()

    watcher = seat_page(new_page, code, None, width=1440, height=900)
    names = watcher.locator(".pboard .pname")
    expect(names).to_have_count(4)
    expect(watcher.locator('.pboard[data-seat="1"] .pname')).to_have_text("Bot B (greedy)")
    expect(watcher.locator('.pboard[data-seat="2"] .pname')).to_have_text("Bot C (greedy)")
    expect(watcher.locator('.pboard[data-seat="0"] .pname')).to_have_text("Alice (A)")
    expect(watcher.locator('.pboard[data-seat="3"] .pname')).to_have_text("Alice (D)")
    # A stand-in plays *for* Alice: her board says so; it is not another player.
    expect(watcher.locator('.pboard[data-seat="0"] .standin')).to_have_text(
        "A greedy bot is playing for Alice (A) until they are back")
    # The hand shown belongs to the acting player, and says whose it is.
    label = wait_for(watcher, """() => !document.getElementById('hand').hidden &&
      document.getElementById('hand-label').textContent""", timeout=30_000)
    assert label != "Your hand" and re.fullmatch(r"(Alice \([AD]\)|Bot [BC] \(greedy\))'s hand",
                                                 label), label
    # Log lines carry the badge of the seat they are about (the log is a tab beside the
    # opponents, and stays the chosen tab after the reload below).
    watcher.get_by_role("tab", name="Log").click()
    expect(watcher.locator("#log-list li.ev-moved").first).to_be_visible(timeout=30_000)
    lines = watcher.evaluate("""() => [...document.querySelectorAll('#log-list li')]
      .filter(li => li.dataset.seat !== '')
      .map(li => [li.dataset.seat, li.querySelector('.badge')?.textContent])""")
    assert lines and all(badge == "ABCD"[int(seat)] for seat, badge in lines), lines
    screenshot(watcher, "who-is-who-1440-en", full_page=False)
    # (The language buttons are pressed from script: the table moves every 0.3 s, and a
    # pointer click could land on whatever shifted under it.)
    for lang in ("th", "ko", "en"):
        watcher.evaluate(f"document.querySelector('.lang-btn[lang={lang}]').click()")
        expect(watcher.locator("html")).to_have_attribute("lang", lang)
        if lang != "en":
            screenshot(watcher, f"who-is-who-1440-{lang}", full_page=False)

    # Reloading shows what happened before the reload: the game's lines (presence and
    # spectator lines are of the moment; on a slow machine they can be among the newest).
    game = "#log-list li:not(.ev-presence):not(.ev-spectators)"
    before = watcher.locator(f"{game} .ev-text").nth(2).text_content() or ""
    game_lines = watcher.locator(game).count()
    watcher.reload()
    expect(watcher.locator("#log-list li .ev-text").filter(has_text=before).first).to_be_visible()
    assert watcher.locator("#log-list li").count() >= 5
    # The whole game comes back (issue 26), not only the last lines: every game line.
    assert watcher.locator("#log-list li.ev-placed").count() >= 2  # the first turn's meeples
    # (Seat and start lines older than the room's last 80 may be gone.)
    assert watcher.locator(game).count() >= game_lines - 3
    # So does arriving mid-game on another device.
    late = seat_page(new_page, code, None, width=360, height=740)
    late.get_by_role("tab", name="Log").click()
    expect(late.locator("#log-list li.ev-seat_joined").first).to_be_visible()
    assert late.locator("#log-list li").count() >= 5
    screenshot(late, "arrival-log-360-en", full_page=False)


def test_a_tab_whose_seat_moved_is_inactive_and_takes_it_back(new_page, base_url: str) -> None:  # noqa: ANN001
    code, host = create(base_url, 2, starting_player=0)
    _, token = join(base_url, code, "Mina")
    join(base_url, code, "Olu")
    httpx.post(f"{base_url}/api/rooms/{code}/start", json={"token": host}).raise_for_status()
    first = seat_page(new_page, code, token, width=1366, height=768)
    expect(first.locator(".pboard.is-me .pname")).to_have_text("Mina (You)")
    # The same seat opened in another tab (same browser profile) takes the seat.
    second = first.context.new_page()
    second.goto(first.url)
    expect(second.locator(".pboard.is-me .pname")).to_have_text("Mina (You)")
    expect(first.locator("body")).to_have_attribute("data-inactive", "replaced")
    expect(first.locator("#prompt")).to_have_text(re.compile("another tab or device"))
    assert first.evaluate("document.getElementById('game').inert")
    opacity = first.evaluate("getComputedStyle(document.getElementById('board-area')).opacity")
    assert float(opacity) < 0.6
    # Its clicks cannot look accepted: the board is inert, nothing is sent.
    first.locator("#board .cell").first.dispatch_event("click")
    assert first.locator("body").get_attribute("data-busy") == "0"
    screenshot(first, "inactive-replaced-1366-en", full_page=False)
    button(first, "Take my seat back here").click()
    expect(first.locator("body")).not_to_have_attribute("data-inactive", re.compile("."))
    expect(second.locator("body")).to_have_attribute("data-inactive", "replaced")
    assert not first.evaluate("document.getElementById('game').inert")


def test_a_tab_whose_connection_is_down_is_inactive(new_page, tmp_path) -> None:  # noqa: ANN001
    with served(tmp_path / "down.db", **FAST) as url:
        code, host = create(url, 2, starting_player=0)
        _, token = join(url, code, "Mina")
        join(url, code, "Olu")
        httpx.post(f"{url}/api/rooms/{code}/start", json={"token": host}).raise_for_status()
        page = new_page(width=1366, height=768)
        page.add_init_script(f"localStorage.setItem('cr.seat.{code.replace('-', '')}', '{token}')")
        page.goto(f"{url}/r/{code.replace('-', '')}")
        expect(page.locator(".pboard.is-me .pname")).to_have_text("Mina (You)")
        expect(page.locator("body")).not_to_have_attribute("data-inactive", re.compile("."))
    # The server is gone (stopped for real): the tab says so and plays nothing.
    expect(page.locator("body")).to_have_attribute("data-inactive", re.compile("lost"))
    expect(page.locator("#prompt")).to_have_text(re.compile("connection is down"))
    assert page.evaluate("document.getElementById('game').inert")
    screenshot(page, "inactive-lost-1366-en", full_page=False)


def test_play_again_keeps_everyone_seated(new_page, base_url: str) -> None:  # noqa: ANN001
    code, host = create(base_url, 2, starting_player=0)
    _, mina = join(base_url, code, "Mina")
    _, olu = join(base_url, code, "Olu")
    players = [RandomPlayer(base_url, code, token, seed=k) for k, token in enumerate((mina, olu))]
    for p in players:
        p.start()
    httpx.post(f"{base_url}/api/rooms/{code}/start", json={"token": host}).raise_for_status()
    for p in players:
        assert p.done.wait(120) and p.failure is None, p.failure
    mina_page = seat_page(new_page, code, mina, width=1440, height=900)
    olu_page = seat_page(new_page, code, olu, width=360, height=740)
    expect(mina_page.get_by_role("heading", name="Final scores")).to_be_visible()
    old = mina_page.url
    button(mina_page, "Play again").click()
    mina_page.wait_for_url(lambda u: u != old and "/r/" in u)
    new_code = mina_page.url.rsplit("/", 1)[1]
    expect(mina_page.locator(".seat-name").filter(has_text="Mina")).to_be_visible()
    expect(mina_page.get_by_text("(you, host)")).to_be_visible()  # still the host
    # Olu's own page offers the seat kept for them; following it seats Olu there.
    go = olu_page.get_by_role("button", name=re.compile("Your seat is ready at"))
    go.click()
    olu_page.wait_for_url(re.compile(new_code))
    expect(olu_page.get_by_text("(you)")).to_be_visible()
    expect(olu_page.locator(".seat-name")).to_have_text(["Mina", "Olu"])
    # Both are seated under their names, each with a new token of their own.
    expect(mina_page.get_by_role("button", name="Start the game")).to_be_enabled()
    info = httpx.get(f"{base_url}/api/rooms/{new_code}").json()
    assert [s["name"] for s in info["seats"]] == ["Mina", "Olu"]
    key = f"cr.seat.{new_code.replace('-', '')}"  # kept under the bare code
    tokens = [p.evaluate(f"localStorage.getItem('{key}')") for p in (mina_page, olu_page)]
    assert None not in tokens and len(set(tokens + [mina, olu])) == 4
    screenshot(olu_page, "rematch-seated-360-en", full_page=False)


def test_no_developer_wording_and_one_table_per_double_click(new_page, base_url: str) -> None:  # noqa: ANN001
    page = new_page(width=1366, height=768)
    page.goto("/")
    before = httpx.get(f"{base_url}/healthz").json()["rooms"]
    page.get_by_role("button", name="Create table").dblclick()
    page.wait_for_url(re.compile(r"/r/"))
    page.wait_for_timeout(300)  # a second request would have been answered by now
    assert httpx.get(f"{base_url}/healthz").json()["rooms"] == before + 1
    code = page.url.rsplit("/", 1)[1]
    page.get_by_label("Your name").fill("Mina")
    button(page, "Sit in seat 1").click()
    bot = page.get_by_role("button", name="Add a bot to seat 2")
    expect(page.get_by_label("Bot strength for seat 2")).to_have_value("greedy")
    bot.dblclick()
    expect(page.locator(".seat-name")).to_have_text(["Mina", "Bot B (greedy)"])
    button(page, "Start the game").click()
    toasts: list[str] = []
    page.expose_function("noteToast", lambda text: toasts.append(text))
    page.evaluate("""() => new MutationObserver(() => {
        const t = document.getElementById('toast');
        if (!t.hidden && t.textContent) window.noteToast(t.textContent);
      }).observe(document.getElementById('toast'), {attributes: true, childList: true})""")
    # Double clicks on the board and on the phase buttons through a few turns.
    for turn in range(12):
        wait_for(page, """() => document.body.dataset.busy === '0' &&
          document.getElementById('table-root').classList.contains('my-turn')""", timeout=30_000)
        count = page.evaluate(CANDIDATES)
        page.locator(f'[data-cand="{turn % count}"]').dblclick()
        settled(page)
    assert all(not re.search(r"version|stale|\d{2,}|R-[A-Z]", t) for t in toasts), toasts
    assert code
