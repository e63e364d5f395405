"""The replay viewer in Chromium: step forward and back, jump to a turn, autoplay; the
table shows the meeples and scores the engine gives for that step."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.history import replay_game
from server.rules import apply, view
from tests.browser.ui import wait_for
from tests.chromium import chromium, needs_chromium, watched_page
from tests.serving import served

from .helpers import Played

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def base_url(
    tmp_path_factory: pytest.TempPathFactory, seeded_db: tuple[Path, list[int]]
) -> Iterator[str]:
    """One server for the module, on its own copy of the seeded games: the replay viewer
    only reads them."""
    copy = tmp_path_factory.mktemp("replay") / "games.db"
    shutil.copy(seeded_db[0], copy)
    with served(copy) as url:
        yield url


@pytest.fixture(scope="module")
def browser(base_url: str) -> Iterator[object]:
    """After base_url: Playwright's sync API keeps an event loop running in this thread."""
    with chromium() as b:
        yield b


@pytest.fixture
def page(browser: Any, base_url: str) -> Iterator[object]:
    """A fresh context (its own localStorage) per test."""
    with watched_page(browser, base_url, width=1280) as page:
        yield page


def check_table(page: object, known: Played, step: int) -> None:
    """The board and the player boards show the engine's state after `step` actions."""
    from playwright.sync_api import expect

    expect(page.locator("body")).to_have_attribute("data-step", str(step))  # type: ignore[attr-defined]
    record = known.record
    game = replay_game(record.seed, record.options, record.actions[:step])
    names = [p.name for p in record.players]
    occupied = set()
    for seat, player in enumerate(game.players):
        for cell in player.meeples:
            name = f"r{cell // 4 + 1}c{cell % 4 + 1}"
            occupied.add(name)
            label = re.compile(rf"^Row {name[1]}, column {name[3]}: .*meeple of {names[seat]}")
            expect(page.get_by_role("button", name=label)).to_have_count(1)  # type: ignore[attr-defined]
    with_meeples = page.get_by_role("button", name=re.compile("meeple of"))  # type: ignore[attr-defined]
    expect(with_meeples).to_have_count(len(occupied))
    if game.turn == 0 and not occupied:
        return
    totals = [p["score"]["total"] for p in _scores(game)]
    for seat, name in enumerate(names):
        board = page.get_by_role("region", name=name, exact=True)  # type: ignore[attr-defined]
        expect(board).to_contain_text(re.compile(rf"(^|\D){totals[seat]} points?"))


def _scores(game: object) -> list[dict]:
    return view(game, None)["players"]  # type: ignore[arg-type]


def test_step_back_and_forth_jump_and_autoplay(
    page: object, ids: list[int], games: list[Played]
) -> None:
    from playwright.sync_api import expect

    p: Any = page
    known = games[0]
    steps = len(known.record.actions)
    p.goto(f"/games/{ids[0]}")
    check_table(p, known, 0)
    expect(p.get_by_text(f"Step 0 of {steps}")).to_be_visible()

    forward = p.get_by_role("button", name="Step forward")
    for _ in range(3):
        forward.click()
    check_table(p, known, 3)
    p.get_by_role("button", name="Step back").click()
    check_table(p, known, 2)

    game = replay_game(known.record.seed, known.record.options, ())
    turn_of = []
    for seat, action in known.record.actions:
        apply(game, action, seat)
        turn_of.append(game.turn)
    target = next(i for i, turn in enumerate(turn_of, 1) if turn >= 5)
    p.get_by_role("spinbutton", name="Turn").fill("5")
    p.get_by_role("button", name="Go to turn").click()
    check_table(p, known, target)
    expect(p.get_by_text(re.compile(rf"Turn 5 of {game.turn}"))).to_be_visible()
    assert f"step={target}" in p.url

    p.get_by_role("button", name="Last step").click()
    check_table(p, known, steps)
    # Round and turn numbers agree with the history list: a round is each player's turn once.
    rounds = max(known.record.result["turns"])
    where = rf"Turn {game.turn} of {game.turn} · round {rounds} of {rounds}$"
    expect(p.get_by_text(re.compile(where))).to_be_visible()
    p.goto("/games")
    expect(p.locator(f'tr[data-game="{ids[0]}"]')).to_contain_text(f"{rounds} rounds")
    p.go_back()
    check_table(p, known, steps)
    final = p.get_by_role("heading", name="Final scores")
    expect(final).to_be_visible()
    expect(forward).to_be_disabled()

    p.get_by_role("button", name="First step").click()
    check_table(p, known, 0)
    p.get_by_label("Speed").select_option("250")
    p.get_by_role("button", name="Play").click()
    # Autoplay moves on every 250 ms: wait until it has gone some steps (polling could miss
    # any one exact step on a busy machine).
    wait_for(p, "Number(document.body.dataset.step) >= 3")
    p.get_by_role("button", name="Pause").click()
    stopped = p.locator("body").get_attribute("data-step")
    p.wait_for_timeout(700)
    assert p.locator("body").get_attribute("data-step") == stopped
    check_table(p, known, int(stopped))


@pytest.mark.parametrize("locale", ["en-US", "th-TH", "ko-KR"])
def test_the_replay_fits_one_desktop_screen(
    page: object, ids: list[int], games: list[Played], locale: str
) -> None:
    """The replay controls, the whole board and the focused player's cups and orders are
    visible without scrolling at 1440×900 and 1366×768, mid-game and at the end."""
    from tests.browser.geometry import DESKTOPS, outside_window, words_fit
    from tests.browser.ui import screenshot

    p: Any = page
    lang = locale[:2]
    p.add_init_script(f"localStorage.setItem('cr.lang', '{lang}')")
    steps = len(games[0].record.actions)
    parts = {"#replay-bar": "replay controls", "#board": "board",
             "#me-area .cups": "cups", "#me-area .tabs": "orders", "#prompt": "prompt"}
    for step in (steps // 2, steps - 1):
        p.goto(f"/games/{ids[0]}?step={step}")
        p.wait_for_selector(f"body[data-step='{step}']")
        for width, height in DESKTOPS:
            p.set_viewport_size({"width": width, "height": height})
            p.wait_for_timeout(50)
            bad = outside_window(p, parts)
            assert not bad, f"replay step {step} at {width}×{height}: {bad}"
            words_fit(p)
            board_fills_height_below_controls(p)
            screenshot(p, f"replay-{step}-{width}-{lang}", full_page=False)


def board_fills_height_below_controls(p: Any) -> None:
    got = p.evaluate("""() => { const b = document.getElementById('board').getBoundingClientRect();
      const c = document.getElementById('replay-bar').getBoundingClientRect();
      return [b.top - c.bottom, b.height, innerHeight - c.bottom]; }""")
    gap, height, room = got
    assert gap < 24, f"dead space of {gap:.0f}px between the controls and the board"
    assert height >= 0.6 * room, "the board is small for the window"
